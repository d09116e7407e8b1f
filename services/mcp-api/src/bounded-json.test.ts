import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { boundedJson } from './bounded-json.js';

describe('boundedJson', () => {
  test.prop([fc.jsonValue(), fc.nat({ max: 400 })])('is the prefix of JSON.stringify, cut exactly when longer than the bound', (value, limit) => {
    const whole = JSON.stringify(value);
    const { text, cut } = boundedJson(value, limit);
    expect(text).toBe(whole.slice(0, limit));
    expect(cut).toBe(whole.length > limit);
  });

  it('writes what JSON.stringify writes for members it omits or nulls', () => {
    const value = { a: undefined, b: [undefined, () => 1, 2], c: 'x' };
    expect(boundedJson(value, 1000)).toEqual({ text: JSON.stringify(value), cut: false });
  });

  it('stops early on a huge array: the work follows the bound, not the value', () => {
    const huge = { model: Array.from({ length: 2_000_000 }, (_, i) => i + 1) };
    const { text, cut } = boundedJson(huge, 50);
    expect(cut).toBe(true);
    expect(text).toBe('{"model":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,1');
  });
});

import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { JacobianError } from '../../errors.js';
import { readGroupOperand } from './permutation-group.js';

/** A permutation of {0..n-1} written in cycle notation, fixed points left out. */
function cycleNotation(image: readonly number[], separator: string): string {
  const seen = new Set<number>();
  let text = '';
  for (let start = 0; start < image.length; start++) {
    if (seen.has(start) || image[start] === start) continue;
    const cycle: number[] = [];
    for (let p = start; !seen.has(p); p = image[p] as number) {
      seen.add(p);
      cycle.push(p);
    }
    text += `(${cycle.join(separator)})`;
  }
  return text;
}

const permutation = fc.integer({ min: 1, max: 20 }).chain((n) => fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i), { minLength: n, maxLength: n }));

const rule = (f: () => unknown): unknown => {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    return (error as JacobianError).data?.['rule'];
  }
  return null;
};

describe('readGroupOperand', () => {
  test.prop([permutation, fc.constantFrom(' ', ',', ', ')])('reads cycle notation as the image array it writes', (image, separator) => {
    const read = readGroupOperand({ generators: [cycleNotation(image, separator)], degree: image.length });
    expect(read.generators).toEqual([image]);
    expect(readGroupOperand({ generators: [image] }).generators).toEqual([image]);
  });

  test.prop([permutation, fc.nat(), fc.nat()])('refuses an image array that repeats a point, at that position', (image, a, b) => {
    fc.pre(image.length > 1);
    const i = a % image.length;
    const j = b % image.length;
    fc.pre(i !== j);
    const broken = [...image];
    broken[j] = broken[i] as number;
    expect(rule(() => readGroupOperand({ generators: [broken] }))).toBe('bijection');
  });

  it('names the rule of each refusal', () => {
    expect(rule(() => readGroupOperand({ generators: ['(0 1)(1 2)'] }))).toBe('bijection');
    expect(rule(() => readGroupOperand({ generators: ['0 1'] }))).toBe('permutation-syntax');
    expect(rule(() => readGroupOperand({ generators: [[0, 3, 1]] }))).toBe('point-range');
    expect(rule(() => readGroupOperand({ generators: [[0, 1], '(0 2)'] }))).toBe('point-range');
    expect(rule(() => readGroupOperand({ generators: [[0, 1], [0, 1, 2]] }))).toBe('degree-consistency');
    expect(rule(() => readGroupOperand({ generators: [] }))).toBe('degree-consistency');
    expect(rule(() => readGroupOperand({ generators: ['(0 64)'] }))).toBe('size');
    const aut = { graph: { order: 3 }, order: '2', generators: [[0, 2, 1]], generators_truncated: false };
    expect(rule(() => readGroupOperand({ automorphism_group: { ...aut, order: null } }))).toBe('incomplete-group');
    expect(readGroupOperand({ automorphism_group: aut })).toMatchObject({ degree: 3, statedOrder: 2n, generators: [[0, 2, 1]] });
    expect(readGroupOperand({ generators: ['()'], degree: 2 }).generators).toEqual([[0, 1]]);
  });
});

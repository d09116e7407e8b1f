import { describe, expect, it } from 'vitest';
import { inOwnTurn, jsonLongerThanAbout } from './turns.js';

describe('inOwnTurn: large synchronous steps, one per turn of the event loop', () => {
  it('runs steps in the order asked, each in a later turn, with what was queued meanwhile handled between them', async () => {
    const order: string[] = [];
    const first = inOwnTurn(() => {
      order.push('first step');
      // Work that arrives while a step runs (here: an immediate, as an answer to another request would be) comes before the next step.
      setImmediate(() => order.push('other work'));
      return 1;
    });
    const second = inOwnTurn(() => {
      order.push('second step');
      return 2;
    });
    order.push('asked');
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(order).toEqual(['asked', 'first step', 'other work', 'second step']);
  });

  it('rejects with what a step threw, and runs the steps after it', async () => {
    const failing = inOwnTurn(() => {
      throw new RangeError('bad step');
    });
    const next = inOwnTurn(() => 'ran');
    await expect(failing).rejects.toThrow(RangeError);
    expect(await next).toBe('ran');
  });
});

describe('jsonLongerThanAbout', () => {
  it('tells a 300 KB graph from a small payload', () => {
    const edges: number[][] = [];
    for (let i = 0; i < 256; i++) for (let j = i + 1; j < 256; j++) edges.push([i, j]);
    expect(jsonLongerThanAbout({ graph: { order: 256, edges } }, 64 * 1024)).toBe(true);
    expect(jsonLongerThanAbout({ graph: { order: 10, edges: edges.slice(0, 15) } }, 64 * 1024)).toBe(false);
    expect(jsonLongerThanAbout({ dimacs: 'x'.repeat(70 * 1024) }, 64 * 1024)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { roundsFor, SHORT_CASE_GENG_MS, SHORT_CASE_MIN_ROUNDS, SHORT_CASE_MS } from './graphs.js';

describe('roundsFor', () => {
  it('keeps --graphs-repeat for a case whose geng direct run is not short', () => {
    expect(roundsFor(SHORT_CASE_MS, 3)).toBe(3);
    expect(roundsFor(6000, 1)).toBe(1);
    expect(roundsFor(Number.POSITIVE_INFINITY, 2)).toBe(2);
  });

  it('gives a short case as many rounds as fit its share of geng direct time, and never fewer than the minimum', () => {
    // triangle-free at n = 10 on an Intel Xeon host (2026-12-06): geng about 31 ms.
    expect(roundsFor(31, 3)).toBe(Math.ceil(SHORT_CASE_GENG_MS / 31));
    expect(roundsFor(31, 3)).toBeGreaterThan(SHORT_CASE_MIN_ROUNDS);
    // n = 9, every graph: geng about 180 ms, so the minimum decides.
    expect(roundsFor(180, 1)).toBe(SHORT_CASE_MIN_ROUNDS);
    // A larger --graphs-repeat wins.
    expect(roundsFor(31, 500)).toBe(500);
  });

  it('does not divide by a run measured as 0 ms', () => {
    expect(roundsFor(0, 1)).toBe(SHORT_CASE_GENG_MS);
  });
});

import { describe, expect, it } from 'vitest';
import { bootstrapRatioOfMedians, median } from './stats.js';

/** Pairs whose numerator is `factor` times the denominator, each with a relative noise of up to `noise`, from a fixed sequence. */
function pairs(count: number, factor: number, noise: number): { numerators: number[]; denominators: number[] } {
  const numerators: number[] = [];
  const denominators: number[] = [];
  for (let i = 0; i < count; i++) {
    const wobble = Math.sin(i * 12.9898) * 0.5 + 0.5;
    const other = Math.sin(i * 78.233 + 1) * 0.5 + 0.5;
    denominators.push(16 * (1 + noise * wobble));
    numerators.push(16 * factor * (1 + noise * other));
  }
  return { numerators, denominators };
}

describe('bootstrapRatioOfMedians', () => {
  it('is the ratio itself when every pair has the same values', () => {
    expect(bootstrapRatioOfMedians([22, 22, 22], [20, 20, 20])).toEqual([1.1, 1.1]);
  });

  it('holds the ratio of the medians, and widens with the noise of the rounds', () => {
    const quiet = pairs(15, 1.1, 0.02);
    const noisy = pairs(15, 1.1, 0.3);
    for (const { numerators, denominators } of [quiet, noisy]) {
      const [low, high] = bootstrapRatioOfMedians(numerators, denominators)!;
      const point = median(numerators) / median(denominators);
      expect(low).toBeLessThanOrEqual(point);
      expect(high).toBeGreaterThanOrEqual(point);
    }
    const [quietLow, quietHigh] = bootstrapRatioOfMedians(quiet.numerators, quiet.denominators)!;
    const [noisyLow, noisyHigh] = bootstrapRatioOfMedians(noisy.numerators, noisy.denominators)!;
    expect(noisyHigh - noisyLow).toBeGreaterThan(5 * (quietHigh - quietLow));
  });

  it('follows from its samples: the same samples and seed give the same interval; a wider level a wider one', () => {
    const { numerators, denominators } = pairs(20, 1.2, 0.2);
    expect(bootstrapRatioOfMedians(numerators, denominators)).toEqual(bootstrapRatioOfMedians(numerators, denominators));
    const [low90, high90] = bootstrapRatioOfMedians(numerators, denominators, { level: 0.9 })!;
    const [low99, high99] = bootstrapRatioOfMedians(numerators, denominators, { level: 0.99 })!;
    expect(low99).toBeLessThanOrEqual(low90);
    expect(high99).toBeGreaterThanOrEqual(high90);
    expect(high99 - low99).toBeGreaterThan(high90 - low90);
  });

  it('resamples the two runs of a round together', () => {
    // Each round's capability run is exactly 1.1 times its geng run, however the rounds drift:
    // resampled in pairs, every resampled ratio of medians is 1.1.
    const denominators = [10, 30, 12, 28, 15, 25, 11, 29];
    const numerators = denominators.map((ms) => ms * 1.1);
    expect(bootstrapRatioOfMedians(numerators, denominators)).toEqual([1.1, 1.1]);
  });

  it('draws the two sides on their own when unpaired, which a drift between rounds then widens', () => {
    const denominators = [10, 30, 12, 28, 15, 25, 11, 29];
    const numerators = denominators.map((ms) => ms * 1.1);
    const [low, high] = bootstrapRatioOfMedians(numerators, denominators, { paired: false })!;
    expect(low).toBeLessThan(1.1);
    expect(high).toBeGreaterThan(1.1);
    // Sides of different lengths are fine unpaired.
    expect(bootstrapRatioOfMedians([20, 21, 22], [10, 11], { paired: false })).not.toBeNull();
    expect(bootstrapRatioOfMedians([20, 21, 22], [10], { paired: false })).toBeNull();
  });

  it('has no interval for fewer than two rounds', () => {
    expect(bootstrapRatioOfMedians([22], [20])).toBeNull();
    expect(bootstrapRatioOfMedians([], [])).toBeNull();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { RunProgressSchema, throttleProgress, validProgress, type RunProgress } from './progress.js';

describe('RunProgress', () => {
  it.each([
    [{ progress: 0 }, true],
    [{ progress: 3, total: 10, message: 'bounds 3..7' }, true],
    [{ progress: -1 }, false],
    [{ progress: 11, total: 10 }, false],
    [{ progress: Number.NaN }, false],
    [{ progress: 1, extra: true }, false],
    [{ progress: 1, message: 'x'.repeat(201) }, false],
    ['1', false],
  ])('%j valid: %s', (value, valid) => {
    expect(RunProgressSchema.safeParse(value).success).toBe(valid);
    expect(validProgress(value) !== undefined).toBe(valid);
  });
});

describe('throttleProgress', () => {
  it('passes the first report at once, coalesces a burst into its latest, and flushes on demand', () => {
    vi.useFakeTimers();
    try {
      const seen: RunProgress[] = [];
      const throttled = throttleProgress((p) => seen.push(p), 100);
      throttled({ progress: 1 });
      throttled({ progress: 2 });
      throttled({ progress: 3 });
      expect(seen).toEqual([{ progress: 1 }]);
      vi.advanceTimersByTime(100);
      expect(seen).toEqual([{ progress: 1 }, { progress: 3 }]);
      throttled({ progress: 4 });
      throttled.flush();
      expect(seen.at(-1)).toEqual({ progress: 4 });
      throttled({ progress: 5 });
      throttled.cancel();
      vi.advanceTimersByTime(1000);
      expect(seen.at(-1)).toEqual({ progress: 4 });
    } finally {
      vi.useRealTimers();
    }
  });
});

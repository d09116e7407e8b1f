import { z } from 'zod';

/** Longest progress message, in characters. */
export const PROGRESS_MESSAGE_MAX = 200;

/**
 * How far a run has come, as its capability reports it: `progress` grows with the work done
 * (solver calls, cases checked), `total` is its end when known, `message` a short statement
 * of where the run stands (for example the current bounds). Progress is informational: it is
 * never a result, and a run that stops early concludes nothing from it.
 *
 * Reports cross process boundaries (pool child → runner → Redis → API), so each is validated
 * where it arrives.
 */
export const RunProgressSchema = z
  .object({
    progress: z.number().finite().min(0),
    total: z.number().finite().min(0).optional(),
    message: z.string().max(PROGRESS_MESSAGE_MAX).optional(),
  })
  .strict()
  .refine((p) => p.total === undefined || p.progress <= p.total, { message: 'progress must not exceed total', path: ['progress'] });
export type RunProgress = z.infer<typeof RunProgressSchema>;

/** Receives progress reports; must not throw, and is never awaited. */
export type ProgressListener = (progress: RunProgress) => void;

/** The report if it is valid, else undefined: a malformed report is dropped, never an error of the run. */
export function validProgress(value: unknown): RunProgress | undefined {
  const parsed = RunProgressSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A listener that passes on at most one report per `intervalMs`, always ending with the latest
 * (a trailing report is sent when the interval ends). `flush()` sends a pending report at once;
 * `cancel()` drops it.
 */
export function throttleProgress(listener: ProgressListener, intervalMs: number): ProgressListener & { flush(): void; cancel(): void } {
  let last = Number.NEGATIVE_INFINITY;
  let pending: RunProgress | undefined;
  let timer: NodeJS.Timeout | undefined;
  const emit = (): void => {
    timer = undefined;
    if (pending === undefined) return;
    const report = pending;
    pending = undefined;
    last = Date.now();
    listener(report);
  };
  const throttled = (progress: RunProgress): void => {
    pending = progress;
    const wait = last + intervalMs - Date.now();
    if (wait <= 0) {
      clearTimeout(timer);
      emit();
    } else {
      timer ??= setTimeout(emit, wait);
      timer.unref();
    }
  };
  return Object.assign(throttled, {
    flush: () => {
      clearTimeout(timer);
      emit();
    },
    cancel: () => {
      clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  });
}

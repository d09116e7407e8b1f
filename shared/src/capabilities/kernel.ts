import type { KernelRef } from '../isolation/process-pool.js';
import { JacobianError, toAppError } from '../errors.js';
import type { CapabilityContext } from './define.js';

/**
 * Run a CPU-bound kernel isolated, inside what is left of the run's budget. The kernel's
 * outcome is returned; a timeout, cancellation or crash is thrown as a JacobianError whose
 * code the host turns into the execution status.
 *
 * `reserveMs` keeps that much of the run's time back from the kernel: it is killed that long
 * before the run's deadline, so a caller that has settled part of its question (some orders of a
 * range, say) still has time to answer with it when the kernel overruns (a slow start on a
 * loaded machine, a hard instance) instead of the whole run ending as a timeout.
 */
export async function runKernel(context: CapabilityContext, kernel: KernelRef, input: unknown, options: { reserveMs?: number } = {}): Promise<unknown> {
  const reserveMs = options.reserveMs ?? 0;
  const left = context.deadline - Date.now();
  const remaining = left - reserveMs;
  if (remaining <= 0) {
    throw new JacobianError(
      'EXECUTION_TIMEOUT',
      left > 0
        ? `only ${left} ms of the run's wall-time budget of ${context.budget.wall_time_ms} ms were left, no more than the ${reserveMs} ms kept back for the caller (reserveMs); the kernel did not start`
        : `the run exhausted its wall-time budget of ${context.budget.wall_time_ms} ms before the kernel started`,
    );
  }
  const outcome = await context.executor.run(
    {
      kernel,
      input,
      budget: { wallTimeMs: remaining, memoryMb: context.budget.memory_mb, maxOutputBytes: context.budget.max_output_bytes },
      // Room between the kernel's soft deadline and the hard kill, so a cooperative kernel
      // (a solver with a per-query timeout) can stop and hand back its partial result.
      softDeadlineMarginMs: Math.min(2000, Math.max(300, Math.round(remaining * 0.2))),
    },
    { signal: context.signal, onProgress: context.progress },
  );
  if (outcome.status === 'COMPLETED') return outcome.output;
  throw toAppError(outcome.error);
}

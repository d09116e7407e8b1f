/**
 * Cancellation and timeouts, judged by the kernel: after a client aborts a long run, or a run
 * spends its budget, the server's child processes go back to idle. CPU time comes from
 * /proc/<pid>/stat of every descendant of the serving process; nothing here asserts wall-clock
 * durations (the loops below are bounded polls).
 *
 * Cancellation is tested over stdio (both eras) and over HTTP with the modern client. A legacy
 * client over stateless HTTP sends notifications/cancelled to a fresh server instance that does
 * not know the request, so only a disconnect cancels there; that combination is not tested.
 *
 * The budget test also asks for progress in every combination: the induced-tree kernel's bounds
 * travel from the pool child through the queue to the client as notifications/progress.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SdkError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARD_GRAPH, PETERSEN_EDGES, PETERSEN_ORDER } from '../support/graphs.js';
import {
  ALL_COMBINATIONS,
  describeEachConnection,
  E2E_TEST_TIMEOUT_MS,
  startJacobian,
  HOOK_TIMEOUT_MS,
  type Combination,
  type Connection,
  type JacobianFixture,
} from '../support/jacobian.js';
import { waitForBusy, waitForIdle } from '../support/proc.js';
import { mathRun } from '../support/tools.js';

/** At most this much CPU (clock ticks, usually 10 ms each) in a 500 ms window counts as idle. */
const IDLE_TICKS = 5;
/** A kernel at work uses far more than this in 500 ms (measured: 20-40 ticks while Z3 searches). */
const BUSY_TICKS = 10;
const COMPUTE = 'graph.induced_tree.maximum.compute';

let jacobian: JacobianFixture;

beforeAll(async () => {
  jacobian = await startJacobian();
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await jacobian?.close();
}, HOOK_TIMEOUT_MS);

async function constructHardGraph(connection: Connection): Promise<string> {
  const { result } = await mathRun(connection.client, { capability_id: 'graph.construct.explicit', payload: HARD_GRAPH });
  expect(result.execution.status).toBe('COMPLETED');
  return (result.output as { graph_uri: string }).graph_uri;
}

/** Not HTTP legacy: stateless HTTP cancels only on disconnect (see the file comment). */
function cancellable(combination: Combination): boolean {
  return combination.transport === 'stdio' || combination.era === 'modern';
}

/**
 * Idle before the measured step: kernel children start (and the pool replaces killed ones)
 * in the background, and that start-up must not be mistaken for the run's own work.
 */
async function settle(connection: Connection): Promise<void> {
  await waitForIdle(connection.serverPid, IDLE_TICKS, { timeoutMs: 60_000 });
}

describe('cancellation and spent budgets stop the work', () => {
  describeEachConnection(
    () => jacobian,
    (connection, combination) => {
      if (cancellable(combination)) {
        it('aborting math.run (AbortController) returns the kernel processes to idle', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
          const { client, serverPid } = connection();
          const graphUri = await constructHardGraph(connection());
          await settle(connection());

          const controller = new AbortController();
          const started = Date.now();
          const call = mathRun(client, { capability_id: COMPUTE, payload: { graph_uri: graphUri }, budget: { wall_time_ms: 600_000 } }, { signal: controller.signal });
          // Observe the rejection from the start so it is never reported as unhandled.
          const outcome = call.then(
            (value) => ({ settled: 'resolved' as const, value }),
            (error: unknown) => ({ settled: 'rejected' as const, error }),
          );

          // The solver is really at work before we abort (this also proves the idle check below
          // can tell the difference).
          await waitForBusy(serverPid, BUSY_TICKS, { timeoutMs: 60_000 });
          const elapsed = Date.now() - started;
          if (elapsed < 1_500) await sleep(1_500 - elapsed);
          controller.abort('e2e: the user pressed stop');

          const settled = await outcome;
          expect(settled.settled, 'the call should reject once aborted').toBe('rejected');
          if (settled.settled === 'rejected') {
            expect(settled.error).toBeInstanceOf(SdkError);
            expect((settled.error as SdkError).message).toContain('e2e: the user pressed stop');
          }
          expect(controller.signal.aborted).toBe(true);

          // Bounded poll: the descendants of the server go back to (near) zero CPU.
          const history = await waitForIdle(serverPid, IDLE_TICKS, { windowMs: 500, timeoutMs: 30_000 });
          expect(history.at(-1)?.ticks).toBeLessThanOrEqual(IDLE_TICKS);

          // The server is still healthy and answers the next run.
          const next = await mathRun(client, { capability_id: 'graph.construct.explicit', payload: { order: PETERSEN_ORDER, edges: PETERSEN_EDGES } });
          expect(next.result.execution.status).toBe('COMPLETED');
        });
      }

      it('budget {wall_time_ms: ~4000} ends in TIMEOUT or a PARTIAL BUDGET_EXHAUSTED result, never a complete one, and the kernels go idle', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const { client, serverPid } = connection();
        const graphUri = await constructHardGraph(connection());
        await settle(connection());

        // A distinct budget per combination: the HTTP server is shared, and a completed run is
        // remembered by request digest; each combination must run the kernel itself.
        // About 4 s: enough for a freshly started kernel child to load Z3 and report its first
        // bounds on a loaded machine, far too little to settle the hard graph.
        const wallTimeMs = 4_000 + ALL_COMBINATIONS.indexOf(combination);
        // The call asks for progress: the kernel's bounds arrive as notifications/progress.
        const progress: { progress: number; message?: string }[] = [];
        const { result, text } = await mathRun(
          client,
          { capability_id: COMPUTE, payload: { graph_uri: graphUri }, budget: { wall_time_ms: wallTimeMs } },
          { onprogress: (p) => progress.push(p) },
        );
        // The run's own reports, without the heartbeats sent while it was silent for a second.
        const reports = progress.filter((p) => p.message?.startsWith('running for ') !== true);
        expect(reports.length).toBeGreaterThan(0);
        expect(reports[0]?.message).toMatch(/^induced tree of \d+ vertices found; at most \d+ possible$/);
        for (let i = 1; i < progress.length; i++) expect(progress[i]?.progress).toBeGreaterThan(progress[i - 1]?.progress ?? Infinity);

        expect(['TIMEOUT', 'COMPLETED']).toContain(result.execution.status);
        expect(result.completeness.status).not.toBe('COMPLETE');
        expect(result.assurance.level).not.toBe('VERIFIED');
        expect(result.assurance.verification_record_uri).toBeNull();
        if (result.execution.status === 'COMPLETED') {
          const output = result.output as { termination: string; maximum: number | null; lower_bound: number; upper_bound: number; witness: { vertices: number[] } };
          expect(output.termination).toBe('BUDGET_EXHAUSTED');
          expect(output.maximum).toBeNull();
          expect(output.lower_bound).toBeLessThan(output.upper_bound);
          expect(output.witness.vertices).toHaveLength(output.lower_bound);
          expect(result.completeness.status).toBe('PARTIAL');
          expect(result.qualifiers).not.toContain('EXACT');
          expect(result.diagnostics).toContainEqual(expect.objectContaining({ severity: 'WARNING', code: 'BUDGET_EXHAUSTED' }));
          expect(result.obligations).toContainEqual(expect.objectContaining({ id: 'optimality', status: 'OPEN' }));
        } else {
          expect(result.diagnostics).toContainEqual(expect.objectContaining({ severity: 'ERROR', code: 'EXECUTION_TIMEOUT' }));
          expect(result.output).toBeNull();
          expect(text).toContain('execution: TIMEOUT');
        }

        const history = await waitForIdle(serverPid, IDLE_TICKS, { windowMs: 500, timeoutMs: 30_000 });
        expect(history.at(-1)?.ticks).toBeLessThanOrEqual(IDLE_TICKS);
      });
    },
  );
});

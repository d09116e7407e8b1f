import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, JacobianError } from '../errors.js';
import {
  createProcessPool,
  type ExecutionBudget,
  type IsolatedExecutor,
  type KernelOutcome,
  type KernelTask,
  type ProcessPoolOptions,
} from './process-pool.js';

const onLinux = process.platform === 'linux';

function fixture(file: string): string {
  return fileURLToPath(new URL(`./fixtures/${file}`, import.meta.url));
}

const budget: ExecutionBudget = { wallTimeMs: 20_000, memoryMb: 1024, maxOutputBytes: 1_000_000 };

function task(file: string, exportName: string, input: unknown = null, overrides: Partial<ExecutionBudget> = {}): KernelTask {
  return { kernel: { module: fixture(file), exportName }, input, budget: { ...budget, ...overrides } };
}

const echo = (input: unknown = null): KernelTask => task('echo.ts', 'echo', input);

const pools: IsolatedExecutor[] = [];
function pool(options: ProcessPoolOptions): IsolatedExecutor {
  const created = createProcessPool(options);
  pools.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** utime + stime of a process in clock ticks, from /proc/<pid>/stat (fields 14 and 15). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may contain spaces; fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Assert that no child of the pool is burning CPU. Every child first gets a task so that none
 * is still booting (boot itself costs CPU), then CPU time is sampled twice 300 ms apart.
 */
async function expectIdleCpu(executor: IsolatedExecutor, size: number): Promise<void> {
  const warm = await Promise.all(Array.from({ length: size }, () => executor.run(echo())));
  expect(warm.map((o) => o.status)).toEqual(Array.from({ length: size }, () => 'COMPLETED'));
  await sleep(100);
  const { pids } = executor.stats();
  const before = pids.map(cpuTicks);
  await sleep(300);
  const after = pids.map(cpuTicks);
  // A spinning child accrues ~30 ticks (at 100 Hz) in 300 ms; an idle one accrues ~0.
  const deltas = after.map((ticks, i) => ticks - (before[i] ?? 0));
  for (const delta of deltas) expect(delta).toBeLessThanOrEqual(3);
}

/** Wait until one of the processes has demonstrably used CPU, i.e. the kernel is really running. */
async function waitUntilOneIsBurning(pids: number[]): Promise<void> {
  const start = pids.map(cpuTicks);
  while (!pids.some((pid, i) => cpuTicks(pid) - (start[i] ?? 0) >= 10)) await sleep(20);
}

function errorOf(outcome: KernelOutcome): { code: string; message: string; path?: unknown; hint?: unknown; data?: Record<string, unknown> } {
  if (outcome.status === 'COMPLETED') throw new Error(`expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome.error;
}

function outputOf(outcome: KernelOutcome): unknown {
  if (outcome.status !== 'COMPLETED') throw new Error(`expected COMPLETED, got ${JSON.stringify(outcome)}`);
  return outcome.output;
}

describe('createProcessPool: completion and reuse', () => {
  it('round-trips a TypeScript kernel', async () => {
    const executor = pool({ size: 1 });
    const outcome = await executor.run(echo({ graph: [1, 2, 3], label: 'ü' }));
    expect(outcome.status).toBe('COMPLETED');
    expect(outputOf(outcome)).toMatchObject({ input: { graph: [1, 2, 3], label: 'ü' }, calls: 1 });
    expect(outcome.runtimeMs).toBeGreaterThanOrEqual(0);
    if (onLinux && outcome.status === 'COMPLETED') expect(outcome.peakRssMb).toBeGreaterThan(0);
  });

  it('runs a JavaScript kernel named by file:// URL and default export', async () => {
    // Written at test time, outside the repository, so it is plain JS that no tool preprocesses.
    const dir = mkdtempSync(join(tmpdir(), 'jacobian-kernel-'));
    try {
      const file = join(dir, 'double.mjs');
      writeFileSync(file, 'export default function double(input) { return { doubled: input.value * 2 }; }\n');
      const executor = pool({ size: 1 });
      const outcome = await executor.run({
        kernel: { module: pathToFileURL(file).href, exportName: 'default' },
        input: { value: 21 },
        budget,
      });
      expect(outputOf(outcome)).toEqual({ doubled: 42 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports an undefined return as null', async () => {
    const executor = pool({ size: 1 });
    expect(outputOf(await executor.run(task('echo.ts', 'nothing')))).toBeNull();
  });

  it('reuses the same child and module instance for sequential tasks', async () => {
    const executor = pool({ size: 1 });
    const first = outputOf(await executor.run(echo('a'))) as { pid: number; calls: number; instance: number };
    const second = outputOf(await executor.run(echo('b'))) as { pid: number; calls: number; instance: number };
    expect(second.pid).toBe(first.pid);
    expect(first.calls).toBe(1);
    // The module-level counter survived: the module was imported once in that child.
    expect(second.calls).toBe(2);
    expect(second.instance).toBe(first.instance);
    expect(executor.stats().pids).toEqual([first.pid]);
  });

  it('starts idleChildren children eagerly and the rest on demand', async () => {
    const eager = pool({ size: 2 });
    expect(eager.stats()).toMatchObject({ size: 2, busy: 0, idle: 2 });
    const lazy = pool({ size: 2, idleChildren: 0 });
    expect(lazy.stats().size).toBe(0);
    expect((await lazy.run(echo())).status).toBe('COMPLETED');
    expect(lazy.stats().size).toBe(1);
  });

  it('with warmAfter, starts its idle children once that settles, and a task before then starts one for itself', async () => {
    let settle: () => void = () => undefined;
    const deferred = pool({ size: 2, warmAfter: new Promise<void>((resolve) => (settle = resolve)) });
    expect(deferred.stats().size).toBe(0);
    expect((await deferred.run(echo())).status).toBe('COMPLETED');
    expect(deferred.stats().size).toBe(1);
    settle();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(deferred.stats()).toMatchObject({ size: 2, busy: 0 });
  });

  it('rejects invalid configuration', () => {
    expect(() => createProcessPool({ size: 0 })).toThrow(JacobianError);
    expect(() => createProcessPool({ size: 2, idleChildren: 3 })).toThrow(/idleChildren/);
  });
});

describe.runIf(onLinux)('createProcessPool: hard limits kill the child', () => {
  it('kills a busy loop at the wall-time budget and leaves the pool idle', async () => {
    const executor = pool({ size: 2 });
    await Promise.all([executor.run(echo()), executor.run(echo())]);
    const before = executor.stats().pids;

    const outcome = await executor.run(task('busy-loop.ts', 'spin', null, { wallTimeMs: 500 }));
    expect(outcome.status).toBe('TIMEOUT');
    expect(errorOf(outcome).code).toBe('EXECUTION_TIMEOUT');

    const killed = before.filter((pid) => !isAlive(pid));
    expect(killed).toHaveLength(1);
    expect(() => process.kill(killed[0] as number, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(executor.stats().pids).not.toContain(killed[0]);
    await expectIdleCpu(executor, 2);
  });

  it('kills a running task on abort and reports CANCELLED', async () => {
    const executor = pool({ size: 2 });
    await Promise.all([executor.run(echo()), executor.run(echo())]);
    const before = executor.stats().pids;

    const controller = new AbortController();
    const running = executor.run(task('busy-loop.ts', 'spin'), { signal: controller.signal });
    // Abort only once the loop is provably burning CPU in one of the children.
    await waitUntilOneIsBurning(before);
    controller.abort();
    const outcome = await running;

    expect(outcome.status).toBe('CANCELLED');
    expect(errorOf(outcome).code).toBe('EXECUTION_CANCELLED');
    const killed = before.filter((pid) => !isAlive(pid));
    expect(killed).toHaveLength(1);
    await expectIdleCpu(executor, 2);
  });

  it('kills a child whose RSS exceeds the memory budget', async () => {
    const executor = pool({ size: 1 });
    await executor.run(echo());
    const [pid] = executor.stats().pids;
    const outcome = await executor.run(task('memory-hog.ts', 'hog', { chunkMb: 4, capMb: 1500 }, { memoryMb: 256 }));
    expect(outcome.status).toBe('ERROR');
    const error = errorOf(outcome);
    expect(error.code).toBe('MEMORY_LIMIT_EXCEEDED');
    expect(error.data).toMatchObject({ memoryMb: 256 });
    expect(error.data?.['rssMb']).toBeGreaterThan(256);
    expect(isAlive(pid as number)).toBe(false);
    expect((await executor.run(echo())).status).toBe('COMPLETED');
  });
});

describe.runIf(onLinux)('createProcessPool: warm modules', () => {
  const started = (wallTimeMs = 20_000): KernelTask => task('slow-start.ts', 'started', null, { wallTimeMs });
  const outputOf = (outcome: KernelOutcome): { startedBefore: boolean; pid: number } => {
    expect(outcome.status).toBe('COMPLETED');
    return (outcome as { output: { startedBefore: boolean; pid: number } }).output;
  };

  it("starts later children with the module of a kernel killed at its wall time, so that its start-up is not a short budget's every time", async () => {
    const executor = pool({ size: 1 });
    // A child that is up (a task waiting for one to start is not killed when its time ends).
    expect((await executor.run(echo())).status).toBe('COMPLETED');
    const [up] = executor.stats().pids;
    // Shorter than the module's start-up: killed, and the start-up with its child.
    const first = await executor.run(started(100));
    expect(first.status).toBe('TIMEOUT');
    expect(isAlive(up as number)).toBe(false);
    // The next child did the start-up before it took work.
    const next = outputOf(await executor.run(started()));
    expect(next.startedBefore).toBe(true);
    // And so does the child after a cancel of a run of that module.
    const controller = new AbortController();
    const hanging = executor.run(task('slow-start.ts', 'hang'), { signal: controller.signal });
    await waitUntilOneIsBurning([next.pid]);
    controller.abort();
    expect((await hanging).status).toBe('CANCELLED');
    const after = outputOf(await executor.run(started()));
    expect(after.pid).not.toBe(next.pid);
    expect(after.startedBefore).toBe(true);
  });

  it('warms only modules whose run was killed at its wall time or by a cancel, not one that completed or was killed for its memory', async () => {
    const executor = pool({ size: 1 });
    // A run of the module that completes leaves nothing to warm...
    const done = outputOf(await executor.run(started()));
    expect(done.startedBefore).toBe(false);
    // ...so a child started after another module's kernel was killed starts without it.
    expect((await executor.run(task('busy-loop.ts', 'spin', null, { wallTimeMs: 200 }))).status).toBe('TIMEOUT');
    const fresh = outputOf(await executor.run(started()));
    expect(fresh.pid).not.toBe(done.pid);
    expect(fresh.startedBefore).toBe(false);
    // Nor does a kill for memory: the start-up would only add to the next child's.
    const hog = await executor.run(task('slow-start.ts', 'hog', { chunkMb: 4, capMb: 1500 }, { memoryMb: 256 }));
    expect(errorOf(hog).code).toBe('MEMORY_LIMIT_EXCEEDED');
    const afterHog = outputOf(await executor.run(started()));
    expect(afterHog.pid).not.toBe(fresh.pid);
    expect(afterHog.startedBefore).toBe(false);
  });

  it('still starts a child whose warm-up fails, and lets the run that needs it report the failure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jacobian-warm-'));
    try {
      const module = join(dir, 'cannot-start.mjs');
      writeFileSync(
        module,
        "export function warmUp() { throw new Error('this start-up always fails'); }\nexport function hang() { for (;;); }\nexport function needsStartUp() { warmUp(); }\n",
      );
      const kernel = (exportName: string, wallTimeMs: number): KernelTask => ({ kernel: { module, exportName }, input: null, budget: { ...budget, wallTimeMs } });
      const executor = pool({ size: 1 });
      expect((await executor.run(echo())).status).toBe('COMPLETED');
      const [up] = executor.stats().pids;
      expect((await executor.run(kernel('hang', 200))).status).toBe('TIMEOUT');
      // The next child's warm-up of the module throws: it starts anyway, and serves.
      expect((await executor.run(echo('still here'))).status).toBe('COMPLETED');
      expect(executor.stats().pids).not.toContain(up);
      const failed = await executor.run(kernel('needsStartUp', 20_000));
      expect(failed.status).toBe('ERROR');
      expect(errorOf(failed).message).toContain('this start-up always fails');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('createProcessPool: cancellation and queueing', () => {
  it('never starts a task that is aborted while queued', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jacobian-pool-'));
    try {
      const executor = pool({ size: 1 });
      const blocker = executor.run(task('busy-loop.ts', 'spin', null, { wallTimeMs: 800 }));
      const marker = join(dir, 'started');
      const controller = new AbortController();
      const queued = executor.run(task('mark.ts', 'mark', { path: marker }), { signal: controller.signal });
      controller.abort();

      const outcome = await queued;
      expect(outcome).toMatchObject({ status: 'CANCELLED', runtimeMs: 0 });
      expect(errorOf(outcome).code).toBe('EXECUTION_CANCELLED');
      expect((await blocker).status).toBe('TIMEOUT');
      // Drain the pool once more: had the cancelled task been dispatched, it would have run by now.
      expect((await executor.run(echo())).status).toBe('COMPLETED');
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts time spent waiting for a child in the wall-time budget: a task that never starts in time ends as TIMEOUT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jacobian-pool-'));
    try {
      const executor = pool({ size: 1 });
      const blocker = executor.run(task('busy-loop.ts', 'spin', null, { wallTimeMs: 1500 }));
      const marker = join(dir, 'started');
      const queued = await executor.run(task('mark.ts', 'mark', { path: marker }, { wallTimeMs: 300 }));
      expect(queued).toMatchObject({ status: 'TIMEOUT', runtimeMs: 0 });
      expect(errorOf(queued).code).toBe('EXECUTION_TIMEOUT');
      expect(errorOf(queued).message).toMatch(/did not start within its wall-time budget of 300 ms/);
      expect((await blocker).status).toBe('TIMEOUT');
      // Had the expired task stayed queued, it would run before this one.
      expect((await executor.run(echo())).status).toBe('COMPLETED');
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives a task that waited for a child only what is left of its wall time', async () => {
    const executor = pool({ size: 1 });
    const blocker = executor.run(task('context.ts', 'nap', { ms: 400 }));
    const waited = outputOf(await executor.run(task('context.ts', 'inspect', null, { wallTimeMs: 2000 }))) as { now: number; deadline: number };
    expect((await blocker).status).toBe('COMPLETED');
    // At least 400 ms went to waiting, and the soft margin is 10% of 2000 ms: at most 1400 ms are left.
    expect(waited.deadline - waited.now).toBeLessThanOrEqual(1400);
  });

  it('resolves CANCELLED at once for an already-aborted signal', async () => {
    const executor = pool({ size: 1 });
    const outcome = await executor.run(echo(), { signal: AbortSignal.abort() });
    expect(outcome.status).toBe('CANCELLED');
  });

  it('never runs more than size tasks at once and serves the queue in FIFO order', async () => {
    const executor = pool({ size: 2 });
    let maxBusy = 0;
    const sampler = setInterval(() => {
      maxBusy = Math.max(maxBusy, executor.stats().busy);
    }, 5);
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => executor.run(task('context.ts', 'nap', { ms: 150 }))),
    );
    clearInterval(sampler);
    const spans = outcomes.map((o) => outputOf(o) as { pid: number; start: number; end: number });
    // At every task's start, count the tasks whose [start, end) span contains that instant.
    for (const span of spans) {
      const overlapping = spans.filter((other) => other.start <= span.start && span.start < other.end);
      expect(overlapping.length).toBeLessThanOrEqual(2);
    }
    expect(new Set(spans.map((s) => s.pid)).size).toBeLessThanOrEqual(2);
    expect(maxBusy).toBeLessThanOrEqual(2);
    expect(executor.stats().size).toBeLessThanOrEqual(2);

    const serial = pool({ size: 1 });
    const ordered = await Promise.all(
      Array.from({ length: 4 }, () => serial.run(task('context.ts', 'nap', { ms: 20 }))),
    );
    const starts = ordered.map((o) => (outputOf(o) as { start: number }).start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });
});

describe('createProcessPool: kernel failures', () => {
  it('keeps code, path, hint and data of a thrown JacobianError', async () => {
    const executor = pool({ size: 1 });
    const outcome = await executor.run(task('failing.ts', 'throwsJacobian'));
    expect(outcome.status).toBe('ERROR');
    expect(errorOf(outcome)).toEqual({
      code: 'INVALID_REQUEST',
      message: 'edge 3 points at a missing vertex',
      path: ['payload', 'edges', 3, 1],
      hint: 'vertices are numbered from 0',
      data: { vertexCount: 3 },
    });
  });

  it('reports any other thrown error as INTERNAL with its message', async () => {
    const executor = pool({ size: 1 });
    const outcome = await executor.run(task('failing.ts', 'rejectsPlain'));
    expect(outcome.status).toBe('ERROR');
    expect(errorOf(outcome)).toEqual({ code: 'INTERNAL', message: 'something odd happened' });
  });

  it('reports a crashed child as retryable EXECUTION_CRASHED and keeps working', async () => {
    const executor = pool({ size: 1 });
    const first = outputOf(await executor.run(echo())) as { pid: number };
    const outcome = await executor.run(task('failing.ts', 'exitsWithThree'));
    expect(outcome.status).toBe('ERROR');
    const error = errorOf(outcome);
    expect(error.code).toBe('EXECUTION_CRASHED');
    expect(ErrorCode.EXECUTION_CRASHED.retryable).toBe(true);
    expect(error.data).toMatchObject({ exitCode: 3 });
    expect(isAlive(first.pid)).toBe(false);
    const after = outputOf(await executor.run(echo())) as { pid: number; calls: number };
    expect(after.pid).not.toBe(first.pid);
    expect(after.calls).toBe(1);
  });

  it('refuses output over maxOutputBytes, measured as UTF-8 JSON bytes, without killing the child', async () => {
    const executor = pool({ size: 1 });
    const first = outputOf(await executor.run(echo())) as { pid: number };
    // 1000 characters of 'x' are 1002 bytes of JSON (the quotes count).
    const over = await executor.run(task('failing.ts', 'hugeOutput', { chars: 1000 }, { maxOutputBytes: 1001 }));
    expect(over.status).toBe('ERROR');
    expect(errorOf(over)).toMatchObject({ code: 'OUTPUT_LIMIT_EXCEEDED', data: { outputBytes: 1002, maxOutputBytes: 1001 } });
    const exact = await executor.run(task('failing.ts', 'hugeOutput', { chars: 1000 }, { maxOutputBytes: 1002 }));
    expect(outputOf(exact)).toHaveLength(1000);
    const huge = await executor.run(task('failing.ts', 'hugeOutput', { chars: 50_000_000 }, { maxOutputBytes: 1_000_000 }));
    expect(errorOf(huge).code).toBe('OUTPUT_LIMIT_EXCEEDED');
    expect((outputOf(await executor.run(echo())) as { pid: number }).pid).toBe(first.pid);
  });

  it('reports bad kernel references, budgets and payloads without breaking the pool', async () => {
    const executor = pool({ size: 1 });
    const missingExport = await executor.run(task('echo.ts', 'doesNotExist'));
    expect(errorOf(missingExport).code).toBe('INTERNAL');
    expect(errorOf(missingExport).message).toContain('doesNotExist');
    expect(errorOf(await executor.run(task('echo.ts', 'notAFunction'))).code).toBe('INTERNAL');
    expect(errorOf(await executor.run(task('no-such-file.ts', 'x'))).code).toBe('INTERNAL');
    expect(errorOf(await executor.run(task('failing.ts', 'unserializable'))).code).toBe('INTERNAL');

    const relative = await executor.run({ ...echo(), kernel: { module: './fixtures/echo.ts', exportName: 'echo' } });
    expect(errorOf(relative).code).toBe('INVALID_REQUEST');
    expect(errorOf(await executor.run({ ...echo(), budget: { ...budget, wallTimeMs: 0 } })).code).toBe('BUDGET_INVALID');
    expect(errorOf(await executor.run(echo({ n: 10n }))).code).toBe('INVALID_REQUEST');

    expect((await executor.run(echo())).status).toBe('COMPLETED');
  });
});

describe('createProcessPool: kernel context', () => {
  it('passes a sane deadline and an unaborted signal', async () => {
    const executor = pool({ size: 1 });
    const result = outputOf(await executor.run(task('context.ts', 'inspect', null, { wallTimeMs: 5000 }))) as {
      now: number;
      deadline: number;
      deadlineIsNumber: boolean;
      isSignal: boolean;
      aborted: boolean;
    };
    expect(result).toMatchObject({ deadlineIsNumber: true, isSignal: true, aborted: false });
    expect(result.deadline).toBeGreaterThan(result.now);
    // Default margin is 10% of 5000 ms: the deadline lies at most 4500 ms after dispatch.
    expect(result.deadline - result.now).toBeLessThanOrEqual(4500);
  });

  it('aborts ctx.signal at the soft deadline so a kernel can return a partial result', async () => {
    const executor = pool({ size: 1 });
    const outcome = await executor.run({ ...task('context.ts', 'awaitSoftCancel', { rethrow: false }, { wallTimeMs: 1000 }), softDeadlineMarginMs: 300 });
    const result = outputOf(outcome) as { partial: boolean; abortedAt: number; deadline: number };
    expect(result.partial).toBe(true);
    // Timers may fire a millisecond early against Date.now(); allow for clock granularity.
    expect(result.abortedAt).toBeGreaterThanOrEqual(result.deadline - 5);
  });

  it('reports a kernel that gives up at the soft deadline as TIMEOUT without killing it', async () => {
    const executor = pool({ size: 1 });
    const first = outputOf(await executor.run(echo())) as { pid: number };
    const outcome = await executor.run(task('context.ts', 'awaitSoftCancel', { rethrow: true }, { wallTimeMs: 600 }));
    expect(outcome.status).toBe('TIMEOUT');
    expect(errorOf(outcome).code).toBe('EXECUTION_TIMEOUT');
    expect(isAlive(first.pid)).toBe(true);
    expect((outputOf(await executor.run(echo())) as { pid: number }).pid).toBe(first.pid);
  });
});

describe('createProcessPool: close', () => {
  it('kills every child, cancels pending work, is idempotent and refuses new runs', async () => {
    const executor = pool({ size: 2 });
    await Promise.all([executor.run(echo()), executor.run(echo())]);
    const pids = executor.stats().pids;
    expect(pids).toHaveLength(2);

    const running = executor.run(task('busy-loop.ts', 'spin'));
    const alsoRunning = executor.run(task('busy-loop.ts', 'spin'));
    const queued = executor.run(echo());
    await executor.close();

    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(executor.stats()).toEqual({ size: 0, busy: 0, idle: 0, pids: [] });
    expect((await running).status).toBe('CANCELLED');
    expect((await alsoRunning).status).toBe('CANCELLED');
    expect((await queued).status).toBe('CANCELLED');

    await expect(executor.close()).resolves.toBeUndefined();
    await expect(executor.run(echo())).rejects.toThrow(/closed/);
  });

  it('closes a pool whose children are still booting', async () => {
    const executor = pool({ size: 2 });
    const pids = executor.stats().pids;
    await executor.close();
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });
});

describe('progress', () => {
  it('hands a kernel\'s valid progress reports to the task\'s listener, in order, and drops malformed ones', async () => {
    const executor = pool({ size: 1 });
    const seen: unknown[] = [];
    const outcome = await executor.run(task('context.ts', 'reportProgress', { reports: 3 }), { onProgress: (p) => seen.push(p) });
    expect(outcome.status).toBe('COMPLETED');
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('runs a reporting kernel without a listener', async () => {
    const executor = pool({ size: 1 });
    const outcome = await executor.run(task('context.ts', 'reportProgress', { reports: 2 }));
    expect(outcome).toMatchObject({ status: 'COMPLETED', output: { sent: 2 } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessPool, ProviderRuntimeSchema, type IsolatedExecutor, type KernelTask } from '@jacobian/shared';
import { createHealthCache } from './health-cache.js';
import { probeZ3Provider } from './z3.js';

/** A real pool that records every task it is given. */
function recording(pool: IsolatedExecutor): { executor: IsolatedExecutor; tasks: KernelTask[] } {
  const tasks: KernelTask[] = [];
  return {
    tasks,
    executor: {
      run: (task, options) => {
        tasks.push(task);
        return pool.run(task, options);
      },
      stats: () => pool.stats(),
      close: () => pool.close(),
    },
  };
}

// First in this file: the first probe of a process hashes the package, and starts the health
// check beside the hashing (the digest is not remembered yet, so neither is a check).
describe('probeZ3Provider with a health cache', () => {
  it('checks once in a child, beside hashing the package, both after checkAfter; a second probe remembers the pass', { timeout: 120_000 }, async () => {
    const pool = createProcessPool({ size: 1 });
    try {
      const { executor, tasks } = recording(pool);
      const health = createHealthCache(undefined);
      let open: () => void = () => undefined;
      const startUp = new Promise<void>((resolve) => (open = resolve));
      let told: () => void = () => undefined;
      const checking = new Promise<void>((resolve) => (told = resolve));
      const probing = probeZ3Provider({ executor, health, onChecking: told, checkAfter: startUp });
      await checking;
      expect(tasks).toEqual([]);
      open();
      const first = await probing;
      expect(tasks.map((task) => task.kernel.exportName)).toEqual(['z3HealthKernel']);
      expect(health.outcomes.get('z3-solver')).toBe('checked');
      const second = await probeZ3Provider({ executor, health });
      expect(tasks).toHaveLength(1);
      expect(second.digest).toBe(first.digest);
    } finally {
      await pool.close();
    }
  });
});

describe('probeZ3Provider with an executor', () => {
  let pool: IsolatedExecutor;
  beforeAll(() => {
    pool = createProcessPool({ size: 1 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('runs the health check in an isolated child and describes the same provider', { timeout: 120_000 }, async () => {
    const { executor, tasks } = recording(pool);
    const runtime = await probeZ3Provider({ executor });
    expect(ProviderRuntimeSchema.safeParse(runtime).success).toBe(true);
    expect(tasks.map((task) => task.kernel.exportName)).toEqual(['z3HealthKernel']);
    expect(pool.stats().size).toBe(1);
    expect(runtime.digest).toBe((await probeZ3Provider()).digest);
  });

  it('says when it starts a check not remembered, and runs it only once checkAfter settles (a starting process)', { timeout: 120_000 }, async () => {
    const { executor, tasks } = recording(pool);
    let open: () => void = () => undefined;
    const startUp = new Promise<void>((resolve) => (open = resolve));
    let told: () => void = () => undefined;
    const checking = new Promise<void>((resolve) => (told = resolve));
    const health = createHealthCache(undefined);
    const probing = probeZ3Provider({ executor, health, onChecking: told, checkAfter: startUp });
    await checking;
    expect(tasks).toEqual([]);
    open();
    await probing;
    expect(tasks.map((task) => task.kernel.exportName)).toEqual(['z3HealthKernel']);
    expect(health.outcomes.get('z3-solver')).toBe('checked');
    // Remembered now: neither told nor held back.
    const remembered = probeZ3Provider({ executor, health, onChecking: () => expect.fail('a remembered check is not slow'), checkAfter: new Promise<never>(() => undefined) });
    expect((await remembered).provider).toBe('z3-solver');
    expect(tasks).toHaveLength(1);
  });

  it('reports the provider unavailable when the health check fails in the child', { timeout: 120_000 }, async () => {
    const failing: IsolatedExecutor = {
      run: () => Promise.resolve({ status: 'ERROR', error: { code: 'INTERNAL', message: 'z3 broke', retryable: false }, runtimeMs: 1 }),
      stats: () => pool.stats(),
      close: () => Promise.resolve(),
    };
    await expect(probeZ3Provider({ executor: failing })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: expect.stringContaining('health check') as unknown });
  });
});

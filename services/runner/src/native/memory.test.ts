import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, parsePolynomials, resolveRing, type InstalledCapability } from '@jacobian/shared';
import { findSingular } from '@jacobian/shared/testing';
import { findCadical, probeCadical, runCadical } from '../providers/cadical.js';
import { runSingularGroebner, runSingularProgram } from '../providers/singular.js';
import { findModel } from '../sat/model-find.js';
import { createCapabilityHarness, type CapabilityHarness } from '../testing/fixtures.js';
import { addressSpaceLimitKiB, killTree, measureTree, MemoryWatch, treePids } from './memory.js';

const MIB = 1024 * 1024;
const singular = findSingular();
const cadical = await findCadical().catch(() => null);

/** Whether `pid` is gone: no /proc entry, or a zombie nobody reaped yet (it holds no memory and runs nothing). */
function gone(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return true;
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Poll `check` until it holds (at most `rounds` times, 50 ms apart): no wall-clock assertion, a bound on waiting. */
async function eventually(check: () => boolean, rounds = 200): Promise<boolean> {
  for (let round = 0; round < rounds; round++) {
    if (check()) return true;
    await new Promise((done) => setTimeout(done, 50));
  }
  return check();
}

describe.skipIf(process.platform !== 'linux')('the memory of a process tree', () => {
  it('sums the resident memory over the root and its descendants, and kills the whole tree', async () => {
    // A shell with two Node children, each holding 48 MiB it has written.
    const hold = 'const b = Buffer.alloc(48 * 1024 * 1024, 1); setInterval(() => b[0]++, 1000);';
    const root = spawn('/bin/sh', ['-c', '"$0" -e "$1" & "$0" -e "$1" & wait', process.execPath, hold], { stdio: 'ignore' });
    const pid = root.pid as number;
    try {
      // Both children have written their buffers: the sum exceeds the largest one by one buffer.
      expect(
        await eventually(() => {
          const seen = measureTree(pid);
          return seen !== null && seen.pids.length === 3 && seen.rssBytes > seen.maxPeakBytes + 48 * MIB;
        }),
      ).toBe(true);
      const memory = measureTree(pid)!;
      expect(memory.pids).toHaveLength(3);
      expect(memory.pids[0]).toBe(pid);
      // Each child alone holds more than 48 MiB, the shell a few: the sum is over all three.
      expect(memory.maxPeakBytes).toBeGreaterThan(48 * MIB);
      expect(memory.rssBytes).toBeGreaterThan(2 * 48 * MIB);
      const all = treePids(pid);
      killTree(pid);
      expect(await eventually(() => all.every(gone))).toBe(true);
    } finally {
      root.kill('SIGKILL');
    }
  });

  it('reads nothing for a pid that is not there', () => {
    expect(measureTree(2 ** 22 + 12_345)).toBeNull();
  });

  it('a watch over the budget kills the tree once and reports MEMORY_LIMIT_EXCEEDED naming the budget and what it measured', async () => {
    const root = spawn(process.execPath, ['-e', 'const b = Buffer.alloc(96 * 1024 * 1024, 1); setInterval(() => b[0]++, 1000);'], { stdio: 'ignore' });
    const pid = root.pid as number;
    const errors: unknown[] = [];
    const watch = new MemoryWatch('node', 64, (error) => errors.push(error));
    try {
      watch.start(pid);
      expect(await eventually(() => errors.length > 0 && gone(pid))).toBe(true);
      expect(errors).toHaveLength(1);
      expect(watch.error).toMatchObject({ code: 'MEMORY_LIMIT_EXCEEDED', data: { memoryMb: 64 } });
      expect(watch.error?.message).toMatch(/node used \d+(\.\d)? MiB of memory .* over its budget of 64 MiB/);
      expect((watch.error?.data?.['rssMb'] as number) > 64).toBe(true);
    } finally {
      watch.stop();
      root.kill('SIGKILL');
    }
  });

  it('explains an allocation failure under the address-space cap as MEMORY_LIMIT_EXCEEDED, and nothing else', () => {
    const watch = new MemoryWatch('cadical', 64, () => undefined);
    expect(addressSpaceLimitKiB(64)).toBe(128 * 1024);
    expect(watch.explainExit(null, 'SIGABRT', "terminate called after throwing an instance of 'std::bad_alloc'")).toMatchObject({ code: 'MEMORY_LIMIT_EXCEEDED', data: { memoryMb: 64, addressSpaceMb: 128 } });
    expect(watch.explainExit(14, null, 'Singular error: no more memory')).toMatchObject({ code: 'MEMORY_LIMIT_EXCEEDED' });
    // A crash that says nothing of memory, with nothing seen near the cap, stays what it is.
    expect(watch.explainExit(null, 'SIGSEGV', 'Segmentation fault')).toBeNull();
    expect(watch.explainExit(1, null, 'syntax error')).toBeNull();
    expect(watch.explainExit(0, null, 'out of memory')).toBeNull();
  });
});

describe.skipIf(process.platform !== 'linux' || cadical === null)('CaDiCaL under budget.memory_mb', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'jacobian-memory-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is killed with MEMORY_LIMIT_EXCEEDED on p cnf 4000000 2 under 64 MiB (it takes about 630 MiB), and leaves no process', async () => {
    const cnfPath = path.join(dir, 'wide.cnf');
    await writeFile(cnfPath, 'p cnf 4000000 2\n1 2 0\n-1 -2 0\n');
    let pid = 0;
    const run = runCadical({ binary: cadical as string, cnfPath, proofPath: null, signal: new AbortController().signal, stopAt: Date.now() + 120_000, maxStdoutBytes: 4096 + 4_000_000 * 12, maxProofBytes: 0, memoryMb: 64, onSpawn: (spawned) => (pid = spawned) });
    const error = await run.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: 'MEMORY_LIMIT_EXCEEDED', data: { memoryMb: 64 } });
    expect((error as Error).message).toMatch(/budget of 64 MiB/);
    expect(pid).toBeGreaterThan(0);
    expect(gone(pid)).toBe(true);
  });

  it('solves what fits in its budget', async () => {
    const cnfPath = path.join(dir, 'small.cnf');
    await writeFile(cnfPath, 'p cnf 3 3\n1 2 0\n-1 0\n-2 3 0\n');
    const solved = await runCadical({ binary: cadical as string, cnfPath, proofPath: null, signal: new AbortController().signal, stopAt: Date.now() + 60_000, maxStdoutBytes: 4096, maxProofBytes: 0, memoryMb: 64 });
    expect(solved.result).toBe('SATISFIABLE');
    expect(Array.from(solved.model ?? [])).toEqual([0, -1, 1, 1]);
  });
});

describe.skipIf(process.platform !== 'linux' || cadical === null)('sat.model.find on CaDiCaL under budget.memory_mb', () => {
  let h: CapabilityHarness;
  let find: InstalledCapability;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    const runtime = await probeCadical();
    find = h.install(findModel(runtime), runtime);
  });
  afterAll(async () => {
    await h[Symbol.asyncDispose]();
  });

  it('ends as an ERROR with MEMORY_LIMIT_EXCEEDED, no conclusion, and no artifact listed', async () => {
    const result = await h.run(find, { capability_id: find.descriptor.id, mode: 'EXPLORE', payload: { dimacs: 'p cnf 4000000 2\n1 2 0\n-1 -2 0\n' }, budget: { memory_mb: 64 } });
    expect(CapabilityResultSchema.parse(result).execution.status).toBe('ERROR');
    expect(result.output).toBeNull();
    expect(result.artifact_uris).toEqual([]);
    expect(result.diagnostics[0]).toMatchObject({ code: 'MEMORY_LIMIT_EXCEEDED', severity: 'ERROR' });
    expect(result.diagnostics[0]?.message).toMatch(/budget of 64 MiB/);
  });

  it('answers a formula that fits in the same budget', async () => {
    const result = await h.run(find, { capability_id: find.descriptor.id, mode: 'EXPLORE', payload: { dimacs: 'p cnf 40000 2\n1 2 0\n-1 -2 0\n' }, budget: { memory_mb: 64 } });
    expect(result.execution.status).toBe('COMPLETED');
    expect(result.artifact_uris.length).toBeGreaterThan(0);
  });
});

describe.skipIf(process.platform !== 'linux' || singular.path === null)('Singular under budget.memory_mb', () => {
  it('is killed with MEMORY_LIMIT_EXCEEDED when a run needs more (a 5000 × 5000 matrix, about 200 MiB, under 64 MiB)', async () => {
    const ring = resolveRing({ field: { kind: 'Q' }, variables: ['x'], order: 'lex' });
    const run = runSingularProgram(singular.path as string, { ring, polynomials: [], program: ['matrix m[5000][5000];', '"@@jacobian:res";', 'nrows(m);'], sections: ['res'] }, { deadline: Date.now() + 120_000, maxOutputBytes: 1 << 20, memoryMb: 64 });
    await expect(run).rejects.toMatchObject({ code: 'MEMORY_LIMIT_EXCEEDED', data: { memoryMb: 64 } });
  });

  it('computes what fits in its budget', async () => {
    const ring = resolveRing({ field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' });
    const result = await runSingularGroebner(singular.path as string, { ring, generators: parsePolynomials(ring, ['x^2 - y', 'x*y - 1']), cofactors: false }, { deadline: Date.now() + 60_000, maxOutputBytes: 1 << 20, memoryMb: 64 });
    expect(result.basis).toHaveLength(2);
  });
});

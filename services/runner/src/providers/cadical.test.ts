import { createHash } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRuntimeSchema } from '@jacobian/shared';
import { readStat } from '@jacobian/shared/testing';
import { sharedLauncher } from '../native/launcher.js';
import { cadicalProvider, endsWithEmptyClause, findCadical, probeCadical, runCadical, type CadicalRunOptions } from './cadical.js';

/** The pigeonhole principle for `holes + 1` pigeons: unsatisfiable and very hard for CDCL at 11 holes. */
function pigeonhole(holes: number): string {
  const pigeons = holes + 1;
  const x = (pigeon: number, hole: number): number => pigeon * holes + hole + 1;
  const clauses: number[][] = [];
  for (let p = 0; p < pigeons; p++) clauses.push(Array.from({ length: holes }, (_, h) => x(p, h)));
  for (let h = 0; h < holes; h++) for (let a = 0; a < pigeons; a++) for (let b = a + 1; b < pigeons; b++) clauses.push([-x(a, h), -x(b, h)]);
  return `p cnf ${pigeons * holes} ${clauses.length}\n${clauses.map((c) => `${c.join(' ')} 0`).join('\n')}\n`;
}

/** Whether a process with this pid still exists (a reaped child does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('cadical provider', () => {
  let dir: string;
  let binary: string;
  let hardCnf: string;
  const common = (): Omit<CadicalRunOptions, 'cnfPath' | 'proofPath' | 'stopAt'> => ({
    binary,
    signal: new AbortController().signal,
    maxStdoutBytes: 1 << 20,
    maxProofBytes: 1 << 30,
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'jacobian-cadical-test-'));
    binary = await findCadical();
    hardCnf = path.join(dir, 'php-11.cnf');
    await writeFile(hardCnf, pigeonhole(11));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('probes the installed cadical: version, executable digest, health', async () => {
    const runtime = await probeCadical();
    expect(ProviderRuntimeSchema.safeParse(runtime).success).toBe(true);
    expect(runtime).toMatchObject({ provider: 'cadical', digest_kind: 'EXECUTABLE', install_tier: 'T1', license_id: 'MIT' });
    expect(runtime.version.length).toBeGreaterThan(0);
    expect(runtime.digest).toBe(createHash('sha256').update(await readFile(binary)).digest('hex'));
    expect((await cadicalProvider().probe()).digest).toBe(runtime.digest);
  });

  it('is unavailable when the binary is missing or is not a SAT solver', async () => {
    await expect(probeCadical({ binary: path.join(dir, 'no-such-cadical') })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await expect(probeCadical({ searchDirectories: [dir] })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await expect(probeCadical({ binary: '/bin/true' })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
  });

  it('is unavailable when --version fails, prints no version line, or one too long, and reads it through the launcher', async () => {
    const fake = async (name: string, body: string): Promise<string> => {
      const file = path.join(dir, name);
      await writeFile(file, `#!/bin/sh\n${body}\n`);
      await chmod(file, 0o755);
      return file;
    };
    const failing = await probeCadical({ binary: await fake('cadical-exit-3', 'echo 1.9.5; echo broken >&2; exit 3') }).catch((error: unknown) => error);
    expect(failing).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect((failing as Error).message).toMatch(/cadical --version failed: .*exit.*3.*broken/s);
    const long = await probeCadical({ binary: await fake('cadical-long', `echo ${'9'.repeat(80)}`) }).catch((error: unknown) => error);
    expect(long).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect((long as Error).message).toContain('printed no version line of 1 to 64 characters');
    // A version line is read, from a process started by a shell of this process's launcher (or
    // by its launcher process, or a shell of that); the health check then fails (this script
    // solves nothing), so the probe is still refused.
    const parentFile = path.join(dir, 'version-parent');
    const noSolver = await probeCadical({ binary: await fake('cadical-version-only', `[ "$1" = --version ] && echo $PPID > ${parentFile}; echo 2.0.0`) }).catch((error: unknown) => error);
    expect(noSolver).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect((noSolver as Error).message).not.toContain('--version');
    const parent = Number((await readFile(parentFile, 'utf8')).trim());
    expect(parent).not.toBe(process.pid);
    const launcher = sharedLauncher();
    expect(launcher.shellPids.includes(parent) || [parent, readStat(parent)?.ppid].includes(launcher.pid)).toBe(true);
  });

  it('solves, and writes a text DRAT proof ending with the empty clause for UNSAT', async () => {
    const cnfPath = path.join(dir, 'small.cnf');
    const proofPath = path.join(dir, 'small.drat');
    await writeFile(cnfPath, pigeonhole(3));
    const run = await runCadical({ ...common(), cnfPath, proofPath, stopAt: Date.now() + 10_000 });
    expect(run).toMatchObject({ result: 'UNSATISFIABLE', exitCode: 20, stoppedBy: null });
    const proof = await readFile(proofPath, 'utf8');
    expect(proof).toMatch(/^[-0-9d \n]+$/);
    expect(endsWithEmptyClause(proof)).toBe(true);
  });

  it('stops at its deadline and leaves no process behind', async () => {
    let pid = 0;
    const started = Date.now();
    const run = await runCadical({ ...common(), cnfPath: hardCnf, proofPath: path.join(dir, 'deadline.drat'), stopAt: Date.now() + 300, onSpawn: (p) => (pid = p) });
    expect(run).toMatchObject({ result: 'UNKNOWN', stoppedBy: 'DEADLINE', model: null });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  });

  it('is killed on abort and rejects with EXECUTION_CANCELLED', async () => {
    const controller = new AbortController();
    let pid = 0;
    setTimeout(() => controller.abort(), 200);
    await expect(
      runCadical({ ...common(), signal: controller.signal, cnfPath: hardCnf, proofPath: null, stopAt: Date.now() + 30_000, onSpawn: (p) => (pid = p) }),
    ).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  });

  it('is stopped when its proof outgrows the limit', async () => {
    const run = await runCadical({ ...common(), cnfPath: hardCnf, proofPath: path.join(dir, 'big.drat'), maxProofBytes: 100_000, stopAt: Date.now() + 30_000 });
    expect(run).toMatchObject({ result: 'UNKNOWN', stoppedBy: 'PROOF_LIMIT' });
  });

  it('fails on output beyond the limit and on malformed DIMACS', async () => {
    const wide = path.join(dir, 'wide.cnf');
    await writeFile(wide, `p cnf 5000 5000\n${Array.from({ length: 5000 }, (_, i) => `${i + 1} 0`).join('\n')}\n`);
    await expect(runCadical({ ...common(), cnfPath: wide, proofPath: null, maxStdoutBytes: 1000, stopAt: Date.now() + 10_000 })).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
    const broken = path.join(dir, 'broken.cnf');
    await writeFile(broken, 'p cnf 2 1\n1 x 0\n');
    await expect(runCadical({ ...common(), cnfPath: broken, proofPath: null, stopAt: Date.now() + 10_000 })).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
  });

  it('refuses to start when already aborted, and reports an unstartable binary', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runCadical({ ...common(), signal: controller.signal, cnfPath: hardCnf, proofPath: null, stopAt: Date.now() + 1000 })).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
    await expect(runCadical({ ...common(), binary: path.join(dir, 'missing'), cnfPath: hardCnf, proofPath: null, stopAt: Date.now() + 1000 })).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
  });

  it('recognizes a proof that ends with the empty clause', () => {
    expect(endsWithEmptyClause('1 2 0\nd 1 2 0\n0\n')).toBe(true);
    expect(endsWithEmptyClause('1 2 0\n0\n\n  \n')).toBe(true);
    expect(endsWithEmptyClause('0\nd -1 0\n')).toBe(true);
    expect(endsWithEmptyClause('1 2 0\n')).toBe(false);
    expect(endsWithEmptyClause('0\n1 0\n')).toBe(false);
    expect(endsWithEmptyClause('')).toBe(false);
  });
});

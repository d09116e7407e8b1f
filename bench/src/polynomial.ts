/**
 * `npm run bench -- polynomial`: reduced Groebner bases of the standard systems (cyclic-5,
 * cyclic-6, katsura-5, katsura-6; grevlex over Q), in one run:
 *
 * - our TypeScript engine (in this process, no kernel: the engine's own time) vs Singular run
 *   directly on the same work (the script our provider generates, `Singular -q --no-rc` with the
 *   script on stdin, run from bash and timed by bash, see peer.ts; wall time from just before
 *   bash starts it to its exit);
 * - the Singular provider (script generation, the process, reading the basis back with our
 *   parser) vs that same direct run: the provider's overhead;
 * - sympy's `groebner` (Debian's python3-sympy) on the same system, timed inside Python, as a
 *   second reference.
 *
 * Every basis is compared: ours must equal the provider's (canonical text), and sympy's element
 * count must match. Targets (issue): TypeScript within 10× Singular (3× the aim) and at least 50×
 * faster than sympy; the Singular provider at most 1.2× Singular direct on cyclic-6.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { cyclicSystem, katsuraSystem, parsePolynomials, printPolynomial, resolveRing, type StandardSystem } from '@jacobian/shared';
import { findSingularExecutable, groebnerBasis, runSingularGroebner, singularScript } from '@jacobian/runner';

import type { BenchContext } from './context.js';
import { runPeer } from './peer.js';
import { median, ratio, round, table } from './stats.js';

export const SINGULAR = '/usr/bin/Singular';
const PYTHON = '/usr/bin/python3';

export function checkSingular(): void {
  try {
    accessSync(SINGULAR, constants.X_OK);
  } catch {
    throw new Error(`the polynomial benchmark needs ${SINGULAR} (apt-get install -y singular)`);
  }
}

function sympyAvailable(): boolean {
  return spawnSync(PYTHON, ['-c', 'import sympy'], { encoding: 'utf8' }).status === 0;
}

export interface PolynomialBenchRow {
  system: string;
  basis_size: number;
  /** Median of the measured repetitions, after the warm-up runs. */
  typescript_ms: number;
  /** The engine's first run of this system in the process (not warmed up on it). */
  typescript_first_ms: number;
  singular_direct_ms: number;
  singular_provider_ms: number;
  sympy_ms: number | null;
  typescript_over_singular: number;
  provider_over_direct: number;
  sympy_over_typescript: number | null;
  agree: boolean;
  note: string;
}

export interface PolynomialBenchReport {
  benchmark: 'polynomial';
  reps: number;
  rows: PolynomialBenchRow[];
  targets: { name: string; wanted: string; measured: number | null; met: boolean }[];
  stopped?: unknown;
}

/** sympy's groebner on the same generators (grevlex over QQ), timed inside Python; the basis size. */
function sympyGroebner(system: StandardSystem, timeoutMs: number): { ms: number; size: number } | { failure: string } {
  const program = [
    'import sys, time, json',
    'from sympy import symbols, groebner, sympify',
    `xs = symbols(${JSON.stringify(system.variables.join(' '))})`,
    `env = {str(v): v for v in xs}`,
    `gens = [sympify(g.replace('^', '**'), locals=env) for g in ${JSON.stringify(system.generators)}]`,
    't = time.perf_counter()',
    "G = groebner(gens, *xs, order='grevlex', domain='QQ')",
    't = time.perf_counter() - t',
    "print(json.dumps({'ms': t * 1000, 'size': len(G.exprs)}))",
  ].join('\n');
  const out = spawnSync(PYTHON, ['-c', program], { encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' });
  if (out.status !== 0) return { failure: out.signal === 'SIGKILL' ? `no answer within ${timeoutMs} ms` : `python exited ${String(out.status)}: ${out.stderr.slice(-200)}` };
  return JSON.parse(out.stdout.trim()) as { ms: number; size: number };
}

/** Runs of the engine on a system before its measured repetitions, the first of them timed apart. */
const WARM_UP_RUNS = 4;

export async function runPolynomialBench(context: BenchContext, options: { reps: number; sympyTimeoutMs: number; only: string[] }): Promise<PolynomialBenchReport> {
  checkSingular();
  const binary = await findSingularExecutable();
  const withSympy = sympyAvailable();
  if (!withSympy) context.log('polynomial: python3-sympy is not installed; the sympy column stays empty (apt-get install -y python3-sympy)');
  const systems = [cyclicSystem(5), cyclicSystem(6), katsuraSystem(5), katsuraSystem(6)].filter((s) => options.only.length === 0 || options.only.some((o) => s.name.includes(o)));
  const rows: PolynomialBenchRow[] = [];
  for (const system of systems) {
    await context.waitQuiet(`polynomial ${system.name}`);
    const ring = resolveRing({ field: { kind: 'Q' }, variables: [...system.variables], order: 'grevlex' });
    const generators = parsePolynomials(ring, system.generators);
    const request = { ring, generators, cofactors: false };
    const script = singularScript(request).script;
    const scriptFile = join(context.dir, `singular-${system.name}.sing`);
    const outFile = join(context.dir, `singular-${system.name}.out`);
    const ts: number[] = [];
    const direct: number[] = [];
    const provider: number[] = [];
    let ours: string[] = [];
    let theirs: string[] = [];
    // The engine runs in a long-lived runner kernel, compiled by V8 as it works. Its first run of
    // a system is reported apart (cold); WARM_UP_RUNS more run unmeasured, as benchmarks of JIT
    // runtimes do, and the measured repetitions follow.
    let started = performance.now();
    groebnerBasis(ring, generators);
    const firstMs = round(performance.now() - started, 1);
    for (let warm = 1; warm < WARM_UP_RUNS; warm++) groebnerBasis(ring, generators);
    for (let rep = 0; rep < options.reps; rep++) {
      started = performance.now();
      const basis = groebnerBasis(ring, generators).basis;
      ts.push(performance.now() - started);
      ours = basis.map((p) => printPolynomial(ring, p));
      // From a shell (`Singular … < script > out`), timed by the shell (see peer.ts): the
      // provider starts Singular through the runner's launcher.
      writeFileSync(scriptFile, script);
      writeFileSync(outFile, '');
      const run = await runPeer(context, { file: binary, args: ['-q', '--no-rc', '--no-warn'], env: {}, stdinFile: scriptFile, stdoutFile: outFile, stderrLimit: 4096 });
      direct.push(run.ms);
      if (run.code !== 0) throw new Error(`Singular direct exited ${String(run.code ?? run.signal)} on ${system.name}: ${run.stderr.slice(0, 300)}`);
      started = performance.now();
      const answer = await runSingularGroebner(binary, request, { deadline: Date.now() + 600_000, maxOutputBytes: 256 * 1024 * 1024 });
      provider.push(performance.now() - started);
      theirs = answer.basis.map((p) => printPolynomial(ring, p));
    }
    const sympy = withSympy ? sympyGroebner(system, options.sympyTimeoutMs) : undefined;
    const tsMs = round(median(ts), 1);
    const directMs = round(median(direct), 1);
    const providerMs = round(median(provider), 1);
    const sympyMs = sympy !== undefined && 'ms' in sympy ? round(sympy.ms, 1) : null;
    const agree = JSON.stringify([...ours].sort()) === JSON.stringify([...theirs].sort()) && (sympy === undefined || !('size' in sympy) || sympy.size === ours.length);
    rows.push({
      system: system.name,
      basis_size: ours.length,
      typescript_ms: tsMs,
      typescript_first_ms: firstMs,
      singular_direct_ms: directMs,
      singular_provider_ms: providerMs,
      sympy_ms: sympyMs,
      typescript_over_singular: ratio(tsMs, directMs),
      provider_over_direct: ratio(providerMs, directMs),
      sympy_over_typescript: sympyMs === null ? null : ratio(sympyMs, tsMs),
      agree,
      note: sympy !== undefined && 'failure' in sympy ? `sympy: ${sympy.failure}` : '',
    });
    context.log(`polynomial: ${system.name}: ours ${tsMs} ms, Singular ${directMs} ms direct / ${providerMs} ms provider, sympy ${sympyMs ?? '-'} ms`);
  }
  const worst = rows.length === 0 ? null : Math.max(...rows.map((r) => r.typescript_over_singular));
  const sympyRatios = rows.flatMap((r) => (r.sympy_over_typescript === null ? [] : [r.sympy_over_typescript]));
  const leastSympy = sympyRatios.length === 0 ? null : Math.min(...sympyRatios);
  const cyclic6 = rows.find((r) => r.system === 'cyclic-6');
  return {
    benchmark: 'polynomial',
    reps: options.reps,
    rows,
    targets: [
      { name: 'TypeScript / Singular direct, worst system', wanted: '≤ 10 (aim 3)', measured: worst, met: worst !== null && worst <= 10 },
      { name: 'sympy / TypeScript, least', wanted: '≥ 50', measured: leastSympy, met: leastSympy !== null && leastSympy >= 50 },
      { name: 'Singular provider / Singular direct, cyclic-6', wanted: '≤ 1.2', measured: cyclic6?.provider_over_direct ?? null, met: (cyclic6?.provider_over_direct ?? Infinity) <= 1.2 },
    ],
  };
}

export function printPolynomialTables(report: PolynomialBenchReport): string {
  const rows = table(
    ['system', 'basis', 'ours ms', 'ours first ms', 'Singular ms', 'provider ms', 'sympy ms', 'ours/Singular', 'provider/direct', 'sympy/ours', 'agree', 'note'],
    report.rows.map((r) => [r.system, r.basis_size, r.typescript_ms, r.typescript_first_ms, r.singular_direct_ms, r.singular_provider_ms, r.sympy_ms ?? '-', r.typescript_over_singular, r.provider_over_direct, r.sympy_over_typescript ?? '-', r.agree ? 'yes' : 'NO', r.note]),
  );
  const targets = table(
    ['target', 'wanted', 'measured', 'met'],
    report.targets.map((t) => [t.name, t.wanted, t.measured ?? '-', t.met ? 'yes' : 'NO']),
  );
  return `${rows}\n\n${targets}`;
}

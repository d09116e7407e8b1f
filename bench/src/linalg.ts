/**
 * `npm run bench -- linalg`: exact linear algebra on random square integer matrices (n = 20, 50,
 * 100; entries uniform in ±2^10 and ±2^64), five operations (determinant, rank, Hermite normal
 * form, Smith normal form, characteristic polynomial), in one run:
 *
 * - our TypeScript engine (in this process, no kernel: the engine's own time, after one
 *   unmeasured run of the operation on the n = 20 matrix to compile it) vs PARI/GP run directly
 *   (`gp -q -f` with the script on stdin, from bash and timed by bash, see peer.ts: the whole
 *   process, start-up and printing the answer included; gp's own time for the call, by
 *   getabstime, is reported too);
 * - the PARI provider (script generation, the gp process through the runner's launcher, strict
 *   parsing, conversion and our rechecks) vs that same direct run;
 * - sympy (`python3 -c`, the python3 on PATH, Matrix.det(method='bareiss'), .rank(), hermite_normal_form,
 *   smith_normal_form, .charpoly()), timed inside Python, each call killed at a timeout and
 *   reported as "> T"; once a size times out the larger ones of that operation are not tried.
 *
 * Answers are compared: ours against the provider's (determinant, rank, H, the diagonal of D and
 * the coefficients), and sympy's determinant and rank against ours. Targets (issue 33):
 * TypeScript within 5× PARI at n = 50, at least 50× faster than sympy, the PARI provider within
 * 1.2× PARI direct.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RATIONALS, type MatrixPayload } from '@jacobian/shared';
import {
  findGpExecutable,
  gpArguments,
  gpMatrix,
  hermiteNormalForm,
  pariCharacteristic,
  pariDeterminant,
  pariHermite,
  pariRank,
  pariSmith,
  probePari,
  rationalCharacteristicPolynomial,
  ringEngine,
  smithNormalForm,
  type PariTools,
} from '@jacobian/runner';
import type { BenchContext } from './context.js';
import { runPeer } from './peer.js';
import { median, ratio, round, table } from './stats.js';

export const GP = '/usr/bin/gp';
/** python3 as a user's shell finds it (the sympy it has is the one measured). */
const PYTHON = 'python3';
const MEMORY_MB = 2048;

export function checkGp(): void {
  try {
    accessSync(GP, constants.X_OK);
  } catch {
    throw new Error(`the linalg benchmark needs ${GP} (apt-get install -y pari-gp)`);
  }
}

const OPERATIONS = ['det', 'rank', 'hnf', 'snf', 'charpoly'] as const;
type Operation = (typeof OPERATIONS)[number];

/** The gp expression of each operation on A, for the direct run (the provider's scripts do the same calls). */
const GP_CALL: Record<Operation, string> = { det: 'matdet(A)', rank: 'matrank(A)', hnf: 'mathnf(A)', snf: 'matsnf(A)', charpoly: 'charpoly(A)' };

const SYMPY_CALL: Record<Operation, string> = {
  det: "M.det(method='bareiss')",
  rank: 'M.rank()',
  hnf: 'hermite_normal_form(M)',
  snf: 'smith_normal_form(M, domain=ZZ)',
  charpoly: 'M.charpoly()',
};

export interface LinalgBenchRow {
  bits: number;
  n: number;
  operation: Operation;
  typescript_ms: number | null;
  pari_direct_ms: number;
  /** gp's own time for the call (getabstime), without start-up, reading A or printing. */
  pari_call_ms: number | null;
  pari_provider_ms: number;
  sympy_ms: number | null;
  typescript_over_pari: number | null;
  typescript_over_pari_call: number | null;
  provider_over_direct: number;
  sympy_over_typescript: number | null;
  agree: boolean;
  note: string;
}

export interface LinalgBenchReport {
  benchmark: 'linalg';
  reps: number;
  sympy_timeout_ms: number;
  typescript_timeout_ms: number;
  rows: LinalgBenchRow[];
  targets: { name: string; wanted: string; measured: number | null; met: boolean }[];
}

/** mulberry32, so every run measures the same matrices. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

function randomMatrix(n: number, bits: number, seed: number): bigint[][] {
  const next = generator(seed);
  const bound = 1n << BigInt(bits);
  const draw = (): bigint => {
    let x = 0n;
    for (let k = 0; k < 3; k++) x = (x << 32n) | BigInt(next());
    return (x % (2n * bound + 1n)) - bound;
  };
  return Array.from({ length: n }, () => Array.from({ length: n }, draw));
}

class Stopped extends Error {}

/** Our engine's answer as comparable text, stopped by its checkpoint after `timeoutMs`. */
function typescriptRun(operation: Operation, A: bigint[][], payload: MatrixPayload, timeoutMs: number): string {
  const until = performance.now() + timeoutMs;
  const checkpoint = (): void => {
    if (performance.now() > until) throw new Stopped();
  };
  switch (operation) {
    // det and rank: the engine path the capabilities' kernel takes (ringEngine: multimodular over Z and Q).
    case 'det': {
      const engine = ringEngine(payload.ring, checkpoint);
      return engine.format(engine.algebra.determinant(engine.parse(payload.rows)));
    }
    case 'rank': {
      const engine = ringEngine(payload.ring, checkpoint);
      return String(engine.algebra.rank(engine.parse(payload.rows)));
    }
    case 'hnf':
      return JSON.stringify(hermiteNormalForm(A, { checkpoint }).hnf.map((row) => row.map(String)));
    case 'snf':
      return JSON.stringify(smithNormalForm(A, { checkpoint }).diagonal.map(String));
    case 'charpoly': {
      const rows = A.map((row) => row.map((x) => RATIONALS.fromBigInt(x)));
      return JSON.stringify(rationalCharacteristicPolynomial(rows, checkpoint).map((c) => String(c.num)));
    }
  }
}

async function providerRun(tools: PariTools, operation: Operation, payload: MatrixPayload): Promise<string> {
  const options = { deadline: Date.now() + 600_000, maxOutputBytes: 256 * 1024 * 1024, memoryMb: MEMORY_MB };
  switch (operation) {
    case 'det':
      return (await pariDeterminant(tools, payload, options)).determinant;
    case 'rank':
      return String((await pariRank(tools, payload, options)).rank);
    case 'hnf':
      return JSON.stringify((await pariHermite(tools, payload, false, options)).hnf);
    case 'snf':
      return JSON.stringify((await pariSmith(tools, payload, false, options)).diagonal);
    case 'charpoly':
      return JSON.stringify((await pariCharacteristic(tools, payload, options)).coefficients);
  }
}

function sympyRun(operation: Operation, file: string, timeoutMs: number): { ms: number; value: string } | { failure: string } {
  const program = [
    'import json, time',
    'from sympy import Matrix, ZZ',
    'from sympy.matrices.normalforms import hermite_normal_form, smith_normal_form',
    `M = Matrix(json.load(open(${JSON.stringify(file)})))`,
    't = time.perf_counter()',
    `r = ${SYMPY_CALL[operation]}`,
    't = time.perf_counter() - t',
    "print(json.dumps({'ms': t * 1000, 'value': str(r)}))",
  ].join('\n');
  const out = spawnSync(PYTHON, ['-c', program], { encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 });
  if (out.status !== 0) return { failure: out.signal === 'SIGKILL' ? `> ${timeoutMs / 1000} s` : `python exited ${String(out.status)}: ${out.stderr.slice(-200)}` };
  return JSON.parse(out.stdout.trim()) as { ms: number; value: string };
}

export async function runLinalgBench(context: BenchContext, options: { reps: number; sizes: number[]; sympyTimeoutMs: number; typescriptTimeoutMs: number }): Promise<LinalgBenchReport> {
  checkGp();
  const binary = await findGpExecutable();
  const { tools } = await probePari({ binary });
  const withSympy = spawnSync(PYTHON, ['-c', 'import sympy'], { encoding: 'utf8' }).status === 0;
  if (!withSympy) context.log('linalg: sympy is not installed; the sympy column stays empty');
  const rows: LinalgBenchRow[] = [];
  const warmed = new Set<Operation>();
  for (const bits of [10, 64]) {
    const sympyGaveUp = new Set<Operation>();
    const typescriptGaveUp = new Set<Operation>();
    for (const n of options.sizes) {
      const A = randomMatrix(n, bits, 1000 * bits + n);
      const payload: MatrixPayload = { ring: { kind: 'Z' }, nrows: n, ncols: n, rows: A.map((row) => row.map(String)) };
      const jsonFile = join(context.dir, `linalg-${bits}-${n}.json`);
      writeFileSync(jsonFile, `[${A.map((row) => `[${row.join(',')}]`).join(',')}]`);
      for (const operation of OPERATIONS) {
        await context.waitQuiet(`linalg ${operation} n=${n} ±2^${bits}`);
        if (!warmed.has(operation)) {
          const small = randomMatrix(20, 10, 7);
          typescriptRun(operation, small, { ring: { kind: 'Z' }, nrows: 20, ncols: 20, rows: small.map((row) => row.map(String)) }, options.typescriptTimeoutMs);
          warmed.add(operation);
        }
        const ts: number[] = [];
        const direct: number[] = [];
        const calls: number[] = [];
        const provider: number[] = [];
        let ours: string | null = null;
        let theirs = '';
        const notes: string[] = [];
        for (let rep = 0; rep < options.reps; rep++) {
          if (!typescriptGaveUp.has(operation)) {
            const started = performance.now();
            try {
              ours = typescriptRun(operation, A, payload, options.typescriptTimeoutMs);
              ts.push(performance.now() - started);
            } catch (error) {
              if (!(error instanceof Stopped)) throw error;
              typescriptGaveUp.add(operation);
              notes.push(`ours > ${options.typescriptTimeoutMs / 1000} s`);
            }
          }
          const scriptFile = join(context.dir, `linalg-${operation}-${bits}-${n}.gp`);
          writeFileSync(scriptFile, `A=${gpMatrix(payload)};\nt=getabstime();r=${GP_CALL[operation]};t=getabstime()-t;\nprint(r);write("/dev/stderr",Str("call-ms ",t));\nquit;\n`);
          const run = await runPeer(context, { file: binary, args: gpArguments(MEMORY_MB), env: {}, stdinFile: scriptFile, stdoutFile: join(context.dir, `linalg-${operation}.out`), stderrLimit: 4096 });
          if (run.code !== 0) throw new Error(`gp direct exited ${String(run.code ?? run.signal)} on ${operation} n=${n}: ${run.stderr.slice(0, 300)}`);
          direct.push(run.ms);
          const call = /call-ms (\d+)/.exec(run.stderr);
          if (call !== null) calls.push(Number(call[1]));
          const started = performance.now();
          theirs = await providerRun(tools, operation, payload);
          provider.push(performance.now() - started);
        }
        let sympyMs: number | null = null;
        let sympyValue: string | null = null;
        if (withSympy && !sympyGaveUp.has(operation)) {
          const sympy = sympyRun(operation, jsonFile, options.sympyTimeoutMs);
          if ('ms' in sympy) {
            sympyMs = round(sympy.ms, 1);
            sympyValue = sympy.value;
          } else {
            sympyGaveUp.add(operation);
            notes.push(`sympy ${sympy.failure}`);
          }
        } else if (withSympy) notes.push(`sympy not tried (> ${options.sympyTimeoutMs / 1000} s at a smaller n)`);
        const tsMs = ts.length === 0 ? null : round(median(ts), 1);
        const directMs = round(median(direct), 1);
        const callMs = calls.length === 0 ? null : round(median(calls), 1);
        const providerMs = round(median(provider), 1);
        const agree = (ours === null || ours === theirs) && (sympyValue === null || (operation !== 'det' && operation !== 'rank') || sympyValue === ours);
        // Against sympy: a timeout T gives the lower bound T / ours.
        const sympyBound = sympyMs ?? (sympyGaveUp.has(operation) ? options.sympyTimeoutMs : null);
        rows.push({
          bits,
          n,
          operation,
          typescript_ms: tsMs,
          pari_direct_ms: directMs,
          pari_call_ms: callMs,
          pari_provider_ms: providerMs,
          sympy_ms: sympyMs,
          typescript_over_pari: tsMs === null ? null : ratio(tsMs, directMs),
          typescript_over_pari_call: tsMs === null || callMs === null ? null : ratio(tsMs, Math.max(callMs, 1)),
          provider_over_direct: ratio(providerMs, directMs),
          sympy_over_typescript: tsMs === null || sympyBound === null ? null : ratio(sympyBound, tsMs),
          agree,
          note: notes.join('; '),
        });
        context.log(`linalg: ${operation} n=${n} ±2^${bits}: ours ${tsMs ?? '-'} ms, PARI ${directMs} ms direct (${callMs ?? '-'} ms call) / ${providerMs} ms provider, sympy ${sympyMs ?? '-'} ms ${notes.join('; ')}`);
      }
    }
  }
  const at50 = rows.filter((r) => r.n === 50);
  const worst50 = at50.length === 0 || at50.some((r) => r.typescript_over_pari === null) ? null : Math.max(...at50.map((r) => r.typescript_over_pari as number));
  // Measured sympy times only; a timeout gives a lower bound, shown in the table, not a measurement.
  const sympyRatios = rows.flatMap((r) => (r.sympy_over_typescript === null || r.sympy_ms === null ? [] : [r.sympy_over_typescript]));
  const leastSympy = sympyRatios.length === 0 ? null : Math.min(...sympyRatios);
  const worstProvider = rows.length === 0 ? null : Math.max(...rows.map((r) => r.provider_over_direct));
  return {
    benchmark: 'linalg',
    reps: options.reps,
    sympy_timeout_ms: options.sympyTimeoutMs,
    typescript_timeout_ms: options.typescriptTimeoutMs,
    rows,
    targets: [
      { name: 'TypeScript / PARI direct at n = 50, worst operation', wanted: '≤ 5', measured: worst50, met: worst50 !== null && worst50 <= 5 },
      { name: 'sympy / TypeScript, least where sympy answered', wanted: '≥ 50', measured: leastSympy, met: leastSympy !== null && leastSympy >= 50 },
      { name: 'PARI provider / PARI direct, worst', wanted: '≤ 1.2', measured: worstProvider, met: worstProvider !== null && worstProvider <= 1.2 },
    ],
  };
}

export function printLinalgTables(report: LinalgBenchReport): string {
  const rows = table(
    ['entries', 'n', 'op', 'ours ms', 'PARI ms', 'PARI call ms', 'provider ms', 'sympy ms', 'ours/PARI', 'ours/PARI call', 'provider/direct', 'sympy/ours', 'agree', 'note'],
    report.rows.map((r) => [
      `±2^${r.bits}`,
      r.n,
      r.operation,
      r.typescript_ms ?? '-',
      r.pari_direct_ms,
      r.pari_call_ms ?? '-',
      r.pari_provider_ms,
      r.sympy_ms ?? '-',
      r.typescript_over_pari ?? '-',
      r.typescript_over_pari_call ?? '-',
      r.provider_over_direct,
      r.sympy_over_typescript === null ? '-' : r.sympy_ms === null ? `> ${r.sympy_over_typescript}` : r.sympy_over_typescript,
      r.agree ? 'yes' : 'NO',
      r.note,
    ]),
  );
  const targets = table(
    ['target', 'wanted', 'measured', 'met'],
    report.targets.map((t) => [t.name, t.wanted, t.measured ?? '-', t.met ? 'yes' : 'NO']),
  );
  return `${rows}\n\n${targets}`;
}

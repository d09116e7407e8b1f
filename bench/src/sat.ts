/**
 * The SAT micro-benchmark: CaDiCaL solves each instance writing a text DRAT proof (timed as the
 * wall time of its process), then our DRAT checker (services/checker/src/sat/drat-check.ts)
 * checks that proof in this process (timed separately: parsing, and the check itself). The
 * issue's bar is checking time ≤ 2× CaDiCaL's solving time on the same instance.
 *
 * Instances: pigeonhole PHP(n+1, n) for n = 5 … 8 and unsatisfiable uniform random 3-SAT at
 * ratio 4.26 with 100, 150, 200 and 250 variables (our seeded generator; the seeds are ones
 * whose formulas are unsatisfiable). cadical is run from bash, timed by bash and
 * killed at its timeout (see peer.ts); it is
 * /usr/bin/cadical (Debian package cadical).
 */
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The checker service exports only its service factory; the benchmark measures the checker's
// module directly, as a unit, in this process.
import { checkDrat } from '@jacobian/checker';
import { parseDimacs, parseDratText, pigeonhole, randomKSat, serializeDimacs, type Cnf } from '@jacobian/shared';
import type { BenchContext } from './context.js';
import { runPeer } from './peer.js';
import { median, round, table } from './stats.js';

export const CADICAL = '/usr/bin/cadical';

/** Fail before anything starts when the peer is missing. */
export function checkCadical(): void {
  try {
    accessSync(CADICAL, constants.X_OK);
  } catch {
    throw new Error(`${CADICAL} is missing: install the Debian package cadical (scripts/install-system-deps.sh)`);
  }
}

interface Instance {
  name: string;
  make: () => Cnf;
}

/** The instances, smallest first; `max` drops the largest (random 3-SAT with 250 variables takes CaDiCaL several seconds). */
export const SAT_INSTANCES: readonly Instance[] = [
  ...[5, 6, 7, 8].map((n) => ({ name: `php-${n + 1}-${n}`, make: () => pigeonhole(n) })),
  { name: 'rand3-100-s3', make: () => randomKSat(100, 4.26, 3) },
  { name: 'rand3-150-s3', make: () => randomKSat(150, 4.26, 3) },
  { name: 'rand3-200-s1', make: () => randomKSat(200, 4.26, 1) },
  { name: 'rand3-250-s2', make: () => randomKSat(250, 4.26, 2) },
];

export interface SatBenchOptions {
  /** Repetitions of each measurement; the median is reported. */
  reps: number;
  /** Skip instances whose name contains none of these (empty: all). */
  only: string[];
  /** Per-solve timeout. */
  timeoutMs: number;
}

export interface SatBenchRow {
  instance: string;
  variables: number;
  clauses: number;
  proof_lines: number;
  proof_bytes: number;
  cadical_ms: number;
  parse_ms: number;
  check_ms: number;
  core_lemmas: number;
  lemmas: number;
  verdict: string;
  /** check_ms / cadical_ms: the bar is ≤ 2. */
  check_over_solve: number;
  /** (parse_ms + check_ms) / cadical_ms. */
  parse_and_check_over_solve: number;
}

export interface SatBenchReport {
  benchmark: 'sat';
  reps: number;
  rows: SatBenchRow[];
  stopped?: unknown;
}

/**
 * Solve with cadical writing a text DRAT proof; the wall time of the process, started by the
 * benchmark's peer shell and timed by it (see peer.ts).
 */
async function solve(context: BenchContext, cnfPath: string, proofPath: string, timeoutMs: number): Promise<number> {
  const run = await runPeer(context, { file: CADICAL, args: ['-q', '--no-binary', cnfPath, proofPath], env: {}, stdoutFile: null, stderrLimit: 1024 }, timeoutMs);
  if (run.code !== 20) throw new Error(`cadical on ${cnfPath} ended with ${String(run.code)} (${run.signal ?? 'no signal'}${run.killedAtBudget ? ', killed at its timeout' : ''}), not 20 (UNSATISFIABLE)`);
  return run.ms;
}

export async function runSatBench(context: BenchContext, options: SatBenchOptions): Promise<SatBenchReport> {
  checkCadical();
  const rows: SatBenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'jacobian-bench-sat-'));
  try {
    for (const instance of SAT_INSTANCES) {
      if (options.only.length > 0 && !options.only.some((part) => instance.name.includes(part))) continue;
      const cnf = instance.make();
      const cnfPath = join(dir, `${instance.name}.cnf`);
      const proofPath = join(dir, `${instance.name}.drat`);
      writeFileSync(cnfPath, serializeDimacs(cnf));
      const solveTimes: number[] = [];
      const parseTimes: number[] = [];
      const checkTimes: number[] = [];
      let row: Omit<SatBenchRow, 'cadical_ms' | 'parse_ms' | 'check_ms' | 'check_over_solve' | 'parse_and_check_over_solve'> | null = null;
      for (let rep = 0; rep < options.reps; rep++) {
        solveTimes.push(await solve(context, cnfPath, proofPath, options.timeoutMs));
        // CaDiCaL is deterministic: every repetition writes the same proof, which is checked.
        const text = readFileSync(proofPath, 'latin1');
        let started = performance.now();
        const formula = parseDimacs(readFileSync(cnfPath, 'latin1'));
        const proof = parseDratText(text);
        parseTimes.push(performance.now() - started);
        started = performance.now();
        const result = checkDrat(formula, proof);
        checkTimes.push(performance.now() - started);
        row = {
          instance: instance.name,
          variables: cnf.variables,
          clauses: cnf.clauseCount,
          proof_lines: proof.stepCount,
          proof_bytes: text.length,
          core_lemmas: result.verdict === 'ACCEPTED' ? result.stats.core_lemmas : 0,
          lemmas: result.stats.lemmas,
          verdict: result.verdict === 'ACCEPTED' ? 'ACCEPTED' : `REJECTED ${result.reason} at step ${result.step + 1}`,
        };
      }
      if (row === null) continue;
      const cadicalMs = median(solveTimes);
      const parseMs = median(parseTimes);
      const checkMs = median(checkTimes);
      const full: SatBenchRow = {
        ...row,
        cadical_ms: round(cadicalMs, 1),
        parse_ms: round(parseMs, 1),
        check_ms: round(checkMs, 1),
        check_over_solve: round(checkMs / cadicalMs, 2),
        parse_and_check_over_solve: round((parseMs + checkMs) / cadicalMs, 2),
      };
      context.log(`sat ${full.instance}: cadical ${full.cadical_ms} ms, parse ${full.parse_ms} ms, check ${full.check_ms} ms (${full.check_over_solve}× solve), ${full.verdict}`);
      rows.push(full);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { benchmark: 'sat', reps: options.reps, rows };
}

export function printSatTables(report: SatBenchReport): string {
  return table(
    ['instance', 'vars', 'clauses', 'proof lines', 'cadical ms', 'parse ms', 'check ms', 'check/solve', '(parse+check)/solve', 'core/lemmas', 'verdict'],
    report.rows.map((r) => [r.instance, r.variables, r.clauses, r.proof_lines, r.cadical_ms, r.parse_ms, r.check_ms, r.check_over_solve, r.parse_and_check_over_solve, `${r.core_lemmas}/${r.lemmas}`, r.verdict]),
  );
}

/**
 * `npm run bench -- sequences`: guessing a linear recurrence with constant coefficients from the
 * terms of a sequence.
 *
 * - ours: the engine of sequence.recurrence.guess (fraction-free Berlekamp–Massey over Q), in
 *   this process, timed from the term texts to the coefficients (parsing included);
 * - sympy: `SeqPer(terms).find_linear_recurrence(N)` (the python3 on PATH), timed inside python
 *   with time.perf_counter around the call only (no import, no start-up), killed past a timeout.
 *
 * Sequences: seeded random C-finite sequences of order 2 and 10 (coefficients in −3..3, the last
 * non-zero; initial terms in −9..9) with 100, 400 and 1,000 terms. Both answers are compared
 * (the coefficient lists as text). Target (issue 36): at least 10× sympy at 400 terms.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { berlekampMassey } from '@jacobian/runner';
import { formatSequenceTerm, parseSequenceTerms } from '@jacobian/shared';
import { mulberry32 } from '@jacobian/shared/testing';
import type { BenchContext } from './context.js';
import { median, ratio, round, table } from './stats.js';

const PYTHON = 'python3';

export interface SequencesBenchRow {
  terms: number;
  order: number;
  digits: number;
  ours_ms: number;
  sympy_ms: number | null;
  sympy_over_ours: number | null;
  agree: boolean | null;
  note: string;
}

export interface SequencesBenchReport {
  benchmark: 'sequences';
  reps: number;
  sympy_timeout_ms: number;
  rows: SequencesBenchRow[];
  targets: { name: string; wanted: string; measured: number | null; met: boolean }[];
}

/** A seeded C-finite sequence of `order` with `count` terms, and its coefficients. */
function cFinite(order: number, count: number, seed: number): { terms: string[]; coefficients: bigint[] } {
  const random = mulberry32(seed);
  const coefficients = Array.from({ length: order }, () => BigInt(Math.floor(random() * 7) - 3));
  if (coefficients[order - 1] === 0n) coefficients[order - 1] = 1n;
  const a = Array.from({ length: order }, () => BigInt(Math.floor(random() * 19) - 9));
  while (a.length < count) a.push(coefficients.reduce((s, c, i) => s + c * (a[a.length - 1 - i] as bigint), 0n));
  return { terms: a.map(String), coefficients };
}

function sympyRun(file: string, timeoutMs: number): { ms: number; value: string[] } | { failure: string } {
  const program = [
    'import json, time',
    'from sympy import SeqPer, symbols',
    `a = json.load(open(${JSON.stringify(file)}))`,
    "k = symbols('k')",
    's = SeqPer(tuple(int(x) for x in a), (k, 0, len(a) - 1))',
    't = time.perf_counter()',
    'r = s.find_linear_recurrence(len(a))',
    't = time.perf_counter() - t',
    "print(json.dumps({'ms': t * 1000, 'value': [str(c) for c in r]}))",
  ].join('\n');
  const out = spawnSync(PYTHON, ['-c', program], { encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 });
  if (out.status !== 0) return { failure: out.signal === 'SIGKILL' ? `> ${timeoutMs / 1000} s` : `python exited ${String(out.status)}: ${out.stderr.slice(-200)}` };
  return JSON.parse(out.stdout.trim()) as { ms: number; value: string[] };
}

export function runSequencesBench(context: BenchContext, options: { reps: number; sizes: number[]; orders: number[]; sympyTimeoutMs: number }): SequencesBenchReport {
  const withSympy = spawnSync(PYTHON, ['-c', 'import sympy'], { encoding: 'utf8' }).status === 0;
  if (!withSympy) context.log('sequences: sympy is not installed; the sympy column stays empty');
  const rows: SequencesBenchRow[] = [];
  for (const order of options.orders) {
    for (const N of options.sizes) {
      const { terms, coefficients } = cFinite(order, N, 36_000 + 97 * order + N);
      const times: number[] = [];
      let ours: string[] = [];
      for (let rep = 0; rep < Math.max(1, options.reps); rep++) {
        const started = performance.now();
        const found = berlekampMassey(parseSequenceTerms(terms, ['terms']));
        times.push(performance.now() - started);
        ours = found.coefficients.map(formatSequenceTerm);
      }
      const expected = coefficients.map(String);
      let note = ours.join(',') === expected.join(',') ? '' : `ours found order ${ours.length}`;
      let sympyMs: number | null = null;
      let agree: boolean | null = null;
      if (withSympy) {
        const file = join(context.dir, `sequence-${order}-${N}.json`);
        writeFileSync(file, JSON.stringify(terms));
        const sympyTimes: number[] = [];
        for (let rep = 0; rep < Math.max(1, options.reps); rep++) {
          const run = sympyRun(file, options.sympyTimeoutMs);
          if ('failure' in run) {
            note = [note, `sympy ${run.failure}`].filter((part) => part !== '').join('; ');
            break;
          }
          sympyTimes.push(run.ms);
          agree = run.value.join(',') === ours.join(',');
        }
        sympyMs = sympyTimes.length === 0 ? null : round(median(sympyTimes), 1);
      }
      const oursMs = round(median(times), 2);
      const digits = Math.max(...terms.map((t) => t.replace('-', '').length));
      rows.push({ terms: N, order, digits, ours_ms: oursMs, sympy_ms: sympyMs, sympy_over_ours: sympyMs === null ? null : ratio(sympyMs, oursMs), agree, note });
      context.log(`sequences: order ${order}, ${N} terms: ours ${oursMs} ms, sympy ${sympyMs ?? '-'} ms`);
    }
  }
  const at400 = rows.filter((r) => r.terms === 400 && r.sympy_over_ours !== null).map((r) => r.sympy_over_ours as number);
  const measured = at400.length === 0 ? null : Math.min(...at400);
  return {
    benchmark: 'sequences',
    reps: options.reps,
    sympy_timeout_ms: options.sympyTimeoutMs,
    rows,
    targets: [{ name: 'sympy find_linear_recurrence / ours at 400 terms (smallest over orders)', wanted: '≥ 10', measured, met: measured !== null && measured >= 10 }],
  };
}

export function printSequencesTables(report: SequencesBenchReport): string {
  const rows = table(
    ['terms', 'order', 'max digits', 'ours ms', 'sympy ms', 'sympy/ours', 'agree', 'note'],
    report.rows.map((r) => [r.terms, r.order, r.digits, r.ours_ms, r.sympy_ms ?? '-', r.sympy_over_ours ?? '-', r.agree === null ? '-' : r.agree ? 'yes' : 'NO', r.note]),
  );
  const targets = table(
    ['target', 'wanted', 'measured', 'met'],
    report.targets.map((t) => [t.name, t.wanted, t.measured ?? '-', t.met ? 'yes' : 'NO']),
  );
  return `${rows}\n\n${targets}`;
}

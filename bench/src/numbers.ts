/**
 * `npm run bench -- numbers`: integer factorization and primality certificates, as ratios in one run.
 *
 * - TypeScript against PARI: our engine (factorEngine: trial division, Brent's rho, ECM), in this
 *   process, against PARI/GP's `factor` timed inside gp (getabstime around the call, so gp's start
 *   is not charged to PARI), on semiprimes of 20, 30 and 40 digits (two primes of half the digits,
 *   from fixed seeds). Target (issue 35): within 20× PARI at 30 digits.
 * - PARI provider against PARI direct: the runner's pariFactor (identity check, the script of
 *   re-printed integers, gp spawned from Node, the answer read strictly and its product rechecked)
 *   against the same `factor(n)` run by gp started from bash and timed by bash (peer.ts). Target:
 *   within 1.2×.
 * - Certificates: production against checking (numbers-certificates.ts, from i-ntprime).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { factorEngine, findGpExecutable, gpArguments, pariFactor, probePari } from '@jacobian/runner';
import { isProbablePrimeBpsw } from '@jacobian/shared';
import type { BenchContext } from './context.js';
import { printCertificateTable, runCertificateBench, type CertificateBenchReport } from './numbers-certificates.js';
import { runPeer } from './peer.js';
import { median, ratio, round, table } from './stats.js';

export interface NumbersBenchRow {
  case: string;
  digits: number;
  typescript_ms: number;
  pari_call_ms: number;
  ts_over_pari: number;
  pari_direct_ms: number;
  provider_ms: number;
  provider_over_direct: number;
  agree: boolean;
}

export interface NumbersBenchReport {
  rows: NumbersBenchRow[];
  certificates: CertificateBenchReport;
}

/** A deterministic d-digit probable prime from a seed (an LCG's digits, then the next BPSW prime). */
function seededPrime(digits: number, seed: number): bigint {
  let x = BigInt(seed) + 0x9e3779b97f4a7c15n;
  let text = '';
  while (text.length < digits) {
    x = (x * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
    text += (x >> 24n).toString();
  }
  let p = BigInt(`${1 + (Number(text[0]) % 9)}${text.slice(1, digits)}`);
  while (!isProbablePrimeBpsw(p)) p++;
  return p;
}

const CASES: readonly { digits: number; seeds: [number, number] }[] = [
  { digits: 20, seeds: [20, 21] },
  { digits: 20, seeds: [22, 23] },
  { digits: 30, seeds: [30, 31] },
  { digits: 30, seeds: [32, 33] },
  { digits: 30, seeds: [34, 35] },
  { digits: 40, seeds: [40, 41] },
  { digits: 40, seeds: [42, 43] },
];

const MEMORY_MB = 512;

export async function runNumbersBench(context: BenchContext, options: { reps: number }): Promise<NumbersBenchReport> {
  const binary = await findGpExecutable();
  const { tools } = await probePari({ binary });
  const rows: NumbersBenchRow[] = [];
  // Warm up our engine (JIT, the stage-1 products and stage-2 sieves are cached per bound).
  factorEngine(seededPrime(12, 1) * seededPrime(12, 2));
  for (const c of CASES) {
    const p = seededPrime(c.digits / 2, c.seeds[0]);
    const q = seededPrime(c.digits / 2, c.seeds[1]);
    const n = p * q;
    await context.waitQuiet(`numbers ${c.digits} digits`);
    const ts: number[] = [];
    const direct: number[] = [];
    const calls: number[] = [];
    const provider: number[] = [];
    let agree = true;
    for (let rep = 0; rep < options.reps; rep++) {
      const started = performance.now();
      const ours = factorEngine(n);
      ts.push(performance.now() - started);
      const expected = [p, q].sort((a, b) => (a < b ? -1 : 1));
      agree &&= ours.composites.length === 0 && JSON.stringify(ours.primes.map((f) => f.prime.toString())) === JSON.stringify(expected.map(String));
      const scriptFile = join(context.dir, `numbers-${c.digits}.gp`);
      writeFileSync(scriptFile, `t=getabstime();f=factor(${n});t=getabstime()-t;\nprint(f[,1]~);write("/dev/stderr",Str("call-ms ",t));\nquit;\n`);
      const run = await runPeer(context, { file: binary, args: gpArguments(MEMORY_MB), env: {}, stdinFile: scriptFile, stdoutFile: join(context.dir, 'numbers.out'), stderrLimit: 4096 });
      if (run.code !== 0) throw new Error(`gp direct exited ${String(run.code ?? run.signal)}: ${run.stderr.slice(0, 300)}`);
      direct.push(run.ms);
      const call = /call-ms (\d+)/.exec(run.stderr);
      if (call !== null) calls.push(Number(call[1]));
      const providerStarted = performance.now();
      const theirs = await pariFactor(tools, n, { deadline: Date.now() + 120_000, memoryMb: MEMORY_MB });
      provider.push(performance.now() - providerStarted);
      agree &&= JSON.stringify(theirs.map((f) => f.prime.toString())) === JSON.stringify(expected.map(String));
    }
    const tsMs = median(ts);
    // PARI's in-gp time has a 1 ms resolution: at least 1 ms is charged, so a ratio is finite.
    const callMs = Math.max(1, calls.length === 0 ? 0 : median(calls));
    const directMs = median(direct);
    const providerMs = median(provider);
    rows.push({
      case: `${c.digits} digits (${p.toString().length}+${q.toString().length}), seeds ${c.seeds.join(',')}`,
      digits: c.digits,
      typescript_ms: round(tsMs, 1),
      pari_call_ms: round(callMs, 1),
      ts_over_pari: ratio(tsMs, callMs),
      pari_direct_ms: round(directMs, 1),
      provider_ms: round(providerMs, 1),
      provider_over_direct: ratio(providerMs, directMs),
      agree,
    });
  }
  const certificates = await runCertificateBench({ pari: tools, reps: options.reps });
  return { rows, certificates };
}

export function printNumbersTables(report: NumbersBenchReport): string {
  const at30 = report.rows.filter((r) => r.digits === 30).map((r) => r.ts_over_pari);
  const providerWorst = Math.max(...report.rows.map((r) => r.provider_over_direct));
  return [
    'factorization of semiprimes: our TypeScript engine (in process) against PARI/GP factor (timed inside gp); the PARI provider (pariFactor) against gp started by bash; medians',
    table(
      ['case', 'ours ms', 'PARI factor ms', 'ours/PARI', 'gp direct ms', 'provider ms', 'provider/direct', 'agree'],
      report.rows.map((r) => [r.case, r.typescript_ms, r.pari_call_ms, r.ts_over_pari, r.pari_direct_ms, r.provider_ms, r.provider_over_direct, r.agree]),
    ),
    `target: ours within 20x PARI at 30 digits: ${at30.join(', ')} (${at30.every((x) => x <= 20) ? 'met' : 'NOT met'})`,
    `target: PARI provider within 1.2x PARI direct: worst ${providerWorst} (${providerWorst <= 1.2 ? 'met' : 'NOT met'})`,
    '',
    printCertificateTable(report.certificates),
  ].join('\n');
}

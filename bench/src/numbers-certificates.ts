/**
 * The certificate piece of `npm run bench -- numbers` (the benchmark itself is bench/src/numbers.ts):
 * primality certificate production against checking, on small, Pratt and Atkin–Morain ECPP
 * certificates up to 300 digits.
 *
 * - production: certifyPrime as integer.primality.decide runs it in its kernel (small below ψ13;
 *   Pratt from our factorization of n − 1; ECPP from PARI/GP primecert, a gp process per run,
 *   read row by row), including the runner's own replay of the certificate before it returns;
 * - checking: the checker's checkPrimalityClaim (the claim parsed with its schema, then replayed
 *   by the checker's own code: Miller–Rabin, Pratt's Lucas conditions, ECPP in Jacobian
 *   coordinates), in this process.
 *
 * Target (issue 35): checking a 300-digit ECPP certificate within 1 s here. ECPP cases need gp
 * (the probe's tools); without it they are left out and the report says so.
 */
import { checkPrimalityClaim } from '@jacobian/checker';
import { certifyPrime, type PariTools } from '@jacobian/runner';
import { primalityCertificateSize, type PrimalityCertificate } from '@jacobian/shared';
import { median, ratio, round, table } from './stats.js';

export interface CertificateBenchOptions {
  /** gp's tools (probePari); ECPP cases are skipped without them. */
  readonly pari?: PariTools | undefined;
  /** Repetitions per case; medians reported (default 3). */
  readonly reps?: number | undefined;
  /** Seconds one production may take (default 120). */
  readonly timeoutSeconds?: number | undefined;
}

export interface CertificateBenchRow {
  case: string;
  digits: number;
  kind: PrimalityCertificate['kind'];
  certificates: number;
  ecpp_steps: number;
  produce_ms: number;
  check_ms: number;
  /** check_ms / produce_ms. */
  check_over_produce: number;
  accepted: boolean;
}

export interface CertificateBenchReport {
  rows: CertificateBenchRow[];
  skipped: string[];
  /** The 300-digit ECPP check's median, against the 1 s target; null when gp is absent. */
  ecpp300CheckMs: number | null;
}

interface CertificateCase {
  name: string;
  n: bigint;
  needsPari: boolean;
}

/** The primes: 10^k + c is the next prime after 10^k (checked by PARI's nextprime). */
const CASES: readonly CertificateCase[] = [
  { name: 'small 2^61 - 1', n: 2n ** 61n - 1n, needsPari: false },
  { name: 'pratt 2^89 - 1 (27 digits)', n: 2n ** 89n - 1n, needsPari: false },
  { name: 'pratt 2^127 - 1 (39 digits)', n: 2n ** 127n - 1n, needsPari: false },
  { name: 'pratt 10^30 + 57', n: 10n ** 30n + 57n, needsPari: false },
  { name: 'ecpp 10^99 + 289 (100 digits)', n: 10n ** 99n + 289n, needsPari: true },
  { name: 'ecpp 10^199 + 153 (200 digits)', n: 10n ** 199n + 153n, needsPari: true },
  { name: 'ecpp 10^299 + 669 (300 digits)', n: 10n ** 299n + 669n, needsPari: true },
];

/** Production against checking of primality certificates, medians over `reps`. */
export async function runCertificateBench(options: CertificateBenchOptions = {}): Promise<CertificateBenchReport> {
  const reps = options.reps ?? 3;
  const timeoutMs = (options.timeoutSeconds ?? 120) * 1000;
  const rows: CertificateBenchRow[] = [];
  const skipped: string[] = [];
  let ecpp300CheckMs: number | null = null;
  // One unmeasured round: module loading and JIT of both sides.
  checkPrimalityClaim({ n: '1000000007', verdict: 'PRIME', certificate: await certifyPrime(1_000_000_007n) });
  for (const c of CASES) {
    if (c.needsPari && options.pari === undefined) {
      skipped.push(`${c.name}: needs PARI/GP`);
      continue;
    }
    const produce: number[] = [];
    const check: number[] = [];
    let certificate: PrimalityCertificate | null = null;
    let accepted = true;
    for (let r = 0; r < reps; r++) {
      const started = performance.now();
      certificate = await certifyPrime(c.n, { pari: c.needsPari ? options.pari : undefined, deadline: Date.now() + timeoutMs });
      produce.push(performance.now() - started);
      const claim = { n: c.n.toString(), verdict: 'PRIME', certificate };
      const checkStarted = performance.now();
      const result = checkPrimalityClaim(claim);
      check.push(performance.now() - checkStarted);
      accepted &&= result.accepted;
    }
    if (certificate === null) continue;
    const size = primalityCertificateSize(certificate);
    const row: CertificateBenchRow = {
      case: c.name,
      digits: c.n.toString().length,
      kind: certificate.kind,
      certificates: size.nodes,
      ecpp_steps: size.ecppSteps,
      produce_ms: round(median(produce), 1),
      check_ms: round(median(check), 1),
      check_over_produce: ratio(median(check), median(produce)),
      accepted,
    };
    rows.push(row);
    if (c.needsPari && row.digits === 300) ecpp300CheckMs = row.check_ms;
  }
  return { rows, skipped, ecpp300CheckMs };
}

/** The report as text: one table, the skipped cases and the 300-digit target. */
export function printCertificateTable(report: CertificateBenchReport): string {
  const lines = [
    'primality certificates: production (certifyPrime, with its own replay) against checking (the checker\'s checkPrimalityClaim), medians',
    table(
      ['case', 'digits', 'kind', 'certs', 'ecpp steps', 'produce ms', 'check ms', 'check/produce', 'accepted'],
      report.rows.map((r) => [r.case, r.digits, r.kind, r.certificates, r.ecpp_steps, r.produce_ms, r.check_ms, r.check_over_produce, r.accepted]),
    ),
  ];
  for (const s of report.skipped) lines.push(`skipped: ${s}`);
  if (report.ecpp300CheckMs !== null) lines.push(`target: checking a 300-digit ECPP certificate within 1000 ms: ${report.ecpp300CheckMs} ms (${report.ecpp300CheckMs <= 1000 ? 'met' : 'NOT met'})`);
  return lines.join('\n');
}

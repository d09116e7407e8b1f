/**
 * A factorization whose every prime carries a primality certificate (certifyPrime, replayed
 * before it is returned), from PARI/GP's `factor` (its answer rechecked: primes increasing,
 * product n, each prime certified) or from our engine (factor.ts). A prime that cannot be
 * certified within the budget keeps `certificate: null`; parts our engine could not split within
 * the budget are listed as composites. Runs inside the isolated kernel.
 */
import { JacobianError, toAppError, type PrimalityCertificate } from '@jacobian/shared';
import { checkPariIdentity, gpInteger, gpProgram, runGp, type PariTools } from '../../providers/pari.js';
import { certifyPrime } from '../primality/certify.js';
import { factorEngine, type FactorStats } from './factor.js';

export interface CertifiedFactor {
  prime: bigint;
  exponent: number;
  /** null: a (Baillie–PSW) probable prime not certified within the budget. */
  certificate: PrimalityCertificate | null;
}

export interface CertifiedFactorization {
  factors: CertifiedFactor[];
  /** Parts left unsplit when the budget ended (our engine only); [] when the split is complete. */
  composites: { value: bigint; exponent: number }[];
  source: 'PARI' | 'OURS';
  stats: FactorStats | null;
  factor_ms: number;
  certify_ms: number;
}

export interface CertifiedFactorOptions {
  readonly pari: PariTools | null;
  readonly deadline: number;
  readonly signal?: AbortSignal | undefined;
  readonly memoryMb?: number | undefined;
  /** Share of the time left that our engine may spend splitting before certification (default 0.7). */
  readonly splitShare?: number | undefined;
}

function pariFailed(message: string): JacobianError {
  return new JacobianError('PROVIDER_FAILED', `PARI/GP factor: ${message}; the answer was discarded`);
}

/** PARI's factor(n): primes and exponents, rechecked here (increasing primes > 1, product n). */
export async function pariFactor(tools: PariTools, n: bigint, options: { deadline: number; signal?: AbortSignal | undefined; memoryMb?: number | undefined }): Promise<{ prime: bigint; exponent: number }[]> {
  if (n === 1n) return [];
  await checkPariIdentity(tools);
  const script = gpProgram([`N=${gpInteger(n.toString())};`, 'f=factor(N);'], [{ name: 'factor', statements: 'jv(f[,1]);jv(f[,2]);' }]);
  const answer = await runGp(tools.binary, script, ['factor'], { deadline: options.deadline, signal: options.signal, memoryMb: options.memoryMb, maxOutputBytes: 1024 * 1024 });
  const rows = answer.sections['factor'] ?? [];
  const [primes, exponents] = rows;
  if (rows.length !== 2 || primes === undefined || exponents === undefined || primes.length !== exponents.length || primes.length === 0) throw pariFailed('the answer is not two rows of equal length');
  const factors: { prime: bigint; exponent: number }[] = [];
  let product = 1n;
  let previous = 1n;
  for (const [i, text] of primes.entries()) {
    const e = Number(exponents[i]);
    if (text.includes('/') || !Number.isSafeInteger(e) || e < 1) throw pariFailed(`row ${i + 1} is not a prime power`);
    const p = BigInt(text);
    if (p <= previous) throw pariFailed('the primes are not increasing and above 1');
    previous = p;
    product *= p ** BigInt(e);
    factors.push({ prime: p, exponent: e });
  }
  if (product !== n) throw pariFailed('the product of its prime powers is not n');
  return factors;
}

/**
 * n = ∏ prime^e (· ∏ composite^e when our engine ran out of time), each prime certified where
 * the budget allows. A "prime" that certifyPrime finds composite is a PROVIDER_FAILED (PARI) or
 * an INTERNAL error (ours): never returned as prime.
 */
export async function certifiedFactorization(n: bigint, options: CertifiedFactorOptions): Promise<CertifiedFactorization> {
  if (n < 1n) throw new JacobianError('INTERNAL', 'certifiedFactorization needs n ≥ 1');
  const started = Date.now();
  let split: { prime: bigint; exponent: number }[];
  let composites: { value: bigint; exponent: number }[] = [];
  let stats: FactorStats | null = null;
  if (options.pari !== null) {
    split = await pariFactor(options.pari, n, options);
  } else {
    const share = options.splitShare ?? 0.7;
    const engine = factorEngine(n, { deadline: started + Math.max(0, options.deadline - started) * share, signal: options.signal });
    split = engine.primes;
    composites = engine.composites;
    stats = engine.stats;
  }
  const factorMs = Date.now() - started;
  const factors: CertifiedFactor[] = [];
  for (const { prime, exponent } of split) {
    let certificate: PrimalityCertificate | null = null;
    try {
      certificate = await certifyPrime(prime, { pari: options.pari ?? undefined, deadline: options.deadline, signal: options.signal, memoryMb: options.memoryMb });
    } catch (error) {
      const cause = toAppError(error);
      if (cause.code === 'INVALID_REQUEST') {
        const who = options.pari !== null ? 'PROVIDER_FAILED' : 'INTERNAL';
        throw new JacobianError(who, `${options.pari !== null ? "PARI/GP's" : "our engine's"} factor ${prime.toString().slice(0, 60)} is not prime; the factorization was discarded`);
      }
      if (cause.code !== 'EXECUTION_TIMEOUT') throw cause;
    }
    factors.push({ prime, exponent, certificate });
  }
  return { factors, composites, source: options.pari !== null ? 'PARI' : 'OURS', stats, factor_ms: factorMs, certify_ms: Date.now() - started - factorMs };
}

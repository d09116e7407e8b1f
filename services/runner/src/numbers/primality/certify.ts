/**
 * certifyPrime: a primality certificate of a prime n that our own replay accepts, or a typed
 * error — never a certificate that was not replayed.
 *
 * - n < ψ13: `small` (deterministic Miller–Rabin).
 * - Otherwise Pratt, when n − 1 factors within the budget (trial division and Brent's rho from
 *   arith's factorInteger), each prime of n − 1 certified the same way, recursively.
 * - Otherwise, when PARI/GP is present, an Atkin–Morain ECPP certificate from `primecert`.
 *   With PARI present, Pratt is tried only briefly (n − 1 of a large prime rarely factors by rho).
 */
import { DETERMINISTIC_MR_BOUND, factorInteger, isProbablePrimeBpsw, JacobianError, powMod, toAppError, type PrattFactor, type PrimalityCertificate } from '@jacobian/shared';
import type { PariTools } from '../../providers/pari.js';
import { pariEcppSteps } from './pari-ecpp.js';
import { isPrimeBelowBound, replayPrimalityCertificate } from './replay.js';

/** What certifyPrime may use, and when it must stop. */
export interface CertifyPrimeDeps {
  /** PARI/GP as the provider probe vouched for it; absent: small and Pratt only. */
  readonly pari?: PariTools | undefined;
  /** Epoch ms; the search and the replay stop with EXECUTION_TIMEOUT after it. */
  readonly deadline?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** gp's memory budget in MiB (see gpArguments). */
  readonly memoryMb?: number | undefined;
}

/** With PARI present, how long rho may try to factor n − 1 before ECPP is asked instead. */
const PRATT_TRY_WITH_PARI_MS = 300;
/** Above this many digits Pratt is not tried at all when PARI is present. */
const PRATT_MAX_DIGITS_WITH_PARI = 60;
/** Candidate witnesses tried for a Pratt certificate (primitive roots are dense: φ(n−1)/(n−1) ≫ 1/log log n). */
const MAX_WITNESS_TRIES = 2000;
/** Without PARI, when no deadline is given: the whole search's time. */
const DEFAULT_BUDGET_MS = 60_000;

function checkStop(deps: CertifyPrimeDeps, deadline: number): void {
  if (deps.signal?.aborted === true) throw new JacobianError('EXECUTION_CANCELLED', 'the computation was cancelled');
  if (Date.now() > deadline) throw noCertificate('the time budget ran out');
}

function noCertificate(why: string): JacobianError {
  return new JacobianError('EXECUTION_TIMEOUT', `no primality certificate within the budget: ${why}`, { data: { rule: 'certificate-budget' } });
}

function notPrime(n: bigint): JacobianError {
  return new JacobianError('INVALID_REQUEST', `${n.toString().slice(0, 60)} is not prime; there is no primality certificate of it`, { data: { rule: 'not-prime' } });
}

/** A witness a with a^(n−1) ≡ 1 and a^((n−1)/p) ≢ 1 for every prime p | n − 1; null when none is found. */
function prattWitness(n: bigint, primes: readonly bigint[]): bigint | null {
  for (let a = 2n; a < BigInt(MAX_WITNESS_TRIES) + 2n && a < n; a++) {
    if (powMod(a, n - 1n, n) !== 1n) throw notPrime(n);
    if (primes.every((p) => powMod(a, (n - 1n) / p, n) !== 1n)) return a;
  }
  return null;
}

async function certify(n: bigint, deps: CertifyPrimeDeps, deadline: number, depth: number): Promise<PrimalityCertificate> {
  checkStop(deps, deadline);
  if (n < DETERMINISTIC_MR_BOUND) {
    if (!isPrimeBelowBound(n)) throw notPrime(n);
    return { kind: 'small', n: n.toString() };
  }
  if (!isProbablePrimeBpsw(n)) throw notPrime(n);
  if (depth > 40) throw noCertificate('Pratt certificates nested too deep');
  const digits = n.toString().length;
  const usePratt = deps.pari === undefined || digits <= PRATT_MAX_DIGITS_WITH_PARI;
  if (usePratt) {
    const prattDeadline = deps.pari === undefined ? deadline : Math.min(deadline, Date.now() + PRATT_TRY_WITH_PARI_MS);
    let powers: { prime: bigint; exponent: number }[] | null = null;
    try {
      powers = factorInteger(n - 1n, { deadline: prattDeadline, signal: deps.signal });
    } catch (error) {
      const cause = toAppError(error);
      if (cause.code !== 'EXECUTION_TIMEOUT') throw cause;
    }
    if (powers !== null) {
      const witness = prattWitness(
        n,
        powers.map((f) => f.prime),
      );
      if (witness !== null) {
        const factors: PrattFactor[] = [];
        for (const f of powers) factors.push({ prime: f.prime.toString(), exponent: f.exponent, certificate: await certify(f.prime, deps, deadline, depth + 1) });
        return { kind: 'pratt', n: n.toString(), witness: witness.toString(), factors };
      }
    }
  }
  if (deps.pari === undefined) throw noCertificate(`n − 1 of this ${digits}-digit number did not factor, and ECPP needs PARI/GP, which is absent`);
  checkStop(deps, deadline);
  const answer = await pariEcppSteps(deps.pari, n, { deadline, signal: deps.signal, memoryMb: deps.memoryMb });
  if (answer === 'composite') throw new JacobianError('PROVIDER_FAILED', `PARI/GP's primecert found ${n.toString().slice(0, 60)} composite although it passed Baillie–PSW; nothing was concluded`);
  return { kind: 'ecpp', n: n.toString(), steps: answer.steps };
}

/**
 * A primality certificate of the prime n, replayed by our own check before it is returned.
 *
 * @throws JacobianError INVALID_REQUEST (rule not-prime) when n is not prime; EXECUTION_TIMEOUT
 *   (rule certificate-budget) when nothing certifies n within the budget; EXECUTION_CANCELLED;
 *   PROVIDER_FAILED when PARI's answer is malformed or does not replay.
 */
export async function certifyPrime(n: bigint, deps: CertifyPrimeDeps = {}): Promise<PrimalityCertificate> {
  if (n < 2n) throw notPrime(n);
  const deadline = deps.deadline ?? Date.now() + DEFAULT_BUDGET_MS;
  const certificate = await certify(n, deps, deadline, 0);
  const failure = replayPrimalityCertificate(certificate, { deadline, signal: deps.signal });
  if (failure !== null) {
    const source = certificate.kind === 'ecpp' || JSON.stringify(certificate).includes('"ecpp"') ? 'PROVIDER_FAILED' : 'INTERNAL';
    throw new JacobianError(source, `the ${certificate.kind} certificate produced for n did not replay (${failure.reason} at ${failure.path.join('.') || 'the root'}); it was discarded`);
  }
  return certificate;
}

/**
 * Pell's equation x² − D y² = ±1 for D > 0 not a square, by the continued fraction of √D
 * (Lagrange): with period length ℓ of √D = [a₀; (a₁, …, a_ℓ)] (a_ℓ = 2a₀) and convergents
 * pₖ/qₖ, the fundamental solution of x² − D y² = 1 is (p_{ℓ−1}, q_{ℓ−1}) when ℓ is even and
 * (p_{2ℓ−1}, q_{2ℓ−1}) when ℓ is odd; x² − D y² = −1 is solvable exactly when ℓ is odd, with
 * fundamental solution (p_{ℓ−1}, q_{ℓ−1}). The fundamental unit of Z[√D] is x + y√D.
 */
import { isqrt, isSquare, JacobianError } from '@jacobian/shared';
import type { Checkpoint } from './continued-fraction.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

/** The period of √D (terms a₁ … a_ℓ; a_ℓ = 2a₀) and a₀. */
export function sqrtPeriod(D: bigint, maxPeriod: number, checkpoint: Checkpoint = NO_CHECKPOINT): { a0: bigint; period: bigint[] } {
  const a0 = isqrt(D);
  const period: bigint[] = [];
  let [P, Q, a] = [0n, 1n, a0];
  while (a !== 2n * a0) {
    if (period.length >= maxPeriod) {
      throw new JacobianError('OUTPUT_LIMIT_EXCEEDED', `the period of the continued fraction of √D is longer than ${maxPeriod} terms (rule max-period); nothing was concluded`, { data: { rule: 'max-period', max_period: maxPeriod } });
    }
    checkpoint();
    P = a * Q - P;
    Q = (D - P * P) / Q;
    a = (a0 + P) / Q;
    period.push(a);
  }
  return { a0, period };
}

export interface PellSolution {
  D: bigint;
  a0: bigint;
  period: bigint[];
  /** The fundamental solution of x² − D y² = 1. */
  plus: { x: bigint; y: bigint };
  /** The fundamental solution of x² − D y² = −1, or null when the period length is even (no solution). */
  minus: { x: bigint; y: bigint } | null;
}

/**
 * The fundamental solutions of x² − D y² = 1 and −1, rechecked exactly (x² − D y² = ±1).
 *
 * @throws JacobianError INVALID_REQUEST when D ≤ 0 or D is a square (only trivial solutions).
 */
export function solvePell(D: bigint, maxPeriod: number, checkpoint: Checkpoint = NO_CHECKPOINT): PellSolution {
  if (D <= 0n || isSquare(D)) throw new JacobianError('INVALID_REQUEST', 'D must be a positive non-square (rule pell-non-square)', { data: { rule: 'pell-non-square' } });
  const { a0, period } = sqrtPeriod(D, maxPeriod, checkpoint);
  // Convergents of [a₀; a₁, …, a_{ℓ−1}].
  let [p0, p1] = [a0, 1n];
  let [q0, q1] = [1n, 0n];
  for (let k = 0; k < period.length - 1; k++) {
    checkpoint();
    const a = period[k] as bigint;
    [p0, p1] = [a * p0 + p1, p0];
    [q0, q1] = [a * q0 + q1, q0];
  }
  const odd = period.length % 2 === 1;
  const minus = odd ? { x: p0, y: q0 } : null;
  // (x + y√D)² for the −1 solution is the fundamental +1 solution.
  const plus = odd ? { x: p0 * p0 + D * q0 * q0, y: 2n * p0 * q0 } : { x: p0, y: q0 };
  if (plus.x * plus.x - D * plus.y * plus.y !== 1n) throw new JacobianError('INTERNAL', 'the recheck x² − D y² = 1 failed; nothing was concluded');
  if (minus !== null && minus.x * minus.x - D * minus.y * minus.y !== -1n) throw new JacobianError('INTERNAL', 'the recheck x² − D y² = −1 failed; nothing was concluded');
  return { D, a0, period, plus, minus };
}

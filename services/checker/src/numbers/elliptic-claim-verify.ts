/**
 * The checks behind elliptic_curve.claim.verify, with the checker's own exact arithmetic (the
 * fractions of ../lp/exact.ts) and no code of the producers (PARI/GP, nor the runner's recheck in
 * shared/src/domains/numbers/elliptic.ts, whose algorithms differ from these): shared/ only parses
 * the claim's canonical numbers.
 *
 * - The curve: Δ = (c₄³ − c₆²)/1728 ≠ 0.
 * - A point: F(x, y) = 0 for F = y² + a₁xy + a₃y − x³ − a₂x² − a₄x − a₆. Its order n: P, 2P, …
 *   by repeated addition, kP ≠ O for k < n and nP = O; "infinite": kP ≠ O for k ≤ 12, which by
 *   Mazur's theorem means infinite order.
 * - A torsion subgroup: each generator on the curve with its stated order, the structure one of
 *   Mazur's, and the iP + jQ pairwise distinct (so the subgroup has n₁n₂ elements); with bound
 *   primes, each an odd prime of good reduction and gcd #Ẽ(F_p) = n₁n₂, counted per x by Euler's
 *   criterion on the discriminant of the quadratic in y (so the subgroup is all of E(Q)_tors:
 *   torsion injects into Ẽ(F_p) at odd primes of good reduction).
 * - A change of variables: u ≠ 0 and F(u²x′ + r, u³y′ + su²x′ + t) = u⁶·F′(x′, y′) as
 *   polynomials in x′, y′, expanded term by term.
 */
import { EllipticCurveClaimSchema, type EllipticCurveClaim } from '@jacobian/shared';
import { add, brief, equal, fraction, mul, neg, sub, ZERO, type Q } from '../lp/exact.js';

export const EllipticRejectionReason = {
  SINGULAR: 'SINGULAR',
  NOT_ON_CURVE: 'NOT_ON_CURVE',
  WRONG_ORDER: 'WRONG_ORDER',
  FINITE_ORDER: 'FINITE_ORDER',
  TORSION_SHAPE: 'TORSION_SHAPE',
  SUBGROUP_ORDER: 'SUBGROUP_ORDER',
  BOUND_PRIME_INVALID: 'BOUND_PRIME_INVALID',
  BOUND_NOT_MET: 'BOUND_NOT_MET',
  MODEL_CHANGE_INVALID: 'MODEL_CHANGE_INVALID',
  MODEL_MISMATCH: 'MODEL_MISMATCH',
} as const;
export type EllipticRejectionReason = (typeof EllipticRejectionReason)[keyof typeof EllipticRejectionReason];

export type EllipticCheckResult = { accepted: true; message: string } | { accepted: false; reason_code: EllipticRejectionReason; message: string; path: (string | number)[]; witness: string | null };

const ONE: Q = { num: 1n, den: 1n };
const int = (n: bigint | number): Q => ({ num: BigInt(n), den: 1n });
function div(a: Q, b: Q): Q {
  if (b.num === 0n) throw new Error('division by zero');
  return fraction(a.num * b.den, a.den * b.num);
}
function read(text: string): Q {
  const [n, d] = text.split('/');
  return fraction(BigInt(n as string), d === undefined ? 1n : BigInt(d));
}
const pow = (a: Q, e: number): Q => Array.from({ length: e }).reduce<Q>((s) => mul(s, a), ONE);

type Curve = readonly [Q, Q, Q, Q, Q];
type Point = { x: Q; y: Q } | null;

/** F(x, y) = y² + a₁xy + a₃y − x³ − a₂x² − a₄x − a₆. */
function equation(a: Curve, x: Q, y: Q): Q {
  const [a1, a2, a3, a4, a6] = a;
  return sub(add(add(mul(y, y), mul(a1, mul(x, y))), mul(a3, y)), add(add(add(pow(x, 3), mul(a2, mul(x, x))), mul(a4, x)), a6));
}

function discriminant(a: Curve): Q {
  const [a1, a2, a3, a4, a6] = a;
  const b2 = add(mul(a1, a1), mul(int(4), a2));
  const b4 = add(mul(int(2), a4), mul(a1, a3));
  const b6 = add(mul(a3, a3), mul(int(4), a6));
  const c4 = sub(mul(b2, b2), mul(int(24), b4));
  const c6 = add(neg(pow(b2, 3)), sub(mul(int(36), mul(b2, b4)), mul(int(216), b6)));
  return div(sub(pow(c4, 3), mul(c6, c6)), int(1728));
}

/** P + Q: the third intersection of the line through P, Q (tangent when equal) with E, reflected. */
function plus(a: Curve, P: Point, Q_: Point): Point {
  if (P === null) return Q_;
  if (Q_ === null) return P;
  const [a1, a2, a3, a4] = a;
  const minusQy = sub(sub(neg(Q_.y), mul(a1, Q_.x)), a3);
  if (equal(P.x, Q_.x) && equal(P.y, minusQy)) return null;
  let slope: Q;
  if (!equal(P.x, Q_.x)) slope = div(sub(Q_.y, P.y), sub(Q_.x, P.x));
  else {
    // dF/dx / −dF/dy at P.
    const num = sub(add(add(mul(int(3), mul(P.x, P.x)), mul(int(2), mul(a2, P.x))), a4), mul(a1, P.y));
    slope = div(num, add(add(mul(int(2), P.y), mul(a1, P.x)), a3));
  }
  const x3 = sub(sub(sub(add(mul(slope, slope), mul(a1, slope)), a2), P.x), Q_.x);
  // The line y = P.y + slope·(x − P.x) at x3, then the other point with that x.
  const yOnLine = add(P.y, mul(slope, sub(x3, P.x)));
  return { x: x3, y: sub(sub(neg(yOnLine), mul(a1, x3)), a3) };
}

const key = (P: Point): string => (P === null ? 'O' : `${brief(P.x, 10_000)},${brief(P.y, 10_000)}`);

/** The smallest k ≤ limit with kP = O, by repeated addition; null if none. */
function orderUpTo(a: Curve, P: Point, limit: number, poll: () => void): number | null {
  let multiple = P;
  for (let k = 1; k <= limit; k++) {
    poll();
    if (multiple === null) return k;
    multiple = plus(a, multiple, P);
  }
  return null;
}

function isPrime(p: number): boolean {
  if (p < 2) return false;
  for (let d = 2; d * d <= p; d++) if (p % d === 0) return false;
  return true;
}

function powModP(b: bigint, e: bigint, p: bigint): bigint {
  let r = 1n;
  b = ((b % p) + p) % p;
  while (e > 0n) {
    if (e & 1n) r = (r * b) % p;
    b = (b * b) % p;
    e >>= 1n;
  }
  return r;
}

/** #Ẽ(F_p): 1 + Σ_x #{y : y² + (a₁x + a₃)y − f(x) = 0}, each by Euler's criterion on D = (a₁x + a₃)² + 4f(x). */
function countModP(a: Curve, p: bigint): bigint {
  const reduce = (q: Q): bigint => (((q.num % p) + p) % p) * powModP(q.den, p - 2n, p) % p;
  const [a1, a2, a3, a4, a6] = a.map(reduce) as [bigint, bigint, bigint, bigint, bigint];
  let count = 1n;
  for (let x = 0n; x < p; x++) {
    const linear = (a1 * x + a3) % p;
    const f = (((x * x % p) * x) + a2 * x * x + a4 * x + a6) % p;
    const D = (linear * linear + 4n * f) % p;
    count += D === 0n ? 1n : powModP(D, (p - 1n) / 2n, p) === 1n ? 2n : 0n;
  }
  return count;
}

/** Bivariate polynomials in x′, y′ as "i,j" → coefficient. */
type Poly = Map<string, Q>;
const poly = (terms: [number, number, Q][]): Poly => {
  const out: Poly = new Map();
  for (const [i, j, c] of terms) addTerm(out, i, j, c);
  return out;
};
function addTerm(p: Poly, i: number, j: number, c: Q): void {
  const k = `${i},${j}`;
  const v = add(p.get(k) ?? ZERO, c);
  if (v.num === 0n) p.delete(k);
  else p.set(k, v);
}
function polyAdd(...ps: Poly[]): Poly {
  const out: Poly = new Map();
  for (const p of ps) for (const [k, c] of p) addTerm(out, Number(k.split(',')[0]), Number(k.split(',')[1]), c);
  return out;
}
function polyMul(p: Poly, q: Poly): Poly {
  const out: Poly = new Map();
  for (const [k1, c1] of p) {
    const [i1, j1] = k1.split(',').map(Number) as [number, number];
    for (const [k2, c2] of q) {
      const [i2, j2] = k2.split(',').map(Number) as [number, number];
      addTerm(out, i1 + i2, j1 + j2, mul(c1, c2));
    }
  }
  return out;
}
const polyScale = (p: Poly, c: Q): Poly => new Map([...p].map(([k, v]) => [k, mul(v, c)] as [string, Q]).filter(([, v]) => v.num !== 0n));
const polyEqual = (p: Poly, q: Poly): boolean => p.size === q.size && [...p].every(([k, v]) => q.has(k) && equal(v, q.get(k) as Q));

/** F(X, Y) for polynomials X, Y. */
function substitute(a: Curve, X: Poly, Y: Poly): Poly {
  const [a1, a2, a3, a4, a6] = a;
  const X2 = polyMul(X, X);
  return polyAdd(polyMul(Y, Y), polyScale(polyMul(X, Y), a1), polyScale(Y, a3), polyScale(polyMul(X2, X), int(-1)), polyScale(X2, neg(a2)), polyScale(X, neg(a4)), poly([[0, 0, neg(a6)]]));
}

/** Decide the claim; `poll` is called often and may throw to stop (the budget). */
export function checkEllipticCurveClaim(raw: unknown, poll: () => void = () => undefined): EllipticCheckResult {
  const claim: EllipticCurveClaim = EllipticCurveClaimSchema.parse(raw);
  const reject = (reason_code: EllipticRejectionReason, message: string, path: (string | number)[], witness: string | null = null): EllipticCheckResult => ({ accepted: false, reason_code, message, path, witness });
  const a = claim.curve.map(read) as unknown as Curve;
  const delta = discriminant(a);
  if (delta.num === 0n) return reject('SINGULAR', 'the Weierstrass equation has discriminant 0: it is not an elliptic curve', ['curve']);
  const checked: string[] = [];
  const pointAt = (texts: readonly string[]): { x: Q; y: Q } => ({ x: read(texts[0] as string), y: read(texts[1] as string) });

  for (const [i, entry] of claim.points.entries()) {
    const P = pointAt(entry.point);
    const residue = equation(a, P.x, P.y);
    if (residue.num !== 0n) return reject('NOT_ON_CURVE', `point ${i} (${entry.point.join(', ')}) is not on the curve: F(x, y) = ${brief(residue)}`, ['points', i, 'point']);
    const order = orderUpTo(a, P, 12, poll);
    if (entry.order === 'infinite') {
      if (order !== null) return reject('FINITE_ORDER', `point ${i} has finite order ${order}, not infinite`, ['points', i, 'order'], String(order));
    } else if (order !== entry.order) {
      return reject('WRONG_ORDER', `point ${i} has order ${order ?? 'greater than 12 (infinite)'}, not ${entry.order}`, ['points', i, 'order'], order === null ? 'infinite' : String(order));
    }
  }
  if (claim.points.length > 0) checked.push(`${claim.points.length} point(s) on the curve with their orders`);

  if (claim.torsion !== undefined) {
    const { structure, generators, bound_primes } = claim.torsion;
    const [n2, n1] = [structure[0] ?? 1, structure[1] ?? 1];
    const mazur = structure.length === 0 || (structure.length === 1 && [2, 3, 4, 5, 6, 7, 8, 9, 10, 12].includes(n2)) || (structure.length === 2 && n1 === 2 && [2, 4, 6, 8].includes(n2));
    if (!mazur || generators.length !== structure.length) return reject('TORSION_SHAPE', `the structure [${structure.join(', ')}] with ${generators.length} generator(s) is not a torsion group over Q (Mazur) with one generator per invariant`, ['torsion', 'structure']);
    const gens = generators.map(pointAt);
    for (const [i, G] of gens.entries()) {
      if (equation(a, G.x, G.y).num !== 0n) return reject('NOT_ON_CURVE', `torsion generator ${i} is not on the curve`, ['torsion', 'generators', i]);
      const order = orderUpTo(a, G, 12, poll);
      if (order !== structure[i]) return reject('WRONG_ORDER', `torsion generator ${i} has order ${order ?? 'infinite'}, not ${structure[i]}`, ['torsion', 'generators', i], order === null ? 'infinite' : String(order));
    }
    // iP + jQ for 0 ≤ i < n₂, 0 ≤ j < n₁ pairwise distinct: the subgroup has n₁n₂ elements.
    const seen = new Set<string>();
    let row: Point = null;
    for (let j = 0; j < n1; j++) {
      let element = row;
      for (let i = 0; i < n2; i++) {
        poll();
        seen.add(key(element));
        element = plus(a, element, gens[0] ?? null);
      }
      row = plus(a, row, gens[1] ?? null);
    }
    if (seen.size !== n1 * n2) return reject('SUBGROUP_ORDER', `the generators give ${seen.size} distinct elements iP + jQ, not ${n1 * n2}`, ['torsion', 'generators']);
    checked.push(`a torsion subgroup ${structure.length === 0 ? 'trivial' : structure.map((n) => `Z/${n}`).join(' × ')} generated by the given points`);
    if (bound_primes !== undefined) {
      let g = 0n;
      for (const [k, p] of bound_primes.entries()) {
        const P = BigInt(p);
        if (p === 2 || !isPrime(p) || a.some((c) => c.den % P === 0n) || (delta.num % P === 0n)) return reject('BOUND_PRIME_INVALID', `${p} is not an odd prime of good reduction of this model`, ['torsion', 'bound_primes', k]);
        poll();
        const count = countModP(a, P);
        g = g === 0n ? count : gcdBig(g, count);
      }
      if (g !== BigInt(n1 * n2)) return reject('BOUND_NOT_MET', `gcd of #Ẽ(F_p) over the bound primes is ${g === 0n ? 'undefined (no primes)' : g}, not ${n1 * n2}: the subgroup is not shown to be all the torsion`, ['torsion', 'bound_primes'], g.toString());
      checked.push(`its completeness: gcd #Ẽ(F_p) over ${bound_primes.length} odd primes of good reduction is ${g}`);
    }
  }

  if (claim.model_change !== undefined) {
    const { change, model } = claim.model_change;
    const [u, r, s, t] = [read(change.u), read(change.r), read(change.s), read(change.t)];
    if (u.num === 0n) return reject('MODEL_CHANGE_INVALID', 'u = 0 is not a change of variables', ['model_change', 'change', 'u']);
    const b = model.map(read) as unknown as Curve;
    const u2 = mul(u, u);
    const X = poly([[1, 0, u2], [0, 0, r]]);
    const Y = poly([[0, 1, mul(u2, u)], [1, 0, mul(s, u2)], [0, 0, t]]);
    const left = substitute(a, X, Y);
    const right = polyScale(substitute(b, poly([[1, 0, ONE]]), poly([[0, 1, ONE]])), pow(u, 6));
    if (!polyEqual(left, right)) return reject('MODEL_MISMATCH', 'substituting x = u²x′ + r, y = u³y′ + su²x′ + t into the curve does not give u⁶ times the claimed model', ['model_change', 'model']);
    checked.push('the change of variables to the given model');
  }
  return { accepted: true, message: `the curve is non-singular (Δ = ${brief(delta)})${checked.length === 0 ? '' : `; checked: ${checked.join('; ')}`}` };
}

function gcdBig(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

/**
 * Binary quadratic forms f = (a, b, c) = a x² + b xy + c y², discriminant D = b² − 4ac, on big
 * integers. A transform M = [[p, q], [r, s]] ∈ SL₂(Z) acts by (f·M)(x, y) = f(p x + q y, r x + s y)
 * (proper equivalence). Definite forms (D < 0) reduce to the unique form with |b| ≤ a ≤ c and
 * b ≥ 0 when |b| = a or a = c (a < 0: the negative definite form −f is reduced); indefinite forms
 * (D > 0 not a square) reduce to Gauss-reduced forms (0 < b < √D, √D − b < 2|a| < √D + b), which
 * lie on cycles under the reduction operator ρ; two reduced indefinite forms are properly
 * equivalent exactly when they lie on the same ρ-cycle.
 *
 * The class group of primitive positive definite forms of discriminant D < 0 is built from the
 * list of reduced forms (the class number h is their count) and Gauss/Dirichlet composition
 * (Shanks's formulation, then reduction); its invariants come from the Smith normal form of the
 * relations among greedily chosen generators, and are rechecked by generating all h classes from
 * the returned generators.
 */
import { bigGcd, extendedGcd, isqrt, isSquare, JacobianError } from '@jacobian/shared';
import { hermiteNormalForm, smithNormalForm } from '../../matrix/normal-form-engine.js';
import { floorDiv, type Checkpoint } from './continued-fraction.js';

const NO_CHECKPOINT: Checkpoint = () => undefined;

export type Form = readonly [bigint, bigint, bigint];
/** [[p, q], [r, s]], det 1. */
export type Transform = readonly [readonly [bigint, bigint], readonly [bigint, bigint]];

export const IDENTITY: Transform = [
  [1n, 0n],
  [0n, 1n],
];

export const discriminant = (f: Form): bigint => f[1] * f[1] - 4n * f[0] * f[2];

export function multiply(M: Transform, N: Transform): Transform {
  const [[a, b], [c, d]] = M;
  const [[e, f], [g, h]] = N;
  return [
    [a * e + b * g, a * f + b * h],
    [c * e + d * g, c * f + d * h],
  ];
}

export function inverse(M: Transform): Transform {
  const [[p, q], [r, s]] = M;
  return [
    [s, -q],
    [-r, p],
  ];
}

/** f·M: f(p x + q y, r x + s y). */
export function act(f: Form, M: Transform): Form {
  const [a, b, c] = f;
  const [[p, q], [r, s]] = M;
  return [a * p * p + b * p * r + c * r * r, 2n * a * p * q + b * (p * s + q * r) + 2n * c * r * s, a * q * q + b * q * s + c * s * s];
}

const same = (f: Form, g: Form): boolean => f[0] === g[0] && f[1] === g[1] && f[2] === g[2];
const abs = (x: bigint): bigint => (x < 0n ? -x : x);
export const formText = (f: Form): [string, string, string] => [f[0].toString(), f[1].toString(), f[2].toString()];

/** The kind of a form by its discriminant; square discriminants (degenerate forms) are refused. */
export function formKind(f: Form): 'definite' | 'indefinite' {
  const D = discriminant(f);
  if (D < 0n) return 'definite';
  if (D === 0n || isSquare(D)) {
    throw new JacobianError('INVALID_REQUEST', `the discriminant ${D} is ${D === 0n ? 'zero' : 'a perfect square'}: the form factors over Q; reduction is defined here for D < 0 and for positive non-square D (rule non-square-discriminant)`, {
      data: { rule: 'non-square-discriminant' },
    });
  }
  return 'indefinite';
}

export function isReducedDefinite(f: Form): boolean {
  const [a, b, c] = f;
  if (a <= 0n) return false;
  return abs(b) <= a && a <= c && (b >= 0n || (abs(b) !== a && a !== c));
}

/** A reduced indefinite form in Gauss's sense: 0 < b < √D and √D − b < 2|a| < √D + b. */
export function isReducedIndefinite(f: Form): boolean {
  const [a, b] = f;
  const D = discriminant(f);
  const s = isqrt(D);
  // b < √D ⇔ b ≤ s (D not a square); √D − b < 2|a| ⇔ D < (2|a| + b)² when 2|a| + b > 0; 2|a| < √D + b ⇔ (2|a| − b)² < D or 2|a| ≤ b.
  const A = 2n * abs(a);
  return b > 0n && b <= s && a !== 0n && (A + b) * (A + b) > D && (A <= b || (A - b) * (A - b) < D);
}

/** Reduce a definite form (a > 0 or a < 0): the reduced form and M with f·M = it. */
function reduceDefinite(f: Form, checkpoint: Checkpoint): { form: Form; transform: Transform } {
  const negative = f[0] < 0n;
  let g: Form = negative ? [-f[0], -f[1], -f[2]] : f;
  let M = IDENTITY;
  const S: Transform = [
    [0n, -1n],
    [1n, 0n],
  ];
  for (;;) {
    checkpoint();
    const [a, b] = g;
    // Translate b into (−a, a]: x → x + t y.
    const t = floorDiv(a - b, 2n * a);
    if (t !== 0n) {
      const T: Transform = [
        [1n, t],
        [0n, 1n],
      ];
      g = act(g, T);
      M = multiply(M, T);
    }
    if (g[0] > g[2] || (g[0] === g[2] && g[1] < 0n)) {
      g = act(g, S);
      M = multiply(M, S);
      continue;
    }
    break;
  }
  return { form: negative ? [-g[0], -g[1], -g[2]] : g, transform: M };
}

/** ρ(a, b, c) = (c, r, (r² − D)/4c) by M = [[0, −1], [1, t]], r = −b + 2ct chosen as reduction asks. */
function rho(f: Form, D: bigint, s: bigint): { form: Form; step: Transform } {
  const [, b, c] = f;
  const C = abs(c);
  const twoC = 2n * C;
  // r ≡ −b (mod 2c): in (−|c|, |c|] when |c| > √D, else in (√D − 2|c|, √D) i.e. the largest r ≤ s with r ≡ −b.
  let r: bigint;
  if (C > s) {
    r = -b + twoC * floorDiv(C + b, twoC);
    if (r <= -C) r += twoC;
  } else {
    r = s - (((s + b) % twoC) + twoC) % twoC;
  }
  const t = (r + b) / (2n * c);
  return {
    form: [c, r, (r * r - D) / (4n * c)],
    step: [
      [0n, -1n],
      [1n, t],
    ],
  };
}

function reduceIndefinite(f: Form, checkpoint: Checkpoint): { form: Form; transform: Transform } {
  const D = discriminant(f);
  const s = isqrt(D);
  let g = f;
  let M = IDENTITY;
  while (!isReducedIndefinite(g)) {
    checkpoint();
    const { form, step } = rho(g, D, s);
    g = form;
    M = multiply(M, step);
  }
  return { form: g, transform: M };
}

/** The reduced form of f and M ∈ SL₂(Z) with f·M = it, rechecked (f·M computed again, det M = 1). */
export function reduceForm(f: Form, checkpoint: Checkpoint = NO_CHECKPOINT): { form: Form; transform: Transform; kind: 'definite' | 'indefinite' } {
  const kind = formKind(f);
  const result = kind === 'definite' ? reduceDefinite(f, checkpoint) : reduceIndefinite(f, checkpoint);
  const [[p, q], [r, s]] = result.transform;
  if (p * s - q * r !== 1n || !same(act(f, result.transform), result.form)) throw new JacobianError('INTERNAL', 'the reduction transform failed its recheck; nothing was concluded');
  return { ...result, kind };
}

/**
 * The ρ-cycle of a reduced indefinite form: the forms met until it returns, each with the
 * transform from the first. Bounded by `maxCycle`.
 */
export function indefiniteCycle(g: Form, maxCycle: number, checkpoint: Checkpoint = NO_CHECKPOINT): { form: Form; transform: Transform }[] {
  const D = discriminant(g);
  const s = isqrt(D);
  const cycle: { form: Form; transform: Transform }[] = [{ form: g, transform: IDENTITY }];
  let current = g;
  let M = IDENTITY;
  for (;;) {
    checkpoint();
    const { form, step } = rho(current, D, s);
    if (same(form, g)) return cycle;
    if (cycle.length >= maxCycle) {
      throw new JacobianError('OUTPUT_LIMIT_EXCEEDED', `the cycle of reduced forms is longer than ${maxCycle} (rule max-cycle); nothing was concluded`, { data: { rule: 'max-cycle', max_cycle: maxCycle } });
    }
    M = multiply(M, step);
    current = form;
    cycle.push({ form, transform: M });
  }
}

export type EquivalenceAnswer =
  | { equivalent: true; transform: Transform; reduced: Form }
  | { equivalent: false; reason: 'DISCRIMINANTS_DIFFER' | 'DISTINCT_REDUCED_FORMS' | 'NOT_ON_CYCLE'; reduced_f: Form | null; reduced_g: Form | null; cycle_length: number | null };

/**
 * Whether g = f·T for some T ∈ SL₂(Z) (proper equivalence), with T when so; rechecked (f·T = g,
 * det T = 1). Definite forms by the uniqueness of reduced forms; indefinite ones by the ρ-cycle of
 * f's reduced form, which must contain g's.
 */
export function decideEquivalence(f: Form, g: Form, maxCycle: number, checkpoint: Checkpoint = NO_CHECKPOINT): EquivalenceAnswer {
  if (discriminant(f) !== discriminant(g)) return { equivalent: false, reason: 'DISCRIMINANTS_DIFFER', reduced_f: null, reduced_g: null, cycle_length: null };
  const rf = reduceForm(f, checkpoint);
  const rg = reduceForm(g, checkpoint);
  let T: Transform | null = null;
  let cycleLength: number | null = null;
  if (rf.kind === 'definite') {
    if (same(rf.form, rg.form)) T = multiply(rf.transform, inverse(rg.transform));
  } else {
    const cycle = indefiniteCycle(rf.form, maxCycle, checkpoint);
    cycleLength = cycle.length;
    const hit = cycle.find((entry) => same(entry.form, rg.form));
    if (hit !== undefined) T = multiply(multiply(rf.transform, hit.transform), inverse(rg.transform));
  }
  if (T === null) return { equivalent: false, reason: rf.kind === 'definite' ? 'DISTINCT_REDUCED_FORMS' : 'NOT_ON_CYCLE', reduced_f: rf.form, reduced_g: rg.form, cycle_length: cycleLength };
  const [[p, q], [r, s]] = T;
  if (p * s - q * r !== 1n || !same(act(f, T), g)) throw new JacobianError('INTERNAL', 'the equivalence transform failed its recheck; nothing was concluded');
  return { equivalent: true, transform: T, reduced: rf.form };
}

// ---- imaginary quadratic class groups ---------------------------------------------------------

/** The primitive reduced positive definite forms of discriminant D < 0 (D ≡ 0, 1 mod 4), in order of a, then b. */
export function reducedForms(D: bigint, checkpoint: Checkpoint = NO_CHECKPOINT): Form[] {
  // a ≤ √(|D|/3), b ≡ D (mod 2), c = (b² − D)/4a ≥ a.
  const N = -D;
  if (N <= 2n ** 50n) return reducedFormsSmall(Number(N), checkpoint);
  const forms: Form[] = [];
  const aMax = isqrt(N / 3n);
  const parity = N % 2n;
  for (let a = 1n; a <= aMax; a++) {
    checkpoint();
    for (let b = -a + 1n; b <= a; b++) {
      if ((b < 0n ? -b : b) % 2n !== parity) continue;
      const num = b * b + N;
      if (num % (4n * a) !== 0n) continue;
      const c = num / (4n * a);
      if (c < a || (b < 0n && (a === c || -b === a))) continue;
      if (bigGcd(bigGcd(a, abs(b)), c) !== 1n) continue;
      forms.push([a, b, c]);
    }
  }
  return forms;
}

const gcdNumber = (x: number, y: number): number => {
  while (y !== 0) [x, y] = [y, x % y];
  return x;
};

/** {@link reducedForms} in double arithmetic, exact while b² + |D| stays below 2⁵³ (|D| ≤ 2⁵⁰). */
function reducedFormsSmall(N: number, checkpoint: Checkpoint): Form[] {
  const forms: Form[] = [];
  const aMax = Math.floor(Math.sqrt(N / 3)) + 1;
  const parity = N % 2;
  for (let a = 1; a <= aMax; a++) {
    if (3 * a * a > N) break;
    checkpoint();
    const fourA = 4 * a;
    // b from −a + 1 to a with b ≡ N (mod 2).
    let b = -a + 1;
    if (Math.abs(b) % 2 !== parity) b++;
    for (; b <= a; b += 2) {
      const num = b * b + N;
      if (num % fourA !== 0) continue;
      const c = num / fourA;
      if (c < a || (b < 0 && (a === c || -b === a))) continue;
      if (gcdNumber(gcdNumber(a, Math.abs(b)), c) !== 1) continue;
      forms.push([BigInt(a), BigInt(b), BigInt(c)]);
    }
  }
  return forms;
}

/** The identity form of discriminant D: (1, D mod 2, (D mod 2 − D)/4). */
export function principalForm(D: bigint): Form {
  const b = ((D % 2n) + 2n) % 2n;
  return [1n, b, (b - D) / 4n];
}

/** Compose two primitive positive definite forms of the same discriminant and reduce (Shanks). */
export function compose(f1: Form, f2: Form, checkpoint: Checkpoint = NO_CHECKPOINT): Form {
  let [a1, b1, c1] = f1;
  let [a2, b2, c2] = f2;
  if (a1 > a2) [a1, b1, c1, a2, b2, c2] = [a2, b2, c2, a1, b1, c1];
  const D = b1 * b1 - 4n * a1 * c1;
  const s = (b1 + b2) / 2n;
  const n = b2 - s;
  let y1: bigint;
  let d: bigint;
  if (a2 % a1 === 0n) {
    y1 = 0n;
    d = a1;
  } else {
    const e = extendedGcd(a2, a1);
    d = e.g;
    y1 = e.x;
  }
  let x2: bigint;
  let y2: bigint;
  let d1: bigint;
  if (s % d === 0n) {
    y2 = -1n;
    x2 = 0n;
    d1 = d;
  } else {
    const e = extendedGcd(s, d);
    x2 = e.x;
    y2 = -e.y;
    d1 = e.g;
  }
  const v1 = a1 / d1;
  const v2 = a2 / d1;
  const r = (((y1 * y2 * n - x2 * c2) % v1) + v1) % v1;
  const b3 = b2 + 2n * v2 * r;
  const a3 = v1 * v2;
  const c3 = (b3 * b3 - D) / (4n * a3);
  return reduceDefinite([a3, b3, c3], checkpoint).form;
}

export function power(f: Form, e: bigint, checkpoint: Checkpoint = NO_CHECKPOINT): Form {
  const D = discriminant(f);
  let result = principalForm(D);
  let base = reduceDefinite(f, checkpoint).form;
  let k = e < 0n ? -e : e;
  if (e < 0n) base = reduceDefinite([base[0], -base[1], base[2]], checkpoint).form;
  while (k > 0n) {
    if (k & 1n) result = compose(result, base, checkpoint);
    base = compose(base, base, checkpoint);
    k >>= 1n;
  }
  return result;
}

const key = (f: Form): string => `${f[0]},${f[1]}`;

export interface ClassGroup {
  D: bigint;
  classNumber: number;
  forms: Form[];
  /** d₁ | d₂ | … , each > 1 (empty for the trivial group). */
  invariants: bigint[];
  /** A form of exact order dᵢ for each invariant; together they generate the group as ⊕ Z/dᵢ. */
  generators: Form[];
}

/**
 * The class group of discriminant D < 0 from its reduced forms: h, the invariants and generators,
 * rechecked by listing all products ∏ gᵢ^{eᵢ}, 0 ≤ eᵢ < dᵢ, which must be h distinct reduced forms.
 */
export function classGroup(D: bigint, checkpoint: Checkpoint = NO_CHECKPOINT): ClassGroup {
  if (D >= 0n || ((D % 4n) + 4n) % 4n > 1n) throw new JacobianError('INVALID_REQUEST', 'an imaginary quadratic discriminant is negative and ≡ 0 or 1 (mod 4) (rule imaginary-discriminant)', { data: { rule: 'imaginary-discriminant' } });
  const forms = reducedForms(D, checkpoint);
  const h = forms.length;
  const identity = principalForm(D);
  // Greedy generators: the subgroup H so far as a map form → exponent vector over the chosen gᵢ.
  const chosen: Form[] = [];
  const relations: bigint[][] = [];
  let H = new Map<string, { form: Form; exponents: bigint[] }>([[key(identity), { form: identity, exponents: [] }]]);
  for (const candidate of forms) {
    if (H.size === h) break;
    if (H.has(key(candidate))) continue;
    // Smallest k with candidate^k ∈ H.
    let k = 1n;
    let p = candidate;
    let found = H.get(key(p));
    while (found === undefined) {
      checkpoint();
      p = compose(p, candidate, checkpoint);
      k++;
      found = H.get(key(p));
    }
    const index = chosen.length;
    chosen.push(candidate);
    const row = Array.from({ length: index + 1 }, (_, j) => (j === index ? k : -(found.exponents[j] ?? 0n)));
    relations.push(row);
    // H ← H · ⟨candidate⟩ (|H| grows by the factor k).
    const next = new Map(H);
    let step = candidate;
    for (let e = 1n; e < k; e++) {
      for (const element of H.values()) {
        checkpoint();
        const product = compose(element.form, step, checkpoint);
        const exponents = Array.from({ length: index + 1 }, (_, j) => (j === index ? e : (element.exponents[j] ?? 0n)));
        next.set(key(product), { form: product, exponents });
      }
      step = compose(step, candidate, checkpoint);
    }
    H = next;
  }
  const r = chosen.length;
  const invariants: bigint[] = [];
  const generators: Form[] = [];
  if (r > 0) {
    const R = relations.map((row) => Array.from({ length: r }, (_, j) => row[j] ?? 0n));
    // U R V = diag(d): the new basis of Z^r / (relations) is the rows of V⁻¹ (hermiteNormalForm of the unimodular V is I, its transform V⁻¹).
    const smith = smithNormalForm(R, { transforms: true, checkpoint });
    const V = smith.right as bigint[][];
    const Vinv = hermiteNormalForm(V, { transforms: true, checkpoint }).transform as bigint[][];
    smith.diagonal.forEach((d, i) => {
      if (d <= 1n) return;
      const row = Vinv[i] as bigint[];
      let g = identity;
      row.forEach((e, j) => {
        if (e !== 0n) g = compose(g, power(chosen[j] as Form, e, checkpoint), checkpoint);
      });
      invariants.push(d);
      generators.push(g);
    });
  }
  // Recheck: the products of the generators' powers are exactly the h reduced forms.
  let span = new Map<string, Form>([[key(identity), identity]]);
  generators.forEach((g, i) => {
    const d = invariants[i] as bigint;
    const next = new Map<string, Form>();
    for (const element of span.values()) {
      let current = element;
      for (let e = 0n; e < d; e++) {
        checkpoint();
        next.set(key(current), current);
        current = compose(current, g, checkpoint);
      }
      if (!same(current, element)) throw new JacobianError('INTERNAL', 'a class group generator failed its order recheck; nothing was concluded');
    }
    span = next;
  });
  const product = invariants.reduce((x, d) => x * d, 1n);
  if (product !== BigInt(h) || span.size !== h || forms.some((f) => !span.has(key(f)))) {
    throw new JacobianError('INTERNAL', 'the class group structure failed its recheck (the generators do not give the h reduced forms); nothing was concluded');
  }
  return { D, classNumber: h, forms, invariants, generators };
}

/**
 * The fixed problem set of `bench algebra`: implications "laws ⇒ target" between laws of one
 * binary operation `*` (magmas), written in Jacobian's law grammar
 * (shared/src/domains/universal-algebra/syntax.ts: infix chains group to the left, so every
 * product is parenthesized here). The SMT-LIB 2 problem of each implication for cvc5 is built
 * from the same parsed laws ({@link smtProblem}), so both systems are asked the same question.
 *
 * `expected` is what is known independently of either solver, with a reason:
 * - `countermodel` with the smallest order of a countermodel (every order below it has none);
 * - `true`: the implication holds in every magma (a short proof is given), so no countermodel
 *   exists at any order;
 * - `beyond`: the implication is false, but its smallest countermodel is larger than 8, so a
 *   search up to order 8 cannot settle it.
 */
import { parseLaw, resolveSignature, type Law, type Term } from '@jacobian/shared';

/** The variables the laws use; the signature declares all of them. */
export const ALGEBRA_VARIABLES = ['x', 'y', 'z', 'w'] as const;

/** The one signature: a binary operation written infix. */
export const MAGMA_SIGNATURE = { operations: [{ name: '*', arity: 2, infix: true }], variables: [...ALGEBRA_VARIABLES] };

/** The laws the implications are built from, by short name. */
export const LAWS = {
  assoc: 'x * (y * z) = (x * y) * z',
  comm: 'x * y = y * x',
  idem: 'x * x = x',
  trivial: 'x = y',
  left_zero: 'x * y = x',
  left_inv: 'x * (x * y) = y',
  right_inv: '(y * x) * x = y',
  semisym: 'x * (y * x) = y',
  rect: '(x * y) * x = x',
  rect_band: '(x * y) * z = x * z',
  flexible: '(x * y) * x = x * (y * x)',
  central: '(y * x) * (x * z) = x',
  central_derived: 'x * ((x * y) * z) = x * y',
  schroder: '(x * y) * (y * x) = x',
  stein: 'x * (x * y) = y * x',
  left_dist: 'x * (y * z) = (x * y) * (x * z)',
  right_dist: '(y * z) * x = (y * x) * (z * x)',
  medial: '(x * y) * (z * w) = (x * z) * (y * w)',
  left_comm: 'x * (y * z) = y * (x * z)',
  unipotent: 'x * x = y * y',
  /** With associativity and its mirror: x² is a two-sided identity, so a group of exponent 2. */
  exp2_left: '(x * x) * y = y',
  exp2_right: 'y * (x * x) = y',
  exp3_left: '((x * x) * x) * y = y',
  exp3_right: 'y * ((x * x) * x) = y',
  exp4_left: '((x * x) * (x * x)) * y = y',
  exp4_right: 'y * ((x * x) * (x * x)) = y',
  exp5_left: '(((x * x) * (x * x)) * x) * y = y',
  exp5_right: 'y * (((x * x) * (x * x)) * x) = y',
  exp6_left: '(((x * x) * x) * ((x * x) * x)) * y = y',
  exp6_right: 'y * (((x * x) * x) * ((x * x) * x)) = y',
} as const;
export type LawName = keyof typeof LAWS;

/** Groups of exponent dividing k (associativity, and x^k a two-sided identity for every x). */
const group = (k: 2 | 3 | 4 | 5 | 6): LawName[] => ['assoc', `exp${k}_left`, `exp${k}_right`];
/** Steiner quasigroups (squags): idempotent, commutative, x * (x * y) = y. */
const STEINER: LawName[] = ['idem', 'comm', 'left_inv'];

export type Expected =
  | { kind: 'countermodel'; smallest_order: number; why: string }
  | { kind: 'true'; why: string }
  | { kind: 'beyond'; smallest_order: number; why: string };

export interface Implication {
  id: string;
  laws: LawName[];
  target: LawName;
  expected: Expected;
}

const cm = (smallest_order: number, why: string): Expected => ({ kind: 'countermodel', smallest_order, why });
const holds = (why: string): Expected => ({ kind: 'true', why });

/** The problem set, in the order it is run. */
export const IMPLICATIONS: readonly Implication[] = [
  // Small countermodels (orders 2–3).
  { id: 'comm=>assoc', laws: ['comm'], target: 'assoc', expected: cm(2, 'x * y = NAND(x, y) on {0, 1}') },
  { id: 'assoc=>comm', laws: ['assoc'], target: 'comm', expected: cm(2, 'the left-zero semigroup x * y = x') },
  { id: 'idem=>comm', laws: ['idem'], target: 'comm', expected: cm(2, 'x * y = x') },
  { id: 'idem=>assoc', laws: ['idem'], target: 'assoc', expected: cm(3, 'all four idempotent magmas of order 2 are associative; a squag of order 3 is not') },
  { id: 'idem,comm=>assoc', laws: ['idem', 'comm'], target: 'assoc', expected: cm(3, 'order 2: only the two semilattices; order 3: the squag x * y = −x − y mod 3') },
  { id: 'assoc,idem=>comm', laws: ['assoc', 'idem'], target: 'comm', expected: cm(2, 'the left-zero band') },
  { id: 'assoc,idem=>rect', laws: ['assoc', 'idem'], target: 'rect', expected: cm(2, 'the semilattice ({0, 1}, min)') },
  { id: 'assoc,comm=>idem', laws: ['assoc', 'comm'], target: 'idem', expected: cm(2, '(Z2, +)') },
  { id: 'left_inv=>comm', laws: ['left_inv'], target: 'comm', expected: cm(2, 'x * y = 1 − y') },
  { id: 'left_inv=>idem', laws: ['left_inv'], target: 'idem', expected: cm(2, 'x * y = 1 − y') },
  { id: 'left_inv,comm=>assoc', laws: ['left_inv', 'comm'], target: 'assoc', expected: cm(3, 'x * y = −x − y mod 3') },
  { id: 'assoc,left_inv=>comm', laws: ['assoc', 'left_inv'], target: 'comm', expected: cm(2, 'the right-zero semigroup x * y = y') },
  { id: 'steiner=>assoc', laws: STEINER, target: 'assoc', expected: cm(3, 'the squag of order 3 (squags have orders 1, 3, 7, 9, …)') },
  { id: 'steiner=>trivial', laws: STEINER, target: 'trivial', expected: cm(3, 'the squag of order 3') },
  { id: 'semisym=>idem', laws: ['semisym'], target: 'idem', expected: cm(2, '(Z2, +)') },
  { id: 'medial=>assoc', laws: ['medial'], target: 'assoc', expected: cm(2, 'x * y = 1 − x') },
  { id: 'left_dist=>idem', laws: ['left_dist'], target: 'idem', expected: cm(2, 'a constant operation x * y = 0') },
  { id: 'schroder=>comm', laws: ['schroder'], target: 'comm', expected: cm(2, 'x * y = x') },
  { id: 'stein=>trivial', laws: ['stein'], target: 'trivial', expected: cm(2, 'a constant operation x * y = 0') },
  { id: 'flexible=>comm', laws: ['flexible'], target: 'comm', expected: cm(2, 'x * y = x') },
  { id: 'left_comm=>comm', laws: ['left_comm'], target: 'comm', expected: cm(2, 'x * y = y') },
  { id: 'group3=>trivial', laws: group(3), target: 'trivial', expected: cm(3, 'Z3; a group of exponent 3 has order 1 or a multiple of 3') },
  // Countermodels at orders 4–8, after orders without one.
  { id: 'central=>comm', laws: ['central'], target: 'comm', expected: cm(4, 'central groupoids have square orders (1, 4, 9, …); (a, b) * (c, d) = (b, c) on pairs of {0, 1}') },
  { id: 'central=>idem', laws: ['central'], target: 'idem', expected: cm(4, 'the natural central groupoid of order 4: (a, b) * (a, b) = (b, a)') },
  { id: 'central=>trivial', laws: ['central'], target: 'trivial', expected: cm(4, 'no central groupoid of order 2 or 3') },
  { id: 'assoc,unipotent=>comm', laws: ['assoc', 'unipotent'], target: 'comm', expected: cm(4, 'the nilpotent semigroup {a, b, ab, 0} with a² = b² = ba = 0') },
  { id: 'group4=>exp2', laws: group(4), target: 'exp2_left', expected: cm(4, 'Z4') },
  { id: 'group5=>trivial', laws: group(5), target: 'trivial', expected: cm(5, 'Z5') },
  { id: 'group6=>comm', laws: group(6), target: 'comm', expected: cm(6, 'S3, the smallest non-abelian group') },
  { id: 'steiner=>left_dist', laws: STEINER, target: 'left_dist', expected: cm(7, 'the squag of the Fano plane; the squags of orders 1 and 3 are distributive') },
  { id: 'steiner=>medial', laws: STEINER, target: 'medial', expected: cm(7, 'the squag of the Fano plane') },
  { id: 'group4=>comm', laws: group(4), target: 'comm', expected: cm(8, 'the dihedral group of order 8 (and Q8); groups of order < 8 and exponent dividing 4 are abelian') },
  // True implications: no countermodel at any order.
  { id: 'left_zero=>assoc', laws: ['left_zero'], target: 'assoc', expected: holds('both sides are x') },
  { id: 'comm=>flexible', laws: ['comm'], target: 'flexible', expected: holds('(x * y) * x = x * (x * y) = x * (y * x)') },
  { id: 'left_inv,comm=>right_inv', laws: ['left_inv', 'comm'], target: 'right_inv', expected: holds('(y * x) * x = x * (x * y) = y') },
  { id: 'steiner=>right_inv', laws: STEINER, target: 'right_inv', expected: holds('by commutativity, as above') },
  { id: 'steiner=>semisym', laws: STEINER, target: 'semisym', expected: holds('x * (y * x) = x * (x * y) = y') },
  { id: 'assoc,rect=>idem', laws: ['assoc', 'rect'], target: 'idem', expected: holds('x·x·x = x (y = x), so x⁴ = x·x; and x·(x·x)·x = x (y = x·x), so x·x = x⁴ = x') },
  { id: 'assoc,rect=>rect_band', laws: ['assoc', 'rect'], target: 'rect_band', expected: holds('x = x(yz)x and z = zxz, so xz = x(yz)xz = xy(zxz) = xyz') },
  { id: 'medial,idem=>left_dist', laws: ['medial', 'idem'], target: 'left_dist', expected: holds('x * (y * z) = (x * x) * (y * z) = (x * y) * (x * z)') },
  { id: 'group2=>comm', laws: group(2), target: 'comm', expected: holds('a group of exponent 2 is abelian: xy = (xy)⁻¹ = y⁻¹x⁻¹ = yx') },
  { id: 'central=>central_derived', laws: ['central'], target: 'central_derived', expected: holds('Knuth: every central groupoid satisfies x((xy)z) = xy') },
  // False, but every countermodel is larger than 8.
  { id: 'group3=>comm', laws: group(3), target: 'comm', expected: { kind: 'beyond', smallest_order: 27, why: 'the Heisenberg group mod 3; groups of exponent 3 and order < 27 are abelian' } },
  { id: 'group5=>comm', laws: group(5), target: 'comm', expected: { kind: 'beyond', smallest_order: 125, why: 'the Heisenberg group mod 5' } },
];

/** The signature, resolved once. */
const SIGNATURE = resolveSignature(MAGMA_SIGNATURE, ['signature']);

function parsed(name: LawName): Law {
  return parseLaw(LAWS[name], SIGNATURE, { path: ['laws', name] });
}

/** A term in SMT-LIB: `op` for `*`, variables renamed by `rename`. */
function smtTerm(term: Term, rename: (variable: string) => string): string {
  if (term.kind === 'variable') return rename(term.name);
  const [left, right] = term.args;
  if (term.operation !== '*' || left === undefined || right === undefined) throw new Error(`unexpected operation ${term.operation}`);
  return `(op ${smtTerm(left, rename)} ${smtTerm(right, rename)})`;
}

/**
 * One SMT-LIB 2 problem per implication: an uninterpreted sort U, a binary function `op`, each
 * source law as a universally quantified equation, and the target's negation with its
 * variables skolemized as fresh constants. `sat` means a countermodel exists.
 */
export function smtProblem(implication: Implication): string {
  const lines = ['(set-logic UF)', '(declare-sort U 0)', '(declare-fun op (U U) U)'];
  for (const name of implication.laws) {
    const law = parsed(name);
    const bound = law.variables.map((v) => `(${v} U)`).join(' ');
    const equation = `(= ${smtTerm(law.left, (v) => v)} ${smtTerm(law.right, (v) => v)})`;
    lines.push(`; ${name}: ${LAWS[name]}`, law.variables.length === 0 ? `(assert ${equation})` : `(assert (forall (${bound}) ${equation}))`);
  }
  const target = parsed(implication.target);
  const skolem = (v: string): string => `sk_${v}`;
  lines.push(`; not ${implication.target}: ${LAWS[implication.target]}`);
  for (const v of target.variables) lines.push(`(declare-const ${skolem(v)} U)`);
  lines.push(`(assert (not (= ${smtTerm(target.left, skolem)} ${smtTerm(target.right, skolem)})))`, '(check-sat)');
  return `${lines.join('\n')}\n`;
}

/** The laws of an implication in our grammar: what math.run sends. */
export function lawTexts(implication: Implication): { laws: string[]; target: string } {
  return { laws: implication.laws.map((name) => LAWS[name]), target: LAWS[implication.target] };
}

/**
 * Questions that warm `jacobian serve` up before the measurement: "a ⇒ b" for two distinct
 * single laws of {@link LAWS}, in a fixed order, skipping every pair the problem set asks (so
 * that no measured request, nor any other with the same laws and target, has been seen by the
 * server). Their answers are not checked against anything: some have countermodels, some none
 * up to the order asked, which runs the SAT solver.
 */
export function warmUpImplications(count: number): Implication[] {
  const names = Object.keys(LAWS) as LawName[];
  const asked = new Set(IMPLICATIONS.map((implication) => `${[...implication.laws].sort().join(',')}=>${implication.target}`));
  const pairs: Implication[] = [];
  // By distance in the list of laws, so that a short warm-up still sees every law.
  for (let distance = 1; distance < names.length && pairs.length < count; distance++) {
    for (const [index, law] of names.entries()) {
      const target = names[(index + distance) % names.length] as LawName;
      if (asked.has(`${law}=>${target}`)) continue;
      pairs.push({ id: `warm:${law}=>${target}`, laws: [law], target, expected: { kind: 'countermodel', smallest_order: 0, why: 'not checked (warm-up)' } });
    }
  }
  return pairs.slice(0, count);
}

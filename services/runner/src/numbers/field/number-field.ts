/**
 * number_field.invariants.compute and number_field.class_group.compute on PARI/GP (nfinit,
 * polredabs, nfcertify, bnfinit, bnfcertify). The field is K = Q(θ), θ a root of the given
 * irreducible T ∈ Z[x]; a non-monic T is sent to gp as its monic model T₁(y) = c^(n−1)T(y/c)
 * (θ₁ = cθ) and every element is rewritten in θ here. What our own exact code rechecks:
 * irreducibility is PARI's (polisirreducible); the signature against n and the sign of the
 * discriminant (Brill); the discriminant's factorization multiplied out, its primes tested;
 * disc(K)·[O_K : Z[θ₁]]² = disc(T₁); every integral basis element an algebraic integer; the
 * isomorphism to the polredabs polynomial P by substitution (T₁(b) ≡ 0 mod P and P(a) ≡ 0 mod T₁);
 * every fundamental unit a unit (integer characteristic polynomial with constant term ±1) and the
 * torsion unit a primitive w-th root of unity. The class group and the fundamentality of the
 * units are PARI's, under GRH unless bnfcertify certified them.
 *
 * bnfcertify, as PARI/GP's documentation states it: it checks whether the bnf data can be
 * proven without GRH and answers 1 exactly when they are correct; the bnf must carry its
 * fundamental units (hence bnfinit(T, 1) here); on data it cannot certify it "may output some
 * error message, or loop indefinitely". Its cost grows quickly with the discriminant (the
 * Minkowski-type bound it must cover), so it is practical for small degree and discriminant.
 * We therefore run it in a gp process of its own with 85% of the remaining budget: a timeout, a
 * memory stop or an error leaves the GRH answer, with a diagnostic.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  formatRational,
  isPrimeProven,
  JacobianError,
  NUMBER_FIELD_LIMITS,
  NumberFieldPolynomialSchema,
  qDiv,
  qInt,
  runKernel,
  type CapabilityContext,
  type CapabilityOutcome,
  type CapabilityDefinition,
  type Diagnostic,
  type Obligation,
  type ProviderRuntime,
  type Rational,
} from '@jacobian/shared';
import type { GpSection, PariTools } from '../../providers/pari.js';
import { gpPolynomial } from '../../providers/pari.js';
import { EngineSchema } from '../../matrix/capability-support.js';
import { lowestFirst, monicModel, toOriginalRoot } from './field-arithmetic.js';
import { FieldRecheckOutput, type FieldRecheckInput } from './field-recheck.kernel.js';
import { engine, GRH_OBLIGATION_ID, integerOf, NUMBER_FIELD_VERSION, pariFailed, pariOutcome, rationalOf, requirePari, runPari, section, single, smallIntegerOf, type PariBackendOptions } from './support.js';

export const NUMBER_FIELD_INVARIANTS_ID = 'number_field.invariants.compute';
export const NUMBER_FIELD_CLASS_GROUP_ID = 'number_field.class_group.compute';

const Polynomial = NumberFieldPolynomialSchema.refine((c) => c.length >= 3, { message: 'a number field here has degree at least 2 (Q itself is x + c) (rule: degree)' });

export const NumberFieldInput = z.object({ polynomial: Polynomial }).strict();
export type NumberFieldInput = z.infer<typeof NumberFieldInput>;

export const ClassGroupInput = z
  .object({
    polynomial: Polynomial,
    certify: z.boolean().default(false).describe('also run bnfcertify, within the run\'s budget, to remove the GRH assumption (practical for small degree and discriminant only)'),
  })
  .strict();
export type ClassGroupInput = z.infer<typeof ClassGroupInput>;

const Element = z.array(z.string()).describe('an element of K by its coordinates on 1, θ, θ², … (lowest first, rationals)');
const PrimePowerOut = z.object({ prime: z.string(), exponent: z.number().int(), prime_proven: z.boolean().describe('primality proven by our deterministic test (false: a BPSW probable prime above its bound)') }).strict();

export const NumberFieldInvariantsOutput = z
  .object({
    polynomial: z.array(z.string()).describe('T as given, highest degree first; θ is a root of T'),
    degree: z.number().int(),
    signature: z.object({ r1: z.number().int().describe('real embeddings'), r2: z.number().int().describe('pairs of complex embeddings') }).strict(),
    discriminant: z.string().describe('the discriminant of K (of its ring of integers O_K)'),
    discriminant_factorization: z.array(PrimePowerOut).describe('|disc K| = Π p^e'),
    integral_basis: z.array(Element).describe('a Z-basis of the ring of integers O_K, each element in the power basis of θ'),
    monic_model: z.object({ polynomial: z.array(z.string()), scale: z.string().describe('θ₁ = scale·θ is a root of the monic model'), index: z.string().describe('[O_K : Z[θ₁]]') }).strict(),
    reduced_polynomial: z.array(z.string()).describe('polredabs: a canonical reduced defining polynomial P of K, highest degree first'),
    isomorphism: z
      .object({
        root_of_reduced_in_field: Element.describe('α ∈ K with P(α) = 0, in the power basis of θ'),
        theta_in_reduced_field: z.array(z.string()).describe('θ as a polynomial in a root z of P (lowest first)'),
        checked: z.literal(true).describe('P(α) = 0 in K and T(θ(z)) = 0 mod P, by our exact substitution'),
      })
      .strict(),
    maximal_order_certified: z.boolean().describe('nfcertify returned no composite: the integral basis and discriminant are unconditional (PARI/GP)'),
    engine: EngineSchema,
  })
  .strict();
export type NumberFieldInvariantsOutput = z.infer<typeof NumberFieldInvariantsOutput>;

export const ClassGroupOutput = z
  .object({
    polynomial: z.array(z.string()),
    degree: z.number().int(),
    signature: z.object({ r1: z.number().int(), r2: z.number().int() }).strict(),
    class_number: z.string().describe('h(K), the order of the class group'),
    class_group: z.array(z.string()).describe('the invariants [d₁, d₂, …] (d_{i+1} | d_i) of Cl(K) ≅ ⊕ Z/d_i; [] when h = 1'),
    fundamental_units: z.array(Element).describe('a system of r1 + r2 − 1 fundamental units, in the power basis of θ; each checked to be a unit by us'),
    torsion_units: z.object({ order: z.number().int().describe('w, the number of roots of unity in K'), generator: Element }).strict(),
    regulator: z.string().describe('the regulator R(K), a decimal truncated after 20 places (PARI/GP, real arithmetic at 38 significant digits)'),
    grh_assumed: z.boolean().describe('true: class group, class number and units are unconditional only under the Generalized Riemann Hypothesis'),
    certified: z.boolean().describe('bnfcertify returned 1: GRH is not needed'),
    monic_scale: z.string().describe('θ₁ = scale·θ was sent to PARI/GP (1 for monic T)'),
    engine: EngineSchema,
  })
  .strict();
export type ClassGroupOutput = z.infer<typeof ClassGroupOutput>;

/** The request's T as integers, its monic model and the gp definitions of both. */
function fieldOf(coefficients: readonly string[]): { T: bigint[]; monic: bigint[]; scale: bigint; definitions: string[] } {
  const T = coefficients.map((c) => BigInt(c));
  const { monic, scale } = monicModel(T);
  return { T, monic, scale, definitions: [`T=${gpPolynomial([...coefficients])};`, `T1=${gpPolynomial(monic.map(String))};`, 'irr=polisirreducible(T);'] };
}

function requireIrreducible(answer: { sections: Record<string, string[][]> }, coefficients: readonly string[]): void {
  const irr = answer.sections['irr']?.[0]?.[0];
  if (irr === '1') return;
  if (irr !== '0') throw pariFailed('polisirreducible printed no 0/1');
  throw new JacobianError('INVALID_REQUEST', `payload.polynomial: [${coefficients.join(', ')}] is reducible over Q, so it defines no number field (rule irreducible)`, {
    path: ['payload', 'polynomial'],
    data: { rule: 'irreducible' },
    hint: 'give an irreducible factor; e.g. x² + 5 is [1, 0, 5]',
  });
}

const elementText = (e: readonly Rational[]): string[] => e.map(formatRational);

const KERNEL = { module: fileURLToPath(new URL('./field-recheck.kernel.ts', import.meta.url)), exportName: 'fieldRecheckKernel' };

/** Our exact rechecks, isolated (they can be heavy in high degree) and stopped with the run's budget. */
async function recheckField(context: CapabilityContext, input: FieldRecheckInput): Promise<FieldRecheckOutput> {
  return FieldRecheckOutput.parse(await runKernel(context, KERNEL, input));
}

/** r1 + 2r2 = n and sign(disc) = (−1)^r2 (Brill), exactly. */
function checkSignature(n: number, r1: number, r2: number, disc: bigint): void {
  if (r1 < 0 || r2 < 0 || r1 + 2 * r2 !== n) throw pariFailed(`the signature (${r1}, ${r2}) does not add up to the degree ${n}`);
  if (disc === 0n || (disc < 0n) !== (r2 % 2 === 1)) throw pariFailed(`the discriminant ${disc} has the wrong sign for r2 = ${r2} (Brill's theorem)`);
}

const DESCRIPTION_INVARIANTS =
  'Invariants of the number field K = Q(θ) = Q[x]/(T) for an irreducible T ∈ Z[x] (monic or not): degree, signature (r1, r2), the discriminant of K (of its ring of integers O_K) factored, an integral basis of O_K, and the canonical reduced defining polynomial (polredabs) with the isomorphism both ways. Served by PARI/GP (nfinit, polredabs, nfcertify); rechecked by our exact code: r1 + 2r2 = n and the sign of the discriminant (Brill), the factorization multiplied out and its primes tested, disc(K)·index² = disc(T₁), each basis element an algebraic integer with det(Tr(w_i w_j)) = disc(K), and the isomorphism by substitution (P(α) = 0 in K, T(θ(z)) ≡ 0 mod P). Irreducibility by PARI/GP (polisirreducible); a reducible T is refused.';

const KEYWORDS_INVARIANTS = [
  'number field',
  'algebraic number field',
  'ring of integers',
  'maximal order',
  'integral basis',
  'field discriminant',
  'discriminant of a number field',
  'signature',
  'real embeddings',
  'complex embeddings',
  'totally real',
  'polredabs',
  'reduced defining polynomial',
  'isomorphic number fields',
  'nfinit',
  'O_K',
  'degree of a field extension',
  'cubic field',
  'quadratic field',
];

/** number_field.invariants.compute on PARI/GP. */
export function numberFieldInvariants(runtime: ProviderRuntime, options: PariBackendOptions = {}): CapabilityDefinition<NumberFieldInput, NumberFieldInvariantsOutput> {
  const tools = requirePari(NUMBER_FIELD_INVARIANTS_ID, runtime, options);
  return {
    id: NUMBER_FIELD_INVARIANTS_ID,
    version: NUMBER_FIELD_VERSION,
    title: 'Number field invariants: discriminant, signature, integral basis, polredabs',
    description: DESCRIPTION_INVARIANTS,
    tags: ['number-theory', 'number-field', 'algebraic-number-theory', 'pari-gp'],
    keywords: KEYWORDS_INVARIANTS,
    domain: 'number_field',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input: NumberFieldInput,
    output: NumberFieldInvariantsOutput,
    examples: [
      { title: 'The cubic field of x³ − x² − 2x + 1 (the real subfield of Q(ζ₇), discriminant 49)', mode: 'EXPLORE', payload: { polynomial: [1, -1, -2, 1] } },
      { title: 'Q(√−5): x² + 5, discriminant −20', mode: 'EXPLORE', payload: { polynomial: [1, 0, 5] } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the number field defined by the given polynomial.',
    limits: { max_degree: NUMBER_FIELD_LIMITS.maxDegree, max_coefficient_digits: NUMBER_FIELD_LIMITS.maxDigits },
    async run(input, context) {
      const field = fieldOf(input.polynomial);
      const n = field.T.length - 1;
      const guard = (body: string): string => `if(irr,${body});`;
      const sections: GpSection[] = [
        { name: 'irr', statements: 'print(irr);' },
        { name: 'inv', statements: guard('nf=nfinit(T1);jv(nf.sign);print(nf.disc);print(nf.index);print(poldisc(T1))') },
        { name: 'fact', statements: guard('jm(factor(abs(nf.disc)))') },
        { name: 'zk', statements: guard('for(i=1,#nf.zk,jv(Vecrev(nf.zk[i],#nf.zk)))') },
        { name: 'cert', statements: guard('print(#nfcertify(nf))') },
        { name: 'red', statements: guard('R=polredabs(T1,1);jv(Vec(R[1]));jv(Vecrev(lift(R[2])));jv(Vecrev(lift(modreverse(R[2]))))') },
      ];
      const answer = await runPari(tools(), context, field.definitions, sections);
      requireIrreducible(answer, input.polynomial);
      const inv = section(answer, 'inv');
      const [r1, r2] = (inv[0] ?? []).map((x) => smallIntegerOf(x, 'the signature'));
      const disc = integerOf(single(answer, 'inv', 1), 'the discriminant');
      const index = integerOf(single(answer, 'inv', 2), 'the index');
      const polDisc = integerOf(single(answer, 'inv', 3), 'the polynomial discriminant');
      checkSignature(n, r1 ?? -1, r2 ?? -1, disc);
      if (disc * index * index !== polDisc) throw pariFailed(`disc(K)·index² = ${disc * index * index} differs from disc(T₁) = ${polDisc}`);
      const factorization = section(answer, 'fact').map((row) => {
        const [p, e] = row;
        return { prime: integerOf(p ?? '', 'a prime'), exponent: smallIntegerOf(e ?? '', 'an exponent') };
      });
      const product = factorization.reduce((s, f) => s * f.prime ** BigInt(f.exponent), 1n);
      if (product !== (disc < 0n ? -disc : disc)) throw pariFailed(`the factorization multiplies out to ${product}, not |disc| = ${disc < 0n ? -disc : disc}`);
      const primes = factorization.map((f) => {
        const proven = isPrimeProven(f.prime);
        if (proven === false) throw pariFailed(`${f.prime} in the discriminant's factorization is composite`);
        return { prime: f.prime.toString(), exponent: f.exponent, prime_proven: proven === true };
      });
      const T1 = lowestFirst(field.monic);
      const basis = section(answer, 'zk').map((row) => row.map((x) => rationalOf(x, 'an integral basis coordinate')));
      if (basis.length !== n) throw pariFailed(`the integral basis has ${basis.length} elements for degree ${n}`);
      const red = section(answer, 'red');
      const P = (red[0] ?? []).map((x) => rationalOf(x, 'a polredabs coefficient')).reverse();
      const b = (red[1] ?? []).map((x) => rationalOf(x, 'a root of T₁ modulo P'));
      const a = (red[2] ?? []).map((x) => rationalOf(x, 'a root of P modulo T₁'));
      if (P.length !== n + 1) throw pariFailed(`polredabs gave a polynomial of degree ${P.length - 1}, not ${n}`);
      const recheck = await recheckField(context, { monic: T1.map(formatRational), basis: basis.map(elementText), reduced: P.map(formatRational), root_in_reduced: elementText(b), reduced_root_in_field: elementText(a) });
      const notIntegral = recheck.basis_integral.indexOf(false);
      if (notIntegral >= 0) throw pariFailed(`integral basis element ${notIntegral + 1} is not an algebraic integer`);
      // Integral elements whose discriminant det(Tr(w_i w_j)) is disc(K): they span a subgroup of O_K of index 1 if disc(K) is right.
      if (recheck.basis_discriminant !== disc.toString()) throw pariFailed(`the integral basis has discriminant ${recheck.basis_discriminant ?? '?'}, not disc(K) = ${disc}`);
      if (recheck.isomorphism !== true) throw pariFailed('the polredabs isomorphism fails our substitution check');
      const scale = field.scale;
      const theta = b.map((x) => qDiv(x, qInt(scale)));
      const output: NumberFieldInvariantsOutput = {
        polynomial: [...input.polynomial],
        degree: n,
        signature: { r1: r1 as number, r2: r2 as number },
        discriminant: disc.toString(),
        discriminant_factorization: primes,
        integral_basis: basis.map((w) => elementText(toOriginalRoot(w, scale))),
        monic_model: { polynomial: field.monic.map(String), scale: scale.toString(), index: index.toString() },
        reduced_polynomial: [...P].reverse().map(formatRational),
        isomorphism: { root_of_reduced_in_field: elementText(toOriginalRoot(a, scale)), theta_in_reduced_field: elementText(theta), checked: true },
        maximal_order_certified: single(answer, 'cert') === '0',
        engine: engine(runtime, 'PARI/GP nfinit (round 4), polredabs, nfcertify; rechecked by our exact arithmetic in Q[x]/(T)', answer.runtimeMs),
      };
      const certified = output.maximal_order_certified ? 'nfcertify certified the integral basis and discriminant' : 'nfcertify left composites unfactored: the integral basis and discriminant assume them squarefree-free of hidden primes (PARI/GP)';
      return pariOutcome(output, `the invariants of the number field Q[x]/(${input.polynomial.join(', ')})`, {
        completeness: 'PARI/GP ran to the end and every recheck passed',
        assurance: `computed by PARI/GP (nfinit, polredabs; ${certified}); our exact code checked the signature against the degree and the sign of the discriminant, the factorization, disc(K)·index² = disc(T₁), that the basis elements are algebraic integers with det(Tr(w_i w_j)) = disc(K), and the polredabs isomorphism by substitution; irreducibility and the value of disc(K) (maximality) are PARI/GP's`,
      });
    },
  };
}

const DESCRIPTION_CLASS_GROUP =
  'Class group and units of the number field K = Q[x]/(T), T ∈ Z[x] irreducible: the class number h(K), the class group structure Cl(K) ≅ ⊕ Z/d_i, a system of fundamental units, the roots of unity, and the regulator (Buchmann\'s subexponential algorithm, PARI/GP bnfinit). bnfinit\'s class group and units are proven only under the Generalized Riemann Hypothesis (GRH): the result says so (grh_assumed, an open obligation) unless you ask certify: true, which runs bnfcertify within the budget (practical only for small degree and discriminant; PARI/GP documents that it may also loop or fail) and drops the assumption when it returns 1. Rechecked by our exact code: every fundamental unit is an algebraic integer of norm ±1 (its characteristic polynomial), the torsion unit a primitive w-th root of unity, and r1 + r2 − 1 units (Dirichlet).';

/** number_field.class_group.compute on PARI/GP. */
export function numberFieldClassGroup(runtime: ProviderRuntime, options: PariBackendOptions = {}): CapabilityDefinition<ClassGroupInput, ClassGroupOutput> {
  const tools = requirePari(NUMBER_FIELD_CLASS_GROUP_ID, runtime, options);
  return {
    id: NUMBER_FIELD_CLASS_GROUP_ID,
    version: NUMBER_FIELD_VERSION,
    title: 'Class group, class number and units of a number field (GRH unless certified)',
    description: DESCRIPTION_CLASS_GROUP,
    tags: ['number-theory', 'number-field', 'class-group', 'algebraic-number-theory', 'pari-gp'],
    keywords: [
      'class number',
      'class group',
      'ideal class group',
      'h(K)',
      'fundamental units',
      'unit group',
      'Dirichlet unit theorem',
      'regulator',
      'roots of unity',
      'GRH',
      'Generalized Riemann Hypothesis',
      'bnfinit',
      'bnfcertify',
      'Buchmann algorithm',
      'principal ideal domain',
      'unique factorization in the ring of integers',
      'number field',
      'quadratic field',
    ],
    domain: 'number_field',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input: ClassGroupInput,
    output: ClassGroupOutput,
    examples: [
      { title: 'The class number of Q(√−5) is 2 (certified)', mode: 'EXPLORE', payload: { polynomial: [1, 0, 5], certify: true } },
      { title: 'Class group and fundamental unit of Q(√79) (under GRH)', mode: 'EXPLORE', payload: { polynomial: [1, 0, -79] } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the number field defined by the given polynomial; unconditional only when certified.',
    limits: { max_degree: NUMBER_FIELD_LIMITS.maxDegree, max_coefficient_digits: NUMBER_FIELD_LIMITS.maxDigits, certification: 'bnfcertify within the run budget' },
    run: (input, context) => classGroup(tools(), runtime, input, context),
  };
}

async function classGroup(tools: PariTools, runtime: ProviderRuntime, input: ClassGroupInput, context: CapabilityContext): Promise<CapabilityOutcome<ClassGroupOutput>> {
  const field = fieldOf(input.polynomial);
  const n = field.T.length - 1;
  const guard = (body: string): string => `if(irr,${body});`;
  // setrand(1): bnfinit draws random relations; a fixed seed makes the certifying run see the same bnf.
  const definitions = [...field.definitions, 'setrand(1);'];
  const sections: GpSection[] = [
    { name: 'irr', statements: 'print(irr);' },
    { name: 'bnf', statements: guard('bnf=bnfinit(T1,1);jv(bnf.sign);print(bnf.no);jv(bnf.cyc);print(floor(bnf.reg*10^20))') },
    { name: 'tu', statements: guard('print(bnf.tu[1]);jv(Vecrev(lift(bnf.tu[2]),poldegree(T1)))') },
    { name: 'fu', statements: guard('for(i=1,#bnf.fu,jv(Vecrev(lift(bnf.fu[i]),poldegree(T1))))') },
  ];
  const answer = await runPari(tools, context, definitions, sections);
  requireIrreducible(answer, input.polynomial);
  const head = section(answer, 'bnf');
  const [r1, r2] = (head[0] ?? []).map((x) => smallIntegerOf(x, 'the signature'));
  const h = integerOf(single(answer, 'bnf', 1), 'the class number');
  const cyc = (head[2] ?? []).map((x) => integerOf(x, 'a class group invariant'));
  const regulatorScaled = integerOf(single(answer, 'bnf', 3), 'the regulator');
  if ((r1 ?? -1) + 2 * (r2 ?? -1) !== n) throw pariFailed(`the signature (${r1}, ${r2}) does not add up to the degree ${n}`);
  if (cyc.reduce((p, d) => p * d, 1n) !== h) throw pariFailed(`the class group invariants ${cyc.join(', ')} do not multiply to h = ${h}`);
  for (let i = 1; i < cyc.length; i++) if ((cyc[i - 1] as bigint) % (cyc[i] as bigint) !== 0n) throw pariFailed('the class group invariants do not divide each other');
  const T1 = lowestFirst(field.monic);
  const tu = section(answer, 'tu');
  const w = smallIntegerOf(single(answer, 'tu', 0), 'the number of roots of unity');
  const zeta = (tu[1] ?? []).map((x) => rationalOf(x, 'a root of unity coordinate'));
  const units = section(answer, 'fu').map((row) => row.map((x) => rationalOf(x, 'a unit coordinate')));
  if (units.length !== (r1 as number) + (r2 as number) - 1) throw pariFailed(`${units.length} fundamental units for r1 + r2 − 1 = ${(r1 as number) + (r2 as number) - 1}`);
  const recheck = await recheckField(context, { monic: T1.map(formatRational), units: units.map(elementText), zeta: elementText(zeta), w });
  if (recheck.root_of_unity !== true) throw pariFailed(`the torsion unit is not a primitive ${w}-th root of unity`);
  recheck.units.forEach((check, i) => {
    if (!check.unit) throw pariFailed(`fundamental unit ${i + 1} is not a unit (integral: ${check.integral}, norm ${check.norm})`);
  });
  const diagnostics: Diagnostic[] = [];
  let certified = false;
  let certifyMs = 0;
  if (input.certify) {
    // Its own gp run with most of what is left of the budget, so that a certification that does not finish still leaves the GRH answer.
    const remaining = context.deadline - Date.now();
    const certifySections: GpSection[] = [{ name: 'again', statements: 'bnf=bnfinit(T1,1);print(bnf.no);jv(bnf.cyc);for(i=1,#bnf.fu,jv(Vecrev(lift(bnf.fu[i]),poldegree(T1))));' }, { name: 'cert', statements: 'print(bnfcertify(bnf));' }];
    try {
      const certifyAnswer = await runPari(tools, context, definitions, certifySections, Date.now() + Math.floor(remaining * 0.85));
      certifyMs = certifyAnswer.runtimeMs;
      const again = section(certifyAnswer, 'again');
      const same = JSON.stringify(again) === JSON.stringify([[h.toString()], cyc.map(String), ...section(answer, 'fu')]);
      if (!same) throw pariFailed('the certifying run computed a different bnf than the first (with the same seed)');
      certified = single(certifyAnswer, 'cert') === '1';
      if (!certified) diagnostics.push({ severity: 'WARNING', code: 'NOT_CERTIFIED', stage: 'EXECUTION', message: 'bnfcertify did not return 1: the result stays conditional on GRH', path: ['payload', 'certify'], hint: null });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'EXECUTION_TIMEOUT' && code !== 'MEMORY_LIMIT_EXCEEDED' && code !== 'PROVIDER_FAILED') throw error;
      // PARI/GP documents that bnfcertify may fail with an error message (or loop) on data it cannot certify.
      const why = code === 'PROVIDER_FAILED' ? `failed: ${(error as Error).message}` : `did not finish within the budget (${code})`;
      diagnostics.push({ severity: 'WARNING', code: 'CERTIFICATION_INCOMPLETE', stage: 'EXECUTION', message: `bnfcertify ${why}; the result stays conditional on GRH`.slice(0, 2000), path: ['payload', 'certify'], hint: 'bnfcertify is practical for small degree and discriminant; give a larger wall-time budget' });
    }
  }
  const scale = field.scale;
  const output: ClassGroupOutput = {
    polynomial: [...input.polynomial],
    degree: n,
    signature: { r1: r1 as number, r2: r2 as number },
    class_number: h.toString(),
    class_group: cyc.map(String),
    fundamental_units: units.map((u) => elementText(toOriginalRoot(u, scale))),
    torsion_units: { order: w, generator: elementText(toOriginalRoot(zeta, scale)) },
    regulator: decimal(regulatorScaled, 20),
    grh_assumed: !certified,
    certified,
    monic_scale: scale.toString(),
    engine: engine(runtime, `PARI/GP bnfinit(T, 1) (Buchmann), setrand(1)${input.certify ? ', then bnfcertify' : ''}; units and roots of unity rechecked by our exact arithmetic`, answer.runtimeMs + certifyMs),
  };
  const obligations: Obligation[] = certified
    ? []
    : [{ id: GRH_OBLIGATION_ID, statement: 'the class group, class number and fundamental units are those of K only if the Generalized Riemann Hypothesis holds (bnfinit\'s bound on the primes generating the class group); bnfcertify removes the assumption', status: 'OPEN', discharged_by: [NUMBER_FIELD_CLASS_GROUP_ID] }];
  return pariOutcome(output, `the class group, class number, units and regulator of the number field Q[x]/(${input.polynomial.join(', ')})`, {
    completeness: certified ? 'PARI/GP ran to the end, bnfcertify returned 1, and every recheck passed' : 'PARI/GP ran to the end and every recheck passed; the answer is conditional on GRH',
    assurance: certified
      ? 'computed by PARI/GP (bnfinit) and certified unconditionally by bnfcertify; our exact code checked that each fundamental unit is a unit and the roots of unity; not independently verified'
      : 'computed by PARI/GP (bnfinit) assuming the Generalized Riemann Hypothesis (GRH), not certified; our exact code checked that each fundamental unit is a unit and the roots of unity, not their fundamentality nor the class group',
    qualifiers: ['EXACT'],
    obligations,
    diagnostics,
  });
}

/** n / 10^places as a decimal, truncated. */
function decimal(scaled: bigint, places: number): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

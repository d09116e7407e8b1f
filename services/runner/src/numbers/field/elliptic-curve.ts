/**
 * elliptic_curve.invariants.compute, elliptic_curve.torsion.compute and elliptic_curve.rank.bound
 * on PARI/GP (ellinit, ellminimalmodel, ellglobalred, elllocalred, elltors, ellrank), for a curve
 * over Q given by Weierstrass coefficients [a₁, a₂, a₃, a₄, a₆] (integers or fractions, refused
 * when singular). Our exact code (shared/src/domains/numbers/elliptic.ts) rechecks what it can:
 * Δ and j, the change of variables to the minimal model, minimality wherever the valuations of
 * c₄, c₆, Δ decide it, the conductor's primes against the minimal discriminant, every point on the
 * curve, every torsion generator's exact order and the subgroup they generate, the torsion bound
 * from point counts modulo good odd primes, and that each point ellrank found has infinite order
 * (Mazur). The conductor exponents, Kodaira symbols and Tamagawa numbers are PARI/GP's (Tate's
 * algorithm), as are the rank bounds (2-descent). Torsion and points are stored as a claim for
 * elliptic_curve.claim.verify.
 */
import { z } from 'zod';
import {
  bigGcd as gcd,
  changeModel,
  countPointsModP,
  curveInvariants,
  ELLIPTIC_CURVE_CLAIM_SCHEMA_URI,
  ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI,
  ELLIPTIC_CURVE_LIMITS,
  EllipticCurveClaimSchema,
  isPrimeProven,
  formatRational,
  hasExactOrder,
  JacobianError,
  isIntegralModel,
  isOnCurve,
  MAZUR_STRUCTURES,
  multiplyPoint,
  pointOrder,
  qEq,
  requireEllipticCurve,
  smallPrimes,
  torsionSubgroup,
  WeierstrassInputSchema,
  type CapabilityContext,
  type CapabilityDefinition,
  type CurvePoint,
  type Diagnostic,
  type ProviderRuntime,
  type Rational,
  type Weierstrass,
} from '@jacobian/shared';
import type { GpSection } from '../../providers/pari.js';
import { EngineSchema, storeClaim } from '../../matrix/capability-support.js';
import { engine, GRH_OBLIGATION_ID, gpRational, integerOf, NUMBER_FIELD_VERSION, pariFailed, pariOutcome, rationalOf, requirePari, runPari, section, single, smallIntegerOf, type PariBackendOptions } from './support.js';

export const ELLIPTIC_INVARIANTS_ID = 'elliptic_curve.invariants.compute';
export const ELLIPTIC_TORSION_ID = 'elliptic_curve.torsion.compute';
export const ELLIPTIC_RANK_ID = 'elliptic_curve.rank.bound';
export const ELLIPTIC_CLAIM_VERIFY_ID = 'elliptic_curve.claim.verify';

export const CurveInput = z.object({ curve: WeierstrassInputSchema }).strict();
export type CurveInput = z.infer<typeof CurveInput>;

export const RankInput = z
  .object({
    curve: WeierstrassInputSchema,
    effort: z.number().int().min(0).max(10).default(0).describe('ellrank\'s effort to find points (0 … 10; time grows like its cube; above 0 the search is randomized, here with a fixed seed)'),
  })
  .strict();
export type RankInput = z.infer<typeof RankInput>;

const Point = z.array(z.string()).length(2).describe('[x, y]');
const Coefficients = z.array(z.string()).length(5).describe('[a1, a2, a3, a4, a6]');

const LIMITS = { max_digits: ELLIPTIC_CURVE_LIMITS.maxDigits };

/** The curve of the request (non-singular, else INVALID_REQUEST) and its gp definition. */
function curveOf(coefficients: readonly string[]): { a: Weierstrass; definitions: string[] } {
  const a = requireEllipticCurve(coefficients, ['payload', 'curve']);
  return { a, definitions: [`E=ellinit([${coefficients.map(gpRational).join(',')}]);`] };
}

const q = formatRational;
const pointOut = (P: CurvePoint): [string, string] => (P === null ? ['0', '0'] : [q(P.x), q(P.y)]);

function pointOfRow(row: readonly string[] | undefined, what: string): CurvePoint {
  if (row?.length !== 2) throw pariFailed(`${what} is not a point [x, y]`);
  return { x: rationalOf(row[0] as string, what), y: rationalOf(row[1] as string, what) };
}

/** v_p(n) for n ≠ 0. */
function valuation(n: bigint, p: bigint): number {
  if (n === 0n) return Number.POSITIVE_INFINITY;
  let v = 0;
  while (n % p === 0n) {
    n /= p;
    v++;
  }
  return v;
}

/** PARI/GP's Kodaira code as a symbol: 0 I0, 1 II, 2 III, 3 IV, 4 + ν I_ν; −1 I0*, −2 II*, −3 III*, −4 IV*, −4 − ν I_ν*. */
export function kodairaSymbol(code: number): string {
  const named: Record<number, string> = { 0: 'I0', 1: 'II', 2: 'III', 3: 'IV', [-1]: 'I0*', [-2]: 'II*', [-3]: 'III*', [-4]: 'IV*' };
  if (named[code] !== undefined) return named[code];
  return code > 4 ? `I${code - 4}` : `I${-code - 4}*`;
}

function pollOf(context: CapabilityContext): () => void {
  return () => {
    if (context.signal.aborted || Date.now() >= context.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's budget ended while our exact recheck was running; nothing was concluded");
  };
}

// ——— invariants ———

const LocalData = z
  .object({
    prime: z.string(),
    conductor_exponent: z.number().int().describe('f_p, the exponent of p in the conductor'),
    reduction: z.enum(['multiplicative', 'additive']).describe('multiplicative when f_p = 1, additive when f_p ≥ 2'),
    kodaira_symbol: z.string().describe('the Kodaira–Néron type of the special fibre: I_n, II, III, IV, I_n*, II*, III*, IV*'),
    tamagawa_number: z.string().describe('c_p = [E(Q_p) : E⁰(Q_p)]'),
    discriminant_valuation: z.number().int().describe('v_p(Δ_min)'),
  })
  .strict();

export const EllipticInvariantsOutput = z
  .object({
    curve: Coefficients.describe('the curve as given, canonical'),
    discriminant: z.string().describe('Δ of the given model'),
    j_invariant: z.string().describe('j = c₄³/Δ'),
    c4: z.string(),
    c6: z.string(),
    minimal_model: z
      .object({
        coefficients: Coefficients.describe('a global minimal model over Z (reduced: a₁, a₃ ∈ {0, 1}, a₂ ∈ {−1, 0, 1})'),
        change: z.object({ u: z.string(), r: z.string(), s: z.string(), t: z.string() }).strict().describe('x = u²x′ + r, y = u³y′ + su²x′ + t takes the given model to the minimal one'),
        discriminant: z.string().describe('the minimal discriminant Δ_min = Δ/u¹²'),
        change_checked: z.literal(true).describe('our exact substitution of the change into the given coefficients gives the minimal model'),
        minimality_checked_by_us: z.boolean().describe('true when at every prime v_p(c4) < 4, v_p(c6) < 6 or v_p(Δ_min) < 12, which proves minimality there'),
        minimality_left_to_pari: z.array(z.string()).describe('2 or 3 where that test does not decide minimality (Kraus\'s conditions: PARI/GP\'s)'),
      })
      .strict(),
    conductor: z.string().describe('the conductor N of E'),
    local_data: z.array(LocalData).describe('per prime of bad reduction (the primes dividing N)'),
    tamagawa_product: z.string().describe('Π c_p'),
    result_uri: z.string().nullable().describe('the change to the minimal model, stored as a claim for elliptic_curve.claim.verify'),
    engine: EngineSchema,
  })
  .strict();
export type EllipticInvariantsOutput = z.infer<typeof EllipticInvariantsOutput>;

/** elliptic_curve.invariants.compute on PARI/GP. */
export function ellipticInvariants(runtime: ProviderRuntime, options: PariBackendOptions = {}): CapabilityDefinition<CurveInput, EllipticInvariantsOutput> {
  const tools = requirePari(ELLIPTIC_INVARIANTS_ID, runtime, options);
  return {
    id: ELLIPTIC_INVARIANTS_ID,
    version: NUMBER_FIELD_VERSION,
    title: 'Elliptic curve invariants: discriminant, j-invariant, minimal model, conductor, Tamagawa numbers',
    description:
      'For an elliptic curve E over Q in Weierstrass form y² + a1xy + a3y = x³ + a2x² + a4x + a6 (integer or rational coefficients; a singular equation is refused): the discriminant Δ, the j-invariant, c4, c6, a global minimal model with the change of variables [u, r, s, t], the conductor N with, per bad prime, its exponent, the Kodaira symbol, the Tamagawa number c_p and v_p(Δ_min). Served by PARI/GP (ellinit, ellminimalmodel, ellglobalred, elllocalred: Tate\'s algorithm); our exact code recomputes Δ and j, substitutes the change of variables into the given coefficients, decides minimality from the valuations of c4, c6, Δ wherever they decide it (every p ≥ 5; 2 and 3 sometimes left to PARI), and checks that the conductor\'s primes are exactly the primes of Δ_min, with f_p = 1 only for I_ν, ν = v_p(Δ_min). The change of variables is stored as a claim for elliptic_curve.claim.verify.',
    tags: ['number-theory', 'elliptic-curve', 'arithmetic-geometry', 'pari-gp'],
    keywords: [
      'elliptic curve',
      'Weierstrass equation',
      'Weierstrass model',
      'minimal model',
      'global minimal model',
      'minimal discriminant',
      'j-invariant',
      'discriminant of an elliptic curve',
      'conductor',
      'Kodaira symbol',
      'Tamagawa number',
      'Tate algorithm',
      'bad reduction',
      'reduction type',
      'c4 c6 invariants',
      'change of variables',
      'ellminimalmodel',
      'ellglobalred',
    ],
    domain: 'elliptic_curve',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [ELLIPTIC_CURVE_CLAIM_SCHEMA_URI],
    input: CurveInput,
    output: EllipticInvariantsOutput,
    examples: [
      { title: 'The curve 37a1: y² + y = x³ − x, conductor 37', mode: 'EXPLORE', payload: { curve: [0, 0, 1, -1, 0] } },
      { title: 'A non-minimal model with a fraction: y² + xy/2 = x³ + 3x + 1', mode: 'EXPLORE', payload: { curve: ['1/2', 0, 0, 3, 1] } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: ELLIPTIC_CLAIM_VERIFY_ID }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the elliptic curve given by these Weierstrass coefficients.',
    limits: LIMITS,
    async run(input, context) {
      const { a, definitions } = curveOf(input.curve);
      const sections: GpSection[] = [
        { name: 'inv', statements: 'print(E.disc);print(E.j);' },
        { name: 'min', statements: 'M=ellminimalmodel(E,&v);jv([M.a1,M.a2,M.a3,M.a4,M.a6]);jv(v);' },
        { name: 'cond', statements: 'G=ellglobalred(M);print(G[1]);print(G[3]);F=G[4];for(i=1,matsize(F)[1],p=F[i,1];L=elllocalred(M,p);jv([p,F[i,2],L[1],L[2],L[4]]));' },
      ];
      const answer = await runPari(tools(), context, definitions, sections);
      const ours = curveInvariants(a);
      const disc = rationalOf(single(answer, 'inv', 0), 'Δ');
      const j = rationalOf(single(answer, 'inv', 1), 'j');
      if (!qEq(disc, ours.discriminant) || ours.j === null || !qEq(j, ours.j)) throw pariFailed('Δ or j differs from our exact computation');
      const min = section(answer, 'min');
      const model = (min[0] ?? []).map((x) => rationalOf(x, 'a minimal model coefficient'));
      const [u, r, s, t] = (min[1] ?? []).map((x) => rationalOf(x, 'the change of variables'));
      if (model.length !== 5 || u === undefined || r === undefined || s === undefined || t === undefined) throw pariFailed('the minimal model is not five coefficients and [u, r, s, t]');
      const minimal = changeModel(a, { u, r, s, t });
      if (!minimal.every((c, i) => qEq(c, model[i] as Rational)) || !isIntegralModel(minimal)) throw pariFailed('the change of variables does not give the integral minimal model PARI/GP printed');
      const inv = curveInvariants(minimal);
      const [c4, c6, dmin] = [inv.c4.num, inv.c6.num, inv.discriminant.num];
      const cond = section(answer, 'cond');
      const N = integerOf(single(answer, 'cond', 0), 'the conductor');
      const tamagawaProduct = integerOf(single(answer, 'cond', 1), 'the Tamagawa product');
      let rest = dmin < 0n ? -dmin : dmin;
      let product = 1n;
      let tamagawa = 1n;
      const local = cond.slice(2).map((row) => {
        const [e, f, kod, c] = row.slice(1).map((x) => smallIntegerOf(x, 'local data'));
        const prime = integerOf(row[0] ?? '', 'a bad prime');
        if (isPrimeProven(prime) === false) throw pariFailed(`the conductor's factor ${prime} is composite`);
        const v = valuation(dmin, prime);
        if (v === 0 || v === Number.POSITIVE_INFINITY) throw pariFailed(`the conductor's prime ${prime} does not divide Δ_min`);
        rest /= prime ** BigInt(v);
        product *= prime ** BigInt(e as number);
        tamagawa *= BigInt(c as number);
        const symbol = kodairaSymbol(kod as number);
        if (e !== f || (e as number) < 1 || (e as number) > (prime === 2n ? 8 : prime === 3n ? 5 : 2)) throw pariFailed(`the conductor exponent at ${prime} is out of range`);
        if ((e === 1) !== /^I[1-9]\d*$/.test(symbol) || (e === 1 && symbol !== `I${v}`)) throw pariFailed(`the reduction type ${symbol} at ${prime} disagrees with f_p = ${e} and v_p(Δ_min) = ${v}`);
        return { prime: prime.toString(), conductor_exponent: e as number, reduction: e === 1 ? ('multiplicative' as const) : ('additive' as const), kodaira_symbol: symbol, tamagawa_number: String(c), discriminant_valuation: v };
      });
      if (rest !== 1n) throw pariFailed(`Δ_min has prime factors outside the conductor (${rest} is left)`);
      // Minimality: no p-integral model has a smaller v_p(Δ) when v_p(c4) < 4, v_p(c6) < 6 or v_p(Δ) < 12 (c4, c6, Δ scale by
      // u⁻⁴, u⁻⁶, u⁻¹²); for p ≥ 5 that is also necessary. Only primes of Δ_min can fail it, and those are the conductor's (just checked).
      const leftToPari: string[] = [];
      for (const { prime } of local) {
        const p = BigInt(prime);
        if (valuation(c4, p) >= 4 && valuation(c6, p) >= 6 && valuation(dmin, p) >= 12) {
          if (p >= 5n) throw pariFailed(`the "minimal" model is not minimal at ${p}`);
          leftToPari.push(prime);
        }
      }
      if (product !== N || tamagawa !== tamagawaProduct) throw pariFailed('the local data do not multiply to the conductor and the Tamagawa product');
      const diagnostics: Diagnostic[] = [];
      const claim = EllipticCurveClaimSchema.parse({ curve: input.curve, model_change: { change: { u: q(u), r: q(r), s: q(s), t: q(t) }, model: minimal.map(q) } });
      const resultUri = await storeClaim({ schema_uri: ELLIPTIC_CURVE_CLAIM_SCHEMA_URI, semantics_uri: ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: { model_change: true } }, context, diagnostics);
      const output: EllipticInvariantsOutput = {
        curve: [...input.curve],
        discriminant: q(ours.discriminant),
        j_invariant: q(j),
        c4: q(ours.c4),
        c6: q(ours.c6),
        minimal_model: {
          coefficients: minimal.map(q),
          change: { u: q(u), r: q(r), s: q(s), t: q(t) },
          discriminant: dmin.toString(),
          change_checked: true,
          minimality_checked_by_us: leftToPari.length === 0,
          minimality_left_to_pari: leftToPari,
        },
        conductor: N.toString(),
        local_data: local,
        tamagawa_product: tamagawaProduct.toString(),
        result_uri: resultUri,
        engine: engine(runtime, 'PARI/GP ellinit, ellminimalmodel, ellglobalred and elllocalred (Tate\'s algorithm); Δ, j, the change of variables, minimality by valuations and the conductor\'s primes rechecked by our exact arithmetic', answer.runtimeMs),
      };
      return pariOutcome(output, `the invariants of the elliptic curve [${input.curve.join(', ')}]`, {
        completeness: 'PARI/GP ran to the end and every recheck passed',
        assurance: `computed by PARI/GP; our exact code recomputed Δ, j, c4, c6, substituted the change of variables, decided minimality by valuations${leftToPari.length > 0 ? ` (at ${leftToPari.join(', ')} it is PARI/GP's, by Kraus's conditions)` : ''}, and checked the conductor's primes against Δ_min; the conductor exponents, Kodaira symbols and Tamagawa numbers are PARI/GP's (Tate's algorithm), not independently verified`,
        artifactUris: resultUri === null ? [] : [resultUri],
        diagnostics,
      });
    },
  };
}

// ——— torsion ———

export const EllipticTorsionOutput = z
  .object({
    curve: Coefficients,
    order: z.number().int().describe('#E(Q)_tors'),
    structure: z.array(z.number().int()).describe('[n] for Z/n, [n₂, n₁] for Z/n₂ × Z/n₁ (n₁ | n₂), [] for the trivial group'),
    structure_text: z.string().describe('e.g. "Z/2 × Z/8"'),
    generators: z.array(Point).describe('one generator per invariant, of exactly that order, on the given model'),
    generators_checked: z.literal(true).describe('each generator is on the curve and has exactly the stated order, and together they generate a subgroup of the stated order: by our exact arithmetic'),
    completeness_proven_by_us: z.boolean().describe('true when the gcd of #Ẽ(F_p) over the bound primes equals the order: then this is the whole torsion subgroup by our own proof'),
    bound_primes: z.array(z.number().int()).describe('the odd primes of good reduction used for the bound (torsion injects into Ẽ(F_p))'),
    torsion_bound: z.string().describe('gcd of #Ẽ(F_p) over bound_primes, a multiple of #E(Q)_tors'),
    result_uri: z.string().nullable().describe('the claim stored for elliptic_curve.claim.verify'),
    engine: EngineSchema,
  })
  .strict();
export type EllipticTorsionOutput = z.infer<typeof EllipticTorsionOutput>;

/** Odd primes below the limit that divide no denominator nor Δ, and the gcd of the point counts there, stopping once it equals `order`. */
export function torsionBound(a: Weierstrass, order: bigint, poll: () => void): { primes: number[]; bound: bigint } {
  const disc = curveInvariants(a).discriminant;
  const primes: number[] = [];
  let bound = 0n;
  for (const p of smallPrimes(ELLIPTIC_CURVE_LIMITS.maxBoundPrime)) {
    if (p === 2) continue;
    const P = BigInt(p);
    if (disc.num % P === 0n || a.some((c) => c.den % P === 0n)) continue;
    poll();
    const count = countPointsModP(a, P);
    bound = bound === 0n ? count : gcd(bound, count);
    primes.push(p);
    if (bound === order || primes.length >= ELLIPTIC_CURVE_LIMITS.maxBoundPrimes) break;
  }
  return { primes, bound };
}

/** elliptic_curve.torsion.compute on PARI/GP. */
export function ellipticTorsion(runtime: ProviderRuntime, options: PariBackendOptions = {}): CapabilityDefinition<CurveInput, EllipticTorsionOutput> {
  const tools = requirePari(ELLIPTIC_TORSION_ID, runtime, options);
  return {
    id: ELLIPTIC_TORSION_ID,
    version: NUMBER_FIELD_VERSION,
    title: 'Torsion subgroup of an elliptic curve over Q, with generators',
    description:
      'The torsion subgroup E(Q)_tors of an elliptic curve over Q (Weierstrass coefficients, integers or fractions): its order, structure (one of Mazur\'s fifteen: Z/n for n ≤ 10 or 12, Z/2 × Z/2m for m ≤ 4) and generators. Served by PARI/GP (elltors); our exact rational arithmetic checks that each generator lies on the curve and has exactly its order ([n]P = O, [n/q]P ≠ O), that they generate a subgroup of the stated order, and bounds the torsion by gcd #Ẽ(F_p) over odd primes of good reduction: when that bound equals the order, completeness is proven by us too. The claim is stored for elliptic_curve.claim.verify.',
    tags: ['number-theory', 'elliptic-curve', 'torsion', 'arithmetic-geometry', 'pari-gp'],
    keywords: ['torsion subgroup', 'torsion points', 'rational torsion', 'Mazur theorem', 'Mazur torsion', 'points of finite order', 'Nagell–Lutz', 'elliptic curve', 'elltors', 'reduction modulo p', 'E(Q)_tors', 'Z/2 x Z/8'],
    domain: 'elliptic_curve',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [ELLIPTIC_CURVE_CLAIM_SCHEMA_URI],
    input: CurveInput,
    output: EllipticTorsionOutput,
    examples: [
      { title: 'The curve 14a1: torsion Z/6', mode: 'EXPLORE', payload: { curve: [1, 0, 1, 4, -6] } },
      { title: 'The curve 210e2: torsion Z/2 × Z/8', mode: 'EXPLORE', payload: { curve: [1, 0, 0, -1070, 7812] } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: ELLIPTIC_CLAIM_VERIFY_ID }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the elliptic curve given by these Weierstrass coefficients, over Q.',
    limits: { ...LIMITS, max_bound_primes: ELLIPTIC_CURVE_LIMITS.maxBoundPrimes, max_bound_prime: ELLIPTIC_CURVE_LIMITS.maxBoundPrime },
    async run(input, context) {
      const { a, definitions } = curveOf(input.curve);
      const sections: GpSection[] = [{ name: 'tors', statements: 'T=elltors(E);print(T[1]);jv(T[2]);for(i=1,#T[3],jv(T[3][i]));' }];
      const answer = await runPari(tools(), context, definitions, sections);
      const rows = section(answer, 'tors');
      const order = smallIntegerOf(single(answer, 'tors', 0), 'the torsion order');
      const structure = (rows[1] ?? []).map((x) => smallIntegerOf(x, 'a torsion invariant'));
      const generators = rows.slice(2).map((row, i) => pointOfRow(row, `torsion generator ${i + 1}`));
      const pair: readonly [number, number] = structure.length === 2 ? [structure[1] as number, structure[0] as number] : [1, structure[0] ?? 1];
      if (!MAZUR_STRUCTURES.some(([n1, n2]) => n1 === pair[0] && n2 === pair[1]) || structure.reduce((p, n) => p * n, 1) !== order || generators.length !== structure.length) throw pariFailed(`elltors gave an impossible structure ${JSON.stringify(structure)} of order ${order}`);
      generators.forEach((P, i) => {
        if (!isOnCurve(a, P) || !hasExactOrder(a, P, structure[i] as number)) throw pariFailed(`torsion generator ${i + 1} is not on the curve or has not order ${structure[i]}`);
      });
      if (torsionSubgroup(a, generators)?.length !== order) throw pariFailed(`the generators do not generate a subgroup of order ${order}`);
      const { primes, bound } = torsionBound(a, BigInt(order), pollOf(context));
      const complete = bound === BigInt(order);
      const diagnostics: Diagnostic[] = [];
      const claim = EllipticCurveClaimSchema.parse({
        curve: input.curve,
        torsion: { structure, generators: generators.map(pointOut), ...(complete ? { bound_primes: primes } : {}) },
      });
      const resultUri = await storeClaim({ schema_uri: ELLIPTIC_CURVE_CLAIM_SCHEMA_URI, semantics_uri: ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: { torsion_order: order, complete } }, context, diagnostics);
      const text = structure.length === 0 ? 'trivial' : structure.map((n) => `Z/${n}`).reverse().join(' × ');
      const output: EllipticTorsionOutput = {
        curve: [...input.curve],
        order,
        structure,
        structure_text: text,
        generators: generators.map(pointOut),
        generators_checked: true,
        completeness_proven_by_us: complete,
        bound_primes: primes,
        torsion_bound: bound.toString(),
        result_uri: resultUri,
        engine: engine(runtime, 'PARI/GP elltors; orders, the subgroup and the reduction bound by our exact rational arithmetic', answer.runtimeMs),
      };
      return pariOutcome(output, `the torsion subgroup E(Q)_tors of the elliptic curve [${input.curve.join(', ')}]`, {
        completeness: complete ? `PARI/GP ran to the end; our bound gcd #Ẽ(F_p) over ${primes.length} primes equals the order, so this is the whole torsion subgroup` : `PARI/GP ran to the end; our reduction bound is ${bound} (a multiple of the order, as for curves isogenous to one with more torsion), so completeness is PARI/GP's`,
        assurance: complete
          ? 'computed by PARI/GP (elltors); the generators, their orders, the subgroup and its completeness (reduction bound) were rechecked by our exact arithmetic; elliptic_curve.claim.verify verifies the stored claim independently'
          : 'computed by PARI/GP (elltors); the generators, their orders and the subgroup were rechecked by our exact arithmetic; that no other torsion exists is PARI/GP\'s',
        artifactUris: resultUri === null ? [] : [resultUri],
        diagnostics,
      });
    },
  };
}

// ——— rank bounds ———

export const EllipticRankOutput = z
  .object({
    curve: Coefficients,
    rank_lower_bound: z.number().int().describe('a lower bound for the Mordell–Weil rank'),
    rank_upper_bound: z.number().int().describe('an upper bound for the Mordell–Weil rank (2-descent)'),
    rank_determined: z.boolean().describe('true only when the bounds are equal'),
    rank: z.number().int().nullable().describe('the rank, only when the bounds are equal (under the assumptions stated); null otherwise: a bound is never a rank'),
    assumptions: z.string().describe('what the bounds rest on'),
    two_torsion_point: Point.nullable().describe('a rational point of order 2 (checked by us) when E has one: then the 2-descent needs no class group and the upper bound does not assume GRH'),
    sha_information: z.number().int().describe('PARI/GP\'s s: the 2-rank of Ш[2]/2Ш[4] found with the Cassels pairing'),
    points: z.array(Point).describe('independent points of infinite order that ellrank found, on the given model'),
    points_checked: z.literal(true).describe('each point is on the curve and of infinite order (no multiple up to 12 is O: Mazur), by our exact arithmetic'),
    result_uri: z.string().nullable().describe('the points stored as a claim for elliptic_curve.claim.verify'),
    engine: EngineSchema,
  })
  .strict();
export type EllipticRankOutput = z.infer<typeof EllipticRankOutput>;

/**
 * What the bounds rest on. PARI/GP's ellrank (a port of Denis Simon's ellQ.gp) computes the
 * 2-Selmer group in the algebra Q[x]/(f) of the 2-division polynomial f: for an irreducible cubic
 * f it runs bnfinit on it (makevbnf calls Buchall with nf_FORCE in ellrank.c), whose class group
 * and units are conditional on GRH; when f has a rational root (a rational 2-torsion point) the
 * factors have degree ≤ 2 and it uses nfinit with Hilbert symbols only. We read that in a 2024
 * copy of PARI's ellrank.c; the release installed is named in the engine record.
 */
function rankAssumptions(twoTorsion: boolean, lowerBeyondPoints: boolean): string {
  const upper = twoTorsion
    ? 'The upper bound comes from PARI/GP\'s 2-descent (ellrank: the 2-Selmer rank, the 2-torsion rank and s from the Cassels pairing); E has a rational 2-torsion point (exhibited and checked by us), so the descent needs no class group computation and the bound does not rest on GRH.'
    : 'The upper bound comes from PARI/GP\'s 2-descent (ellrank: the 2-Selmer rank, the 2-torsion rank and s from the Cassels pairing); E has no rational 2-torsion point that we could exhibit, so the descent computes the class group and units of the cubic field of the 2-division polynomial with bnfinit, conditional on GRH: the upper bound assumes GRH.';
  const lower = lowerBeyondPoints
    ? 'The lower bound exceeds the number of points found: the rest comes from the parity in PARI/GP\'s descent (2-Selmer rank = 2-torsion rank + rank + the 2-rank of Ш[2], the latter even when Ш(E)[2^∞] is finite, which is conjectured, not proven), so that part assumes Ш(E)[2^∞] finite.'
    : 'The lower bound is the number of independent points PARI/GP found (independence from its height pairing, computed numerically).';
  return `${upper} ${lower} Our exact check of the points proves rank ≥ 1 whenever one is found.`;
}

/** elliptic_curve.rank.bound on PARI/GP. */
export function ellipticRankBound(runtime: ProviderRuntime, options: PariBackendOptions = {}): CapabilityDefinition<RankInput, EllipticRankOutput> {
  const tools = requirePari(ELLIPTIC_RANK_ID, runtime, options);
  return {
    id: ELLIPTIC_RANK_ID,
    version: NUMBER_FIELD_VERSION,
    title: 'Mordell–Weil rank bounds of an elliptic curve over Q (2-descent), with points',
    description:
      'Lower and upper bounds for the Mordell–Weil rank of E(Q) (PARI/GP ellrank: 2-descent with the Cassels pairing), labelled as bounds, with the independent points of infinite order found. The rank is reported only when the bounds agree, with the assumptions it rests on (without a rational 2-torsion point the descent runs bnfinit on a cubic field, so the upper bound assumes GRH). Our exact rational arithmetic checks each point on the curve and of infinite order (Mazur: no multiple up to 12 is O). The points are stored as a claim for elliptic_curve.claim.verify.',
    tags: ['number-theory', 'elliptic-curve', 'rank', 'descent', 'arithmetic-geometry', 'pari-gp'],
    keywords: ['Mordell–Weil rank', 'rank of an elliptic curve', 'rank bounds', 'algebraic rank', '2-descent', 'Selmer group', 'Tate–Shafarevich group', 'Sha', 'rational points', 'points of infinite order', 'Mordell–Weil group', 'generators', 'ellrank', 'Birch and Swinnerton-Dyer'],
    domain: 'elliptic_curve',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [ELLIPTIC_CURVE_CLAIM_SCHEMA_URI],
    input: RankInput,
    output: EllipticRankOutput,
    examples: [
      { title: 'The curve 389a1: y² + y = x³ + x² − 2x, rank 2', mode: 'EXPLORE', payload: { curve: [0, 1, 1, -2, 0] } },
      { title: 'The curve 5077a1 (rank 3) with more effort', mode: 'EXPLORE', payload: { curve: [0, 0, 1, -7, 6], effort: 2 } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: ELLIPTIC_CLAIM_VERIFY_ID }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the elliptic curve given by these Weierstrass coefficients, over Q: bounds on its rank, not the rank unless they agree.',
    limits: { ...LIMITS, max_effort: 10 },
    async run(input, context) {
      const { a, definitions } = curveOf(input.curve);
      const sections: GpSection[] = [
        { name: 'rank', statements: `setrand(1);R=ellrank(E,${input.effort});jv(R[1..3]);for(i=1,#R[4],jv(R[4][i]));` },
        { name: 'tors', statements: 'T=elltors(E);jv(T[2]);for(i=1,#T[3],jv(T[3][i]));' },
      ];
      const answer = await runPari(tools(), context, definitions, sections);
      const rows = section(answer, 'rank');
      const [lower, upper, s] = (rows[0] ?? []).map((x) => smallIntegerOf(x, 'a rank bound'));
      if (lower === undefined || upper === undefined || s === undefined || lower < 0 || lower > upper) throw pariFailed('ellrank gave no bounds lower ≤ upper');
      const points = rows.slice(1).map((row, i) => pointOfRow(row, `point ${i + 1}`));
      if (points.length > lower) throw pariFailed(`ellrank found ${points.length} independent points but a lower bound of ${lower}`);
      points.forEach((P, i) => {
        if (!isOnCurve(a, P) || pointOrder(a, P) !== null) throw pariFailed(`point ${i + 1} is not on the curve or has finite order`);
      });
      const diagnostics: Diagnostic[] = [];
      const claim = EllipticCurveClaimSchema.parse({ curve: input.curve, points: points.map((P) => ({ point: pointOut(P), order: 'infinite' })) });
      const resultUri = points.length === 0 ? null : await storeClaim({ schema_uri: ELLIPTIC_CURVE_CLAIM_SCHEMA_URI, semantics_uri: ELLIPTIC_CURVE_CLAIM_SEMANTICS_URI, payload: claim, parents: [], summary: { points: points.length } }, context, diagnostics);
      // A rational 2-torsion point, exhibited from elltors's generators and checked exactly: then the descent is GRH-free.
      const tors = section(answer, 'tors');
      const invariants = (tors[0] ?? []).map((x) => smallIntegerOf(x, 'a torsion invariant'));
      let twoTorsion: CurvePoint = null;
      invariants.forEach((n, i) => {
        if (twoTorsion !== null || n % 2 !== 0) return;
        const Q = multiplyPoint(a, pointOfRow(tors[i + 1], `torsion generator ${i + 1}`), BigInt(n / 2));
        if (Q !== null && isOnCurve(a, Q) && hasExactOrder(a, Q, 2)) twoTorsion = Q;
      });
      const grhFree = twoTorsion !== null;
      const determined = lower === upper;
      const output: EllipticRankOutput = {
        curve: [...input.curve],
        rank_lower_bound: lower,
        rank_upper_bound: upper,
        rank_determined: determined,
        rank: determined ? lower : null,
        assumptions: rankAssumptions(grhFree, lower > points.length),
        two_torsion_point: twoTorsion === null ? null : pointOut(twoTorsion),
        sha_information: s,
        points: points.map(pointOut),
        points_checked: true,
        result_uri: resultUri,
        engine: engine(runtime, `PARI/GP ellrank (2-descent), effort ${input.effort}, setrand(1); points rechecked by our exact arithmetic`, answer.runtimeMs),
      };
      return pariOutcome(output, `bounds on the Mordell–Weil rank of the elliptic curve [${input.curve.join(', ')}] over Q`, {
        completeness: determined ? `PARI/GP ran to the end; the bounds agree: rank ${lower} under the stated assumptions` : `PARI/GP ran to the end; the rank lies in [${lower}, ${upper}], not determined`,
        assurance: `computed by PARI/GP (ellrank); ${points.length > 0 ? `our exact arithmetic checked the ${points.length} point(s) on the curve and of infinite order, proving rank ≥ 1; ` : ''}the bounds are PARI/GP's${grhFree ? ' (a rational 2-torsion point, checked by us: the 2-descent uses no class group, so no GRH)' : ', the upper one conditional on GRH (bnfinit on the cubic field of the 2-division polynomial)'}`,
        qualifiers: ['BOUNDED', 'DETERMINISTIC'],
        obligations: [
          ...(grhFree ? [] : [{ id: GRH_OBLIGATION_ID, statement: 'the upper bound rests on the class group and units of the cubic field of the 2-division polynomial (bnfinit inside the 2-descent), conditional on the Generalized Riemann Hypothesis', status: 'OPEN' as const, discharged_by: [] }]),
          ...(lower > points.length ? [{ id: 'sha-finite', statement: `the lower bound ${lower} exceeds the ${points.length} point(s) found: the excess comes from a parity argument that assumes Ш(E)[2^∞] finite`, status: 'OPEN' as const, discharged_by: [ELLIPTIC_RANK_ID] }] : []),
        ],
        artifactUris: resultUri === null ? [] : [resultUri],
        diagnostics,
      });
    },
  };
}

/** The capabilities of this pack, each registered on PARI/GP only. */
export const ELLIPTIC_CURVE_FACTORIES = [ellipticInvariants, ellipticTorsion, ellipticRankBound] as const;

/**
 * The polynomial capabilities beyond Groebner bases:
 *
 * - `polynomial.expression.normalize`: parse polynomial texts and return their canonical form
 *   (our TypeScript only);
 * - `polynomial.gcd.compute`: the normalized gcd of polynomials (Singular `gcd`, or our
 *   TypeScript: Euclid for univariate input, recursive primitive remainder sequences otherwise);
 * - `polynomial.resultant.compute`: the resultant of two polynomials with respect to a variable
 *   (Singular `resultant`, or our Sylvester matrix with fraction-free Bareiss elimination);
 * - `polynomial.factor.compute`: the factorization into irreducibles with multiplicities and a
 *   unit (Singular `factorize` only: we have no factorization algorithm of our own, so it
 *   registers only where Singular is healthy); the claim is stored for polynomial.factor.verify;
 * - `polynomial.ideal_membership.decide` lives in membership-capability.ts.
 *
 * As for Groebner bases, every polynomial is parsed by our grammar in this process first (a bad
 * request is an INVALID_REQUEST naming the field before any engine starts), Singular sees only
 * polynomials we printed over renamed variables, and its answers are parsed back by our parser.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  FACTORIZATION_SCHEMA_URI,
  FACTORIZATION_SEMANTICS_URI,
  FactorizationClaimSchema,
  JacobianError,
  parsePolynomial,
  parsePolynomials,
  POLYNOMIAL_LIMITS,
  POLYNOMIAL_LIST_SCHEMA_URI,
  POLYNOMIAL_SOURCES,
  polynomialFromJson,
  PolynomialJsonSchema,
  polynomialToJson,
  printPolynomial,
  resolveRing,
  RingSpecSchema,
  ringSpecOf,
  runKernel,
  sourceProviderRuntime,
  toAppError,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type FactorizationClaim,
  type Diagnostic,
  type Polynomial,
  type PolynomialRing,
  type ProviderProbe,
  type ProviderRuntime,
  type StoredArtifact,
} from '@jacobian/shared';
import { checkSingularField, checkSingularIdentity, runSingularProgram, SINGULAR_PROVIDER, type SingularTools } from '../providers/singular.js';
import { RUNNER_VERSION } from '../version.js';
import { degreeIn, MAX_SYLVESTER_SIZE, normalizeAssociate } from './algebra.js';

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** The provider name of our TypeScript polynomial algebra (normalize, gcd, resultant, membership). */
export const ALGEBRA_TS_PROVIDER = 'jacobian-polynomial-algebra-ts';
/** The files of that provider; its SOURCE_TREE digest covers them and the shared polynomial core. */
export const ALGEBRA_TS_SOURCES: readonly string[] = [
  here('./algebra-capabilities.ts'),
  here('./membership-capability.ts'),
  here('./algebra.ts'),
  here('./algebra.kernel.ts'),
  here('./groebner.ts'),
  here('../providers/singular.ts'),
];
const ALGEBRA_TS_FEATURES = ['canonical-form', 'gcd-euclid-univariate', 'gcd-recursive-prs-multivariate', 'resultant-sylvester-bareiss', 'ideal-membership-cofactors', 'fields-Q-GF(p)'];

/** Our TypeScript provider for registration, identified by the digest of its sources. */
export function algebraTsProvider(): ProviderProbe {
  return {
    name: ALGEBRA_TS_PROVIDER,
    probe: () => sourceProviderRuntime({ provider: ALGEBRA_TS_PROVIDER, version: RUNNER_VERSION, files: [...ALGEBRA_TS_SOURCES, ...POLYNOMIAL_SOURCES], features: ALGEBRA_TS_FEATURES }),
  };
}

/** What a capability needs of a Singular provider: the tools its probe vouched for. */
export interface AlgebraBackendOptions {
  singular?: { readonly tools: SingularTools | undefined };
}

export const NORMALIZE_CAPABILITY_ID = 'polynomial.expression.normalize';
export const GCD_CAPABILITY_ID = 'polynomial.gcd.compute';
export const RESULTANT_CAPABILITY_ID = 'polynomial.resultant.compute';
export const FACTOR_CAPABILITY_ID = 'polynomial.factor.compute';
const FACTOR_VERIFY_ID = 'polynomial.factor.verify';
const VERSION = '1.0.0';

/** Meaning of a stored normalized list: the canonical forms of the given texts, in order. */
export const NORMALIZED_LIST_SEMANTICS_URI = 'jacobian:semantics/polynomial.list.normalized/v1';
/** Meaning of a stored one-element list holding the normalized gcd of the inputs. */
export const GCD_SEMANTICS_URI = 'jacobian:semantics/polynomial.gcd.normalized/v1';
/** Meaning of a stored one-element list holding the resultant. */
export const RESULTANT_SEMANTICS_URI = 'jacobian:semantics/polynomial.resultant/v1';

const Text = z.string().min(1).max(POLYNOMIAL_LIMITS.maxTextLength);
const Ring = RingSpecSchema.describe('the polynomial ring: field ({kind: "Q"} or {kind: "GF", characteristic: "<prime>"}), variables in decreasing order, and the monomial order (it fixes the canonical term order)');
const Int = z.number().int();
const EngineSchema = z.object({ provider: z.string(), version: z.string(), method: z.string(), compute_ms: Int }).strict();
const Q_XY = { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'grevlex' };

function notRetained(what: string, reason: string): Diagnostic {
  return { severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED', stage: 'ARTIFACT', message: `${what} was not stored: ${reason}`.slice(0, 2000), path: null, hint: 'the answer in the output stands' };
}

/** Store an artifact; a SIZE_LIMIT_EXCEEDED becomes a warning and null. */
export async function storeOrWarn(what: string, draft: Parameters<CapabilityContext['artifacts']['put']>[0], context: CapabilityContext, diagnostics: Diagnostic[]): Promise<StoredArtifact | null> {
  try {
    return await context.artifacts.put(draft, { signal: context.signal });
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
    diagnostics.push(notRetained(what, appError.message));
    return null;
  }
}

/** Bounds of a Singular run from the request's budget. */
export function singularRunOptions(context: CapabilityContext): { signal: AbortSignal; deadline: number; maxOutputBytes: number; memoryMb: number } {
  return { signal: context.signal, deadline: context.deadline, maxOutputBytes: Math.min(256 * 1024 * 1024, Math.max(16 * 1024 * 1024, 4 * context.budget.max_output_bytes)), memoryMb: context.budget.memory_mb };
}

/** The runtime is Singular (with probed tools) or ours; anything else is a registration error. */
export function backendOf(id: string, runtime: ProviderRuntime, options: AlgebraBackendOptions, allowTs: boolean): SingularTools | null {
  if (runtime.provider === SINGULAR_PROVIDER) {
    const tools = options.singular?.tools;
    if (tools === undefined) throw new JacobianError('REGISTRATION_INVALID', `${id} on Singular needs the tools its probe found`);
    return tools;
  }
  if (allowTs && runtime.provider === ALGEBRA_TS_PROVIDER) return null;
  throw new JacobianError('REGISTRATION_INVALID', `${id} runs on ${SINGULAR_PROVIDER}${allowTs ? ` or ${ALGEBRA_TS_PROVIDER}` : ' only'}, not ${runtime.provider}`);
}

function exactOutcome<O>(output: O, statement: string, basis: string, assurance: string, artifactUris: string[], diagnostics: Diagnostic[]): CapabilityOutcome<O> {
  return {
    status: 'COMPLETED',
    output,
    scope: { kind: 'EXACT_INPUT', statement: statement.slice(0, 2000), input_uris: [] },
    completeness: { status: 'COMPLETE', basis: basis.slice(0, 1000) },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: { level: 'COMPUTED', basis: assurance.slice(0, 1000), verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: artifactUris,
    diagnostics,
  };
}

function ringName(ring: PolynomialRing<unknown>): string {
  return `${ring.field.name}[${ring.arity <= 12 ? ring.variables.join(', ') : `${ring.arity} variables`}]`;
}

// ---------------------------------------------------------------------------------------------
// polynomial.expression.normalize

export const NormalizeInput = z
  .object({
    ring: Ring,
    polynomials: z.array(Text).min(1).max(POLYNOMIAL_LIMITS.maxPolynomials).describe('polynomial texts in the ring\'s variables, e.g. "(x + y)^2 - 2*x*y", "x/2 + 1/2"'),
  })
  .strict();
export type NormalizeInput = z.infer<typeof NormalizeInput>;

export const NormalizeOutput = z
  .object({
    ring: RingSpecSchema,
    polynomials: z.array(z.string()).describe('the canonical text of each input, in order: expanded, like terms merged, terms decreasing in the ring\'s order'),
    terms: z.array(Int).describe('the number of terms of each'),
    degrees: z.array(Int).describe('the total degree of each (-1 for zero)'),
    result_uri: z.string().nullable().describe(`the canonical forms as a stored polynomial list (${POLYNOMIAL_LIST_SCHEMA_URI}), usable as generators_uri; null when not retained`),
  })
  .strict();
export type NormalizeOutput = z.infer<typeof NormalizeOutput>;

/** polynomial.expression.normalize, on our TypeScript provider only. */
export function expressionNormalize(runtime: ProviderRuntime): CapabilityDefinition<NormalizeInput, NormalizeOutput> {
  backendOf(NORMALIZE_CAPABILITY_ID, runtime, {}, true);
  if (runtime.provider !== ALGEBRA_TS_PROVIDER) throw new JacobianError('REGISTRATION_INVALID', `${NORMALIZE_CAPABILITY_ID} runs on ${ALGEBRA_TS_PROVIDER} only`);
  return {
    id: NORMALIZE_CAPABILITY_ID,
    version: VERSION,
    title: 'Normalize polynomial expressions to canonical form',
    description:
      'Parses polynomial texts over Q or GF(p) in the stated variables (integers, + - * ^, division by integer literals, parentheses) and returns each in canonical form: expanded, like terms merged, zero terms dropped, terms decreasing in the ring\'s monomial order, coefficients exact in lowest terms (residues 0 ≤ a < p over GF(p)). Equal polynomials get equal texts, so this also decides whether two expressions are equal. The forms are stored as a typed polynomial list.',
    tags: ['polynomial', 'normalize', 'canonical-form', 'expand', 'simplify', 'typescript'],
    keywords: ['expand a polynomial', 'simplify', 'normal form', 'canonical form', 'collect terms', 'polynomial arithmetic', 'multiply out'],
    domain: 'polynomial',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [POLYNOMIAL_LIST_SCHEMA_URI],
    input: NormalizeInput,
    output: NormalizeOutput,
    examples: [{ title: 'Expand (x + y)^2 - 2*x*y and x/2 + 1/2 over Q', mode: 'EXPLORE', payload: { ring: Q_XY, polynomials: ['(x + y)^2 - 2*x*y', 'x/2 + 1/2'] } }],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given texts in the given ring and order: their canonical forms.',
    limits: { max_variables: POLYNOMIAL_LIMITS.maxVariables, max_polynomials: POLYNOMIAL_LIMITS.maxPolynomials, max_text_length: POLYNOMIAL_LIMITS.maxTextLength, max_terms: POLYNOMIAL_LIMITS.maxTerms },
    async run(input, context) {
      const ring = resolveRing(input.ring, ['payload', 'ring']);
      const polynomials = parsePolynomials(ring, input.polynomials, { path: ['payload', 'polynomials'] });
      const diagnostics: Diagnostic[] = [];
      const stored = await storeOrWarn(
        'the normalized list',
        {
          schema_uri: POLYNOMIAL_LIST_SCHEMA_URI,
          semantics_uri: NORMALIZED_LIST_SEMANTICS_URI,
          payload: { ring: ringSpecOf(ring), polynomials: polynomials.map((p) => polynomialToJson(ring, p)) },
          parents: [],
          summary: { field: ring.field.name, variables: ring.arity, order: ring.order, polynomials: polynomials.length },
        },
        context,
        diagnostics,
      );
      return exactOutcome(
        {
          ring: ringSpecOf(ring),
          polynomials: polynomials.map((p) => printPolynomial(ring, p)),
          terms: polynomials.map((p) => p.length),
          degrees: polynomials.map((p) => ring.degree(p)),
          result_uri: stored?.uri ?? null,
        },
        `the canonical forms of the ${polynomials.length} given text${polynomials.length === 1 ? '' : 's'} in ${ringName(ring)}, ${ring.order}`,
        'every text was parsed and expanded exactly',
        'parsed and expanded by our polynomial grammar and reference arithmetic',
        stored === null ? [] : [stored.uri],
        diagnostics,
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// polynomial.gcd.compute

const GCD_NORMALIZATION =
  'monic over GF(p); over Q primitive: integer coefficients with gcd 1 and a positive leading coefficient (leading in the ring\'s monomial order); the gcd of only zeros is 0, of coprime inputs 1';

export const GcdInput = z
  .object({
    ring: Ring,
    polynomials: z.array(Text).min(1).max(POLYNOMIAL_LIMITS.maxPolynomials).describe('the polynomials, e.g. ["x^2 - 1", "x^2 + 2*x + 1"]'),
  })
  .strict();
export type GcdInput = z.infer<typeof GcdInput>;

export const GcdOutput = z
  .object({
    ring: RingSpecSchema,
    gcd: z.string().describe(`the greatest common divisor in canonical text, normalized: ${GCD_NORMALIZATION}`),
    normalization: z.string(),
    degree: Int.describe('its total degree (-1 for 0)'),
    result_uri: z.string().nullable().describe(`the gcd as a stored one-element polynomial list (${POLYNOMIAL_LIST_SCHEMA_URI}); null when not retained`),
    engine: EngineSchema,
  })
  .strict();
export type GcdOutput = z.infer<typeof GcdOutput>;

const GCD_KERNEL = { module: here('./algebra.kernel.ts'), exportName: 'gcdKernel' };

/** polynomial.gcd.compute on Singular or our TypeScript engine. */
export function gcdCompute(runtime: ProviderRuntime, options: AlgebraBackendOptions = {}): CapabilityDefinition<GcdInput, GcdOutput> {
  const tools = backendOf(GCD_CAPABILITY_ID, runtime, options, true);
  const engineName = tools !== null ? `Singular ${runtime.version} (gcd)` : 'our TypeScript engine (Euclid for univariate input; recursive primitive remainder sequences for multivariate input)';
  return {
    id: GCD_CAPABILITY_ID,
    version: VERSION,
    title: 'Greatest common divisor of polynomials',
    description: `The greatest common divisor of one or more polynomials over Q or GF(p), univariate or multivariate, computed by ${engineName}. Normalization: ${GCD_NORMALIZATION}. Stored as a one-element polynomial list.`,
    tags: ['polynomial', 'gcd', 'greatest-common-divisor', 'euclid', tools !== null ? 'singular' : 'typescript'],
    keywords: ['greatest common divisor', 'gcd', 'polynomial gcd', 'common factor', 'Euclidean algorithm'],
    domain: 'polynomial',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [POLYNOMIAL_LIST_SCHEMA_URI],
    input: GcdInput,
    output: GcdOutput,
    examples: [
      { title: 'gcd of x^2 - 1 and x^2 + 2*x + 1 over Q (x + 1)', mode: 'EXPLORE', payload: { ring: { field: { kind: 'Q' }, variables: ['x'], order: 'lex' }, polynomials: ['x^2 - 1', 'x^2 + 2*x + 1'] } },
      { title: 'A bivariate gcd over GF(101)', mode: 'EXPLORE', payload: { ring: { ...Q_XY, field: { kind: 'GF', characteristic: '101' } }, polynomials: ['(x + y)*(x - 2*y)', '(x + y)^2'] } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given polynomials in the given ring: their normalized gcd.',
    limits: { max_variables: POLYNOMIAL_LIMITS.maxVariables, max_polynomials: POLYNOMIAL_LIMITS.maxPolynomials, max_text_length: POLYNOMIAL_LIMITS.maxTextLength },
    async run(input, context) {
      const ring = resolveRing(input.ring, ['payload', 'ring']);
      const polynomials = parsePolynomials(ring, input.polynomials, { path: ['payload', 'polynomials'] });
      const started = Date.now();
      let gcd: Polynomial<unknown>;
      let method: string;
      if (tools !== null) {
        checkSingularField(ring, GCD_CAPABILITY_ID);
        await checkSingularIdentity(tools);
        const program = ['poly g = p1;', ...polynomials.slice(1).map((_, i) => `g = gcd(g, p${i + 2});`), '"@@jacobian:gcd";', 'string(g);'];
        const out = await runSingularProgram(tools.binary, { ring, polynomials, program, sections: ['gcd'] }, singularRunOptions(context));
        const lines = out.sections['gcd'] ?? [];
        if (lines.length !== 1) throw new JacobianError('PROVIDER_FAILED', `Singular: gcd printed ${lines.length} lines; the result was discarded`);
        gcd = normalizeAssociate(ring, ring.convert(out.parse(lines[0] as string, 'the gcd')));
        method = 'Singular gcd, folded over the list; normalized by us';
      } else {
        const out = z
          .object({ gcd: PolynomialJsonSchema, method: z.enum(['euclid', 'recursive-prs']) })
          .parse(await runKernel(context, GCD_KERNEL, { ring: ringSpecOf(ring), polynomials: polynomials.map((p) => printPolynomial(ring, p)) }));
        gcd = polynomialFromJson(ring, out.gcd, ['gcd']);
        method = out.method === 'euclid' ? 'Euclid\'s algorithm (univariate)' : 'recursive primitive polynomial remainder sequence in the main variable, contents by recursion on the others (multivariate)';
      }
      const diagnostics: Diagnostic[] = [];
      const stored = await storeOrWarn(
        'the gcd',
        { schema_uri: POLYNOMIAL_LIST_SCHEMA_URI, semantics_uri: GCD_SEMANTICS_URI, payload: { ring: ringSpecOf(ring), polynomials: [polynomialToJson(ring, gcd)] }, parents: [], summary: { field: ring.field.name, inputs: polynomials.length } },
        context,
        diagnostics,
      );
      return exactOutcome(
        {
          ring: ringSpecOf(ring),
          gcd: printPolynomial(ring, gcd),
          normalization: GCD_NORMALIZATION,
          degree: ring.degree(gcd),
          result_uri: stored?.uri ?? null,
          engine: { provider: runtime.provider, version: runtime.version, method, compute_ms: Date.now() - started },
        },
        `the normalized gcd of the ${polynomials.length} given polynomial${polynomials.length === 1 ? '' : 's'} in ${ringName(ring)}`,
        'the algorithm ran to completion; the gcd is exact and unique under the stated normalization',
        `computed by ${engineName}; not independently checked`,
        stored === null ? [] : [stored.uri],
        diagnostics,
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// polynomial.resultant.compute

export const ResultantInput = z
  .object({
    ring: Ring,
    f: Text.describe('the first polynomial'),
    g: Text.describe('the second polynomial'),
    variable: z.string().min(1).max(POLYNOMIAL_LIMITS.maxNameLength).describe('the ring variable to eliminate; the resultant is a polynomial in the others'),
  })
  .strict();
export type ResultantInput = z.infer<typeof ResultantInput>;

export const ResultantOutput = z
  .object({
    ring: RingSpecSchema,
    variable: z.string(),
    resultant: z.string().describe('Res_v(f, g) = det of the Sylvester matrix (deg_v g rows of f\'s coefficients, then deg_v f rows of g\'s), in canonical text, not normalized; 0 when f or g is 0'),
    degrees: z.object({ f: Int, g: Int }).strict().describe('deg_v f and deg_v g'),
    result_uri: z.string().nullable().describe(`the resultant as a stored one-element polynomial list (${POLYNOMIAL_LIST_SCHEMA_URI}); null when not retained`),
    engine: EngineSchema,
  })
  .strict();
export type ResultantOutput = z.infer<typeof ResultantOutput>;

const RESULTANT_KERNEL = { module: here('./algebra.kernel.ts'), exportName: 'resultantKernel' };

/** polynomial.resultant.compute on Singular or our TypeScript engine. */
export function resultantCompute(runtime: ProviderRuntime, options: AlgebraBackendOptions = {}): CapabilityDefinition<ResultantInput, ResultantOutput> {
  const tools = backendOf(RESULTANT_CAPABILITY_ID, runtime, options, true);
  const engineName = tools !== null ? `Singular ${runtime.version} (resultant)` : 'our TypeScript engine (Sylvester matrix, fraction-free Bareiss determinant)';
  return {
    id: RESULTANT_CAPABILITY_ID,
    version: VERSION,
    title: 'Resultant of two polynomials with respect to a variable',
    description: `The resultant Res_v(f, g) of two polynomials over Q or GF(p) with respect to a named variable v, a polynomial in the other variables that vanishes exactly where f and g have a common root in v (or both leading coefficients vanish); computed by ${engineName}. It is the determinant of the Sylvester matrix with f's rows first, not normalized. Stored as a one-element polynomial list.`,
    tags: ['polynomial', 'resultant', 'elimination', 'sylvester-matrix', tools !== null ? 'singular' : 'typescript'],
    keywords: ['resultant', 'Sylvester matrix', 'eliminate a variable', 'elimination', 'common root'],
    domain: 'polynomial',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [POLYNOMIAL_LIST_SCHEMA_URI],
    input: ResultantInput,
    output: ResultantOutput,
    examples: [
      { title: 'Eliminate y from x^2 + y^2 - 1 and x - y over Q', mode: 'EXPLORE', payload: { ring: Q_XY, f: 'x^2 + y^2 - 1', g: 'x - y', variable: 'y' } },
      { title: 'The discriminant-like resultant of a*x^2 + b*x + c and its derivative in x', mode: 'EXPLORE', payload: { ring: { field: { kind: 'Q' }, variables: ['x', 'a', 'b', 'c'], order: 'lex' }, f: 'a*x^2 + b*x + c', g: '2*a*x + b', variable: 'x' } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the two given polynomials, the named variable and the ring: their resultant.',
    limits: {
      max_variables: POLYNOMIAL_LIMITS.maxVariables,
      max_text_length: POLYNOMIAL_LIMITS.maxTextLength,
      ...(tools === null ? { max_sylvester_size: MAX_SYLVESTER_SIZE } : {}),
    },
    async run(input, context) {
      const ring = resolveRing(input.ring, ['payload', 'ring']);
      const v = ring.variables.indexOf(input.variable);
      if (v < 0) {
        throw new JacobianError('INVALID_REQUEST', `payload.variable: "${input.variable.slice(0, 40)}" is not one of the ring's variables (${ring.variables.join(', ')})`, { path: ['payload', 'variable'], data: { rule: 'variable' } });
      }
      const f = parsePolynomial(ring, input.f, { path: ['payload', 'f'] });
      const g = parsePolynomial(ring, input.g, { path: ['payload', 'g'] });
      const started = Date.now();
      let resultant: Polynomial<unknown>;
      let method: string;
      if (tools !== null) {
        checkSingularField(ring, RESULTANT_CAPABILITY_ID);
        await checkSingularIdentity(tools);
        const out = await runSingularProgram(tools.binary, { ring, polynomials: [f, g], program: ['"@@jacobian:resultant";', `string(resultant(p1, p2, v${v + 1}));`], sections: ['resultant'] }, singularRunOptions(context));
        const lines = out.sections['resultant'] ?? [];
        if (lines.length !== 1) throw new JacobianError('PROVIDER_FAILED', `Singular: resultant printed ${lines.length} lines; the result was discarded`);
        resultant = ring.convert(out.parse(lines[0] as string, 'the resultant'));
        method = 'Singular resultant';
      } else {
        // Checked before any work: the TypeScript engine builds the (deg_v f + deg_v g)-square Sylvester matrix.
        const size = degreeIn(f, v) + degreeIn(g, v);
        if (size > MAX_SYLVESTER_SIZE) {
          throw new JacobianError(
            'INVALID_REQUEST',
            `payload.f, payload.g: deg_${input.variable} f + deg_${input.variable} g = ${size}, above the limit of ${MAX_SYLVESTER_SIZE} for the TypeScript resultant (limits.max_sylvester_size)`,
            { path: ['payload', 'g'], data: { rule: 'max_sylvester_size', limit: MAX_SYLVESTER_SIZE, size } },
          );
        }
        const out = z.object({ resultant: PolynomialJsonSchema }).parse(await runKernel(context, RESULTANT_KERNEL, { ring: ringSpecOf(ring), f: printPolynomial(ring, f), g: printPolynomial(ring, g), variable: v }));
        resultant = polynomialFromJson(ring, out.resultant, ['resultant']);
        method = 'determinant of the Sylvester matrix by fraction-free Bareiss elimination over the polynomials in the other variables';
      }
      const diagnostics: Diagnostic[] = [];
      const stored = await storeOrWarn(
        'the resultant',
        { schema_uri: POLYNOMIAL_LIST_SCHEMA_URI, semantics_uri: RESULTANT_SEMANTICS_URI, payload: { ring: ringSpecOf(ring), polynomials: [polynomialToJson(ring, resultant)] }, parents: [], summary: { field: ring.field.name, variable: input.variable } },
        context,
        diagnostics,
      );
      return exactOutcome(
        {
          ring: ringSpecOf(ring),
          variable: input.variable,
          resultant: printPolynomial(ring, resultant),
          degrees: { f: degreeIn(f, v), g: degreeIn(g, v) },
          result_uri: stored?.uri ?? null,
          engine: { provider: runtime.provider, version: runtime.version, method, compute_ms: Date.now() - started },
        },
        `the resultant with respect to ${input.variable} of the two given polynomials in ${ringName(ring)}`,
        'the determinant was computed exactly to the end',
        `computed by ${engineName}; not independently checked`,
        stored === null ? [] : [stored.uri],
        diagnostics,
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// polynomial.factor.compute

const FACTOR_NORMALIZATION = 'factors monic over GF(p); over Q primitive with integer coefficients and a positive leading coefficient; the unit collects the rest';

export const FactorInput = z.object({ ring: Ring, polynomial: Text.describe('the non-zero polynomial to factor, e.g. "x^4 - 1"') }).strict();
export type FactorInput = z.infer<typeof FactorInput>;

export const FactorOutput = z
  .object({
    ring: RingSpecSchema,
    polynomial: z.string().describe('the input in canonical text'),
    unit: z.string().describe('the constant factor (a field element)'),
    factors: z.array(z.object({ factor: z.string(), multiplicity: Int }).strict()).describe(`the distinct irreducible factors with multiplicities, in canonical text (${FACTOR_NORMALIZATION})`),
    result_uri: z.string().nullable().describe(`the stored factorization claim (${FACTORIZATION_SCHEMA_URI}) to check with ${FACTOR_VERIFY_ID}; null when not retained`),
    engine: EngineSchema,
  })
  .strict();
export type FactorOutput = z.infer<typeof FactorOutput>;

/** Largest characteristic the factor capability accepts over GF(p): the largest prime below 2^29, Singular's factorize limit ("characteristic is too large(max is 2^29)"). */
export const FACTOR_MAX_CHARACTERISTIC = 536_870_909n;

/** polynomial.factor.compute: Singular only (no factorization algorithm of our own). */
export function factorCompute(runtime: ProviderRuntime, options: AlgebraBackendOptions = {}): CapabilityDefinition<FactorInput, FactorOutput> {
  const tools = backendOf(FACTOR_CAPABILITY_ID, runtime, options, false) as SingularTools;
  return {
    id: FACTOR_CAPABILITY_ID,
    version: VERSION,
    title: 'Factor a polynomial into irreducibles',
    description: `Factors a non-zero polynomial over Q or GF(p) (p ≤ ${FACTOR_MAX_CHARACTERISTIC}), univariate or multivariate, into irreducible factors with multiplicities and a unit, by Singular ${runtime.version} (factorize). Normalization: ${FACTOR_NORMALIZATION}. The claim is stored for ${FACTOR_VERIFY_ID}, which checks that the factors multiply back to the input and tests each factor's irreducibility (linear factors, one variable over GF(p), or over Q by reduction mod p); a factor it cannot decide leaves that claim open.`,
    tags: ['polynomial', 'factorization', 'factor', 'irreducible', 'singular'],
    keywords: ['factorization', 'factorisation', 'factorize', 'factorise', 'factor a polynomial', 'irreducible factors', 'Singular'],
    domain: 'polynomial',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [FACTORIZATION_SCHEMA_URI],
    input: FactorInput,
    output: FactorOutput,
    examples: [
      { title: 'Factor x^4 - 1 over Q', mode: 'EXPLORE', payload: { ring: { field: { kind: 'Q' }, variables: ['x'], order: 'lex' }, polynomial: 'x^4 - 1' } },
      { title: 'Factor x^2 + 1 over GF(5)', mode: 'EXPLORE', payload: { ring: { field: { kind: 'GF', characteristic: '5' }, variables: ['x'], order: 'lex' }, polynomial: 'x^2 + 1' } },
      { title: 'A bivariate factorization over Q', mode: 'EXPLORE', payload: { ring: Q_XY, polynomial: '6*x^3*y - 6*x*y^3' } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: FACTOR_VERIFY_ID }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given polynomial and field: its factorization into irreducibles over that field (not over extensions).',
    limits: { max_variables: POLYNOMIAL_LIMITS.maxVariables, max_text_length: POLYNOMIAL_LIMITS.maxTextLength, max_characteristic: FACTOR_MAX_CHARACTERISTIC.toString() },
    async run(input, context) {
      const ring = resolveRing(input.ring, ['payload', 'ring']);
      if (ring.field.characteristic > FACTOR_MAX_CHARACTERISTIC) {
        throw new JacobianError('INVALID_REQUEST', `payload.ring.field.characteristic: factorization over GF(p) is offered for p ≤ ${FACTOR_MAX_CHARACTERISTIC}, not ${ring.field.characteristic}`, {
          path: ['payload', 'ring', 'field', 'characteristic'],
          data: { rule: 'provider-field' },
        });
      }
      const f = parsePolynomial(ring, input.polynomial, { path: ['payload', 'polynomial'] });
      if (f.length === 0) throw new JacobianError('INVALID_REQUEST', 'payload.polynomial: the zero polynomial has no factorization', { path: ['payload', 'polynomial'], data: { rule: 'non-zero' } });
      await checkSingularIdentity(tools);
      const out = await runSingularProgram(
        tools.binary,
        { ring, polynomials: [f], program: ['list L = factorize(p1);', '"@@jacobian:factors";', 'for (k = 1; k <= size(L[1]); k++) { string(L[1][k]); string(L[2][k]); }'], sections: ['factors'] },
        singularRunOptions(context),
      );
      const lines = out.sections['factors'] ?? [];
      if (lines.length % 2 !== 0 || lines.length === 0) throw new JacobianError('PROVIDER_FAILED', 'Singular: factorize printed an odd number of lines; the result was discarded');
      const F = ring.field;
      const factors: { factor: Polynomial<unknown>; multiplicity: number }[] = [];
      for (let k = 0; k < lines.length; k += 2) {
        const p = ring.convert(out.parse(lines[k] as string, `factor ${k / 2 + 1}`));
        const multiplicity = Number(lines[k + 1]);
        if (!Number.isSafeInteger(multiplicity) || multiplicity < 1) throw new JacobianError('PROVIDER_FAILED', `Singular: multiplicity "${String(lines[k + 1]).slice(0, 40)}" is not a positive integer; the result was discarded`);
        if (ring.degree(p) <= 0) continue; // the constant (Singular lists it first); the unit is recomputed below
        factors.push({ factor: normalizeAssociate(ring, p), multiplicity });
      }
      // The unit: lc(f) / lc(Π factors^m); then the product must be f exactly.
      let product = ring.one();
      for (const { factor, multiplicity } of factors) product = ring.mul(product, ring.pow(factor, multiplicity));
      const unit = F.div(ring.leadingTerm(f).coefficient, ring.leadingTerm(product).coefficient);
      if (!ring.equals(ring.scale(product, unit), f)) throw new JacobianError('PROVIDER_FAILED', 'Singular: the factors do not multiply back to the polynomial; the result was discarded');
      const claim: FactorizationClaim = {
        ring: ringSpecOf(ring),
        polynomial: polynomialToJson(ring, f),
        unit: F.format(unit),
        factors: factors.map(({ factor, multiplicity }) => ({ factor: polynomialToJson(ring, factor), multiplicity })),
      };
      const diagnostics: Diagnostic[] = [];
      const stored = await storeOrWarn(
        'the factorization claim',
        { schema_uri: FACTORIZATION_SCHEMA_URI, semantics_uri: FACTORIZATION_SEMANTICS_URI, payload: FactorizationClaimSchema.parse(claim), parents: [], summary: { field: F.name, factors: factors.length } },
        context,
        diagnostics,
      );
      const outcome = exactOutcome(
        {
          ring: ringSpecOf(ring),
          polynomial: printPolynomial(ring, f),
          unit: F.format(unit),
          factors: factors.map(({ factor, multiplicity }) => ({ factor: printPolynomial(ring, factor), multiplicity })),
          result_uri: stored?.uri ?? null,
          engine: { provider: runtime.provider, version: runtime.version, method: 'Singular factorize; factors normalized and the unit recomputed by us, the product checked to equal the input', compute_ms: out.runtimeMs },
        },
        `the factorization over ${F.name} of the given polynomial in ${ringName(ring)}`,
        'Singular returned a complete factorization; the product of the factors was checked to equal the input',
        `computed by Singular ${runtime.version}; the product identity was checked here, irreducibility was not`,
        stored === null ? [] : [stored.uri],
        diagnostics,
      );
      outcome.obligations = [
        {
          id: 'factors-irreducible',
          statement: `That every factor is irreducible over ${F.name} rests on Singular's factorize and was not checked here; ${FACTOR_VERIFY_ID} checks the product and tests each factor's irreducibility (linear, or in one variable), leaving the claim open for a factor it cannot decide.`,
          status: 'OPEN',
          discharged_by: [],
        },
      ];
      return outcome;
    },
  };
}

/**
 * `polynomial.groebner_basis.compute`: the reduced Groebner basis of an ideal of K[x1, …, xn]
 * (K = Q or GF(p)) for lex, grlex or grevlex over a stated variable order, optionally with the
 * cofactor certificate that expresses each basis element in the input generators.
 *
 * Two providers serve it, chosen at registration by firstHealthyOf: Singular (native, `std` with
 * redSB/redTail, cofactors by `lift`) where it is installed, and our TypeScript Buchberger engine
 * (groebner.ts, in an isolated kernel) as the embedded default. Either way the generators are
 * parsed by our grammar in this process first, so a bad request is an INVALID_REQUEST naming the
 * field before any engine starts, and Singular only ever sees polynomials we printed ourselves.
 *
 * The answer is stored as a Groebner basis claim (ring, generators, basis, optional cofactors),
 * which polynomial.groebner_basis.verify re-reads and checks on its own, and the basis alone as a
 * polynomial list that can be fed back as `generators_uri` (for instance to change the order).
 * The budget ends the run as the host does it: the kernel polls the deadline and the pool kills
 * it, Singular is killed at the deadline; both give TIMEOUT with nothing concluded.
 */
import { getArtifactAt } from '@jacobian/shared';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  cyclicSystem,
  GROEBNER_BASIS_SCHEMA_URI,
  GROEBNER_BASIS_SEMANTICS_URI,
  GroebnerBasisClaimSchema,
  JacobianError,
  katsuraSystem,
  parsePolynomials,
  POLYNOMIAL_LIMITS,
  POLYNOMIAL_LIST_SCHEMA_URI,
  POLYNOMIAL_SOURCES,
  polynomialFromJson,
  PolynomialJsonSchema,
  PolynomialListPayloadSchema,
  polynomialToJson,
  printPolynomial,
  resolveRing,
  RingSpecSchema,
  ringSpecOf,
  runKernel,
  sourceProviderRuntime,
  totalDegree,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type Diagnostic,
  type GroebnerBasisClaim,
  type InvocationExample,
  type JsonPath,
  type Obligation,
  type Polynomial,
  type PolynomialJson,
  type PolynomialRing,
  type ProviderProbe,
  type ProviderRuntime,
} from '@jacobian/shared';
import { checkSingularField, checkSingularIdentity, runSingularGroebner, SINGULAR_MAX_CHARACTERISTIC, SINGULAR_PROVIDER, type SingularTools } from '../providers/singular.js';
import { singularRunOptions, storeOrWarn } from './algebra-capabilities.js';
import { RUNNER_VERSION } from '../version.js';

/** The capability ID. */
export const GROEBNER_BASIS_CAPABILITY_ID = 'polynomial.groebner_basis.compute';
const VERSION = '1.0.0';
/** The checker service's capability that verifies a stored claim (the runner never imports the checker). */
const VERIFY_CAPABILITY_ID = 'polynomial.groebner_basis.verify';

/** The provider name of our TypeScript engine. */
export const GROEBNER_TS_PROVIDER = 'jacobian-polynomial-ts';
/** What our TypeScript engine offers. */
export const GROEBNER_TS_FEATURES: readonly string[] = ['reduced-groebner-basis', 'buchberger-gebauer-moeller', 'sugar-strategy', 'cofactors', 'fields-Q-GF(p)'];

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** The files of our TypeScript provider (absolute paths); its SOURCE_TREE digest covers them and the shared polynomial core. */
export const GROEBNER_TS_SOURCES: readonly string[] = [here('./groebner-capability.ts'), here('./groebner.ts'), here('./groebner.kernel.ts'), here('../providers/singular.ts')];

/**
 * Our TypeScript provider for registration, identified by the digest of its sources (the
 * capability file imports the Singular runner module, so it is covered too).
 */
export function groebnerTsProvider(): ProviderProbe {
  return {
    name: GROEBNER_TS_PROVIDER,
    probe: () => sourceProviderRuntime({ provider: GROEBNER_TS_PROVIDER, version: RUNNER_VERSION, files: [...GROEBNER_TS_SOURCES, ...POLYNOMIAL_SOURCES], features: [...GROEBNER_TS_FEATURES] }),
  };
}

/**
 * Meaning of the stored basis list: the reduced Groebner basis of the claim that is its parent
 * (the list alone is a polynomial list of the ring, which `generators_uri` accepts).
 */
export const GROEBNER_BASIS_LIST_SEMANTICS_URI = 'jacobian:semantics/polynomial.list.reduced_groebner_basis/v1';

const KERNEL = { module: here('./groebner.kernel.ts'), exportName: 'groebnerBasisKernel' };

const Int = z.number().int();

/** Input: the ring, the generators (inline texts or a stored polynomial list), and whether to compute cofactors. */
export const GroebnerBasisInput = z
  .object({
    ring: RingSpecSchema.describe('the polynomial ring: field ({kind: "Q"} or {kind: "GF", characteristic: "<prime>"}), variables in decreasing order (the first is the largest), and the monomial order'),
    generators: z
      .array(z.string().min(1).max(POLYNOMIAL_LIMITS.maxTextLength))
      .min(1)
      .max(POLYNOMIAL_LIMITS.maxPolynomials)
      .optional()
      .describe('the generators of the ideal as polynomial texts in the ring\'s variables, e.g. "x^2 - y", "3/4*x*y - 1"; give this or generators_uri'),
    generators_uri: ArtifactUriSchema.optional().describe(
      `a stored polynomial list (${POLYNOMIAL_LIST_SCHEMA_URI}) of the same field and variables, e.g. the basis_uri of an earlier run (its order may differ: the list is re-sorted); give this or generators`,
    ),
    cofactors: z
      .boolean()
      .default(false)
      .describe('also compute the cofactor certificate: each basis element as a combination of the generators (what lets the checker prove the basis lies in the ideal); can cost much more'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.generators === undefined) === (input.generators_uri === undefined)) {
      ctx.addIssue({ code: 'custom', path: [input.generators === undefined ? 'generators' : 'generators_uri'], message: 'give exactly one of generators (polynomial texts) or generators_uri (a stored polynomial list)' });
    }
  });
export type GroebnerBasisInput = z.infer<typeof GroebnerBasisInput>;

const EngineSchema = z
  .object({
    provider: z.string(),
    version: z.string(),
    method: z.string(),
    compute_ms: Int,
    stats: z
      .object({ pairs: Int, reductions: Int, zero_reductions: Int, steps: Int })
      .strict()
      .nullable()
      .describe('our engine\'s counters: S-pairs formed after the criteria, S-polynomials reduced, those that reduced to zero, single reduction steps; null for Singular'),
  })
  .strict();

/** Output: the reduced basis as canonical text, its size and shape, and where the claim is stored. */
export const GroebnerBasisOutput = z
  .object({
    ring: RingSpecSchema,
    generators: Int.describe('how many generators the ideal was given by'),
    basis: z.array(z.string()).describe('the reduced Groebner basis in canonical text, every element monic, sorted by increasing leading monomial'),
    count: Int.describe('how many elements the basis has'),
    leading_monomials: z.array(z.string()).describe('the leading monomial of each basis element, in the same order'),
    ideal: z.enum(['ZERO', 'UNIT', 'PROPER']).describe('ZERO: every generator is 0 (empty basis); UNIT: the ideal is the whole ring (basis [1]); PROPER otherwise'),
    max_degree: Int.describe('the largest total degree of a basis element (-1 for the empty basis)'),
    cofactors: z
      .array(z.array(z.string()))
      .nullable()
      .describe('with cofactors: true, cofactors[i][j] multiplies generator j, and the sum is basis[i]; null when not asked for, or when too large for the output (then only in the stored claim)'),
    result_uri: z
      .string()
      .nullable()
      .describe(`the stored claim (${GROEBNER_BASIS_SCHEMA_URI}: ring, generators, basis, cofactors) to verify with ${VERIFY_CAPABILITY_ID}; null when it could not be retained`),
    basis_uri: z.string().nullable().describe(`the basis alone as a stored polynomial list (${POLYNOMIAL_LIST_SCHEMA_URI}), usable as generators_uri; null when not retained`),
    generators_uri: z.string().nullable().describe('the stored generator list the run read, when given'),
    engine: EngineSchema,
  })
  .strict();
export type GroebnerBasisOutput = z.infer<typeof GroebnerBasisOutput>;

const KernelOutput = z
  .object({
    ring: RingSpecSchema,
    generators: z.array(PolynomialJsonSchema),
    basis: z.array(PolynomialJsonSchema),
    cofactors: z.array(z.array(PolynomialJsonSchema)).optional(),
    stats: z.object({ pairs: Int, reductions: Int, zeroReductions: Int, steps: Int }).strict(),
    trace: z.object({ prime: Int, pairs: Int, skipped: Int, outcome: z.enum(['certified', 'unlucky-prime', 'mismatch', 'rejected']) }).strict().optional(),
  })
  .strict();

/** How the TypeScript engine reached its basis, for the result's method. */
function typescriptMethod(trace: z.infer<typeof KernelOutput>['trace']): string {
  const base = 'Buchberger with the Gebauer–Möller installation of the criteria, sugar selection, full reduction, final interreduction';
  if (trace === undefined) return base;
  if (trace.outcome === 'certified') {
    return `${base}; steered by a run modulo ${trace.prime} (${trace.skipped} of its ${trace.pairs} pairs reduced to zero there and were skipped over Q), the result certified exactly over Q by Buchberger's criterion and the reduction of every generator`;
  }
  return `${base}; a run steered by a trace modulo ${trace.prime} was abandoned (${trace.outcome}) and the full algorithm over Q answered`;
}

const Q_XY_LEX = { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' };
const CYCLIC_4 = cyclicSystem(4);
const KATSURA_3 = katsuraSystem(3);

const EXAMPLES: InvocationExample[] = [
  {
    title: 'Eliminate x from x^2 - y and x*y - 1 (lex over Q), with the cofactor certificate',
    mode: 'EXPLORE',
    payload: { ring: Q_XY_LEX, generators: ['x^2 - y', 'x*y - 1'], cofactors: true },
  },
  {
    title: 'cyclic-4 over GF(32003) in grevlex',
    mode: 'EXPLORE',
    payload: { ring: { field: { kind: 'GF', characteristic: '32003' }, variables: [...CYCLIC_4.variables], order: 'grevlex' }, generators: [...CYCLIC_4.generators] },
  },
  {
    title: 'katsura-3 over Q in grlex',
    mode: 'EXPLORE',
    payload: { ring: { field: { kind: 'Q' }, variables: [...KATSURA_3.variables], order: 'grlex' }, generators: [...KATSURA_3.generators] },
  },
];

/** What the capability needs of a Singular provider: the tools its probe vouched for. */
export interface GroebnerBackendOptions {
  singular?: { readonly tools: SingularTools | undefined };
}

/** The generators of a validated request, parsed into the request's ring. */
interface ResolvedGenerators {
  ring: PolynomialRing<unknown>;
  generators: Polynomial<unknown>[];
  /** The stored list they came from; null for inline texts. */
  uri: string | null;
}

const URI_PATH: JsonPath = ['payload', 'generators_uri'];

async function readGeneratorList(uri: string, ring: PolynomialRing<unknown>, context: CapabilityContext): Promise<Polynomial<unknown>[]> {
  const artifact = await getArtifactAt(context.artifacts, uri, URI_PATH, { signal: context.signal });
  if (artifact.manifest.schema_uri !== POLYNOMIAL_LIST_SCHEMA_URI) {
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `payload.generators_uri: the artifact has schema ${artifact.manifest.schema_uri}; a stored polynomial list (${POLYNOMIAL_LIST_SCHEMA_URI}) is required`, {
      path: URI_PATH,
      hint: `pass the basis_uri of an earlier ${GROEBNER_BASIS_CAPABILITY_ID} run, or give the generators as texts`,
    });
  }
  const parsed = PolynomialListPayloadSchema.safeParse(artifact.payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `payload.generators_uri: the stored polynomial list is malformed at ${(issue?.path ?? []).join('.')}: ${issue?.message ?? ''}`, { path: URI_PATH });
  }
  const list = parsed.data;
  const sameField = JSON.stringify(list.ring.field) === JSON.stringify(ringSpecOf(ring).field);
  const sameVariables = list.ring.variables.length === ring.variables.length && list.ring.variables.every((name, i) => name === ring.variables[i]);
  if (!sameField || !sameVariables) {
    throw new JacobianError(
      'INVALID_REQUEST',
      `payload.ring: the stored list is over ${list.ring.field.kind === 'Q' ? 'Q' : `GF(${list.ring.field.characteristic})`} in (${list.ring.variables.join(', ')}), but the request names ${ring.field.name} in (${ring.variables.join(', ')}); field and variables must be the same (the order may differ)`,
      { path: ['payload', 'ring'], data: { rule: 'ring-mismatch' } },
    );
  }
  if (list.polynomials.length === 0) {
    throw new JacobianError('INVALID_REQUEST', 'payload.generators_uri: the stored list has no polynomials; an ideal needs at least one generator', { path: URI_PATH, data: { rule: 'generators' } });
  }
  // Decoded strictly in the order it was stored in, then re-sorted for the requested order.
  const storedRing = ring.withOrder(list.ring.order);
  try {
    return list.polynomials.map((json, i) => ring.convert(polynomialFromJson(storedRing, json, [...URI_PATH, 'polynomials', i])));
  } catch (error) {
    if (!(error instanceof JacobianError) || error.code !== 'INVALID_REQUEST') throw error;
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `payload.generators_uri: the stored polynomial list is not canonical: ${error.message}`, { path: URI_PATH, cause: error });
  }
}

async function resolveGenerators(input: GroebnerBasisInput, context: CapabilityContext): Promise<ResolvedGenerators> {
  const ring = resolveRing(input.ring, ['payload', 'ring']);
  if (input.generators !== undefined) return { ring, generators: parsePolynomials(ring, input.generators, { path: ['payload', 'generators'] }), uri: null };
  const uri = input.generators_uri as string;
  return { ring, generators: await readGeneratorList(uri, ring, context), uri };
}

/** What an engine returns: the claim's polynomials and how it got them. */
interface EngineResult {
  claim: GroebnerBasisClaim;
  engine: z.infer<typeof EngineSchema>;
}

function monomialText(ring: PolynomialRing<unknown>, p: Polynomial<unknown>): string {
  return printPolynomial(ring, [{ monomial: ring.leadingTerm(p).monomial, coefficient: ring.field.one }]);
}

/** Bytes of polynomial text an output may carry before cofactor texts are left to the stored claim. */
function cofactorTextBudget(context: CapabilityContext): number {
  return Math.floor(context.budget.max_output_bytes / 2);
}

/**
 * The polynomial.groebner_basis.compute capability, served by `runtime`: Singular's (its tools
 * from the probe in `options.singular`) or our TypeScript engine's.
 *
 * @throws JacobianError REGISTRATION_INVALID for any other runtime, or Singular without probed tools.
 */
export function groebnerBasisCompute(runtime: ProviderRuntime, options: GroebnerBackendOptions = {}): CapabilityDefinition<GroebnerBasisInput, GroebnerBasisOutput> {
  const singular = runtime.provider === SINGULAR_PROVIDER;
  if (!singular && runtime.provider !== GROEBNER_TS_PROVIDER) {
    throw new JacobianError('REGISTRATION_INVALID', `${GROEBNER_BASIS_CAPABILITY_ID} runs on ${SINGULAR_PROVIDER} or ${GROEBNER_TS_PROVIDER}, not ${runtime.provider}`);
  }
  const singularTools = singular ? options.singular?.tools : undefined;
  if (singular && singularTools === undefined) throw new JacobianError('REGISTRATION_INVALID', `${GROEBNER_BASIS_CAPABILITY_ID} on Singular needs the tools its probe found`);
  const engineName = singular ? `Singular ${runtime.version} (std with redSB and redTail; cofactors by lift)` : "our TypeScript Buchberger engine (Gebauer–Möller criteria, sugar strategy)";

  async function computeWithTypescript(resolved: ResolvedGenerators, cofactors: boolean, context: CapabilityContext): Promise<EngineResult> {
    const { ring } = resolved;
    const started = Date.now();
    // Canonical texts parse back to the same polynomials; the kernel parses them again in its own process.
    const out = KernelOutput.parse(await runKernel(context, KERNEL, { ring: ringSpecOf(ring), generators: resolved.generators.map((g) => printPolynomial(ring, g)), cofactors }));
    const claim: GroebnerBasisClaim = { ring: out.ring, generators: out.generators, basis: out.basis, ...(out.cofactors === undefined ? {} : { cofactors: out.cofactors }) };
    return {
      claim,
      engine: {
        provider: runtime.provider,
        version: runtime.version,
        method: typescriptMethod(out.trace),
        compute_ms: Date.now() - started,
        stats: { pairs: out.stats.pairs, reductions: out.stats.reductions, zero_reductions: out.stats.zeroReductions, steps: out.stats.steps },
      },
    };
  }

  async function computeWithSingular(resolved: ResolvedGenerators, cofactors: boolean, context: CapabilityContext): Promise<EngineResult> {
    const tools = singularTools as SingularTools;
    const { ring, generators } = resolved;
    checkSingularField(ring, GROEBNER_BASIS_CAPABILITY_ID);
    await checkSingularIdentity(tools);
    const result = await runSingularGroebner(tools.binary, { ring, generators, cofactors }, singularRunOptions(context));
    const toJson = (p: Polynomial<unknown>): PolynomialJson => polynomialToJson(ring, p);
    const claim: GroebnerBasisClaim = {
      ring: ringSpecOf(ring),
      generators: generators.map(toJson),
      basis: result.basis.map(toJson),
      ...(result.cofactors === undefined ? {} : { cofactors: result.cofactors.map((row) => row.map(toJson)) }),
    };
    return { claim, engine: { provider: runtime.provider, version: runtime.version, method: 'Singular std with option(redSB) and option(redTail); cofactors by lift(ideal, std)', compute_ms: result.runtimeMs, stats: null } };
  }

  return {
    id: GROEBNER_BASIS_CAPABILITY_ID,
    version: VERSION,
    title: 'Compute the reduced Groebner basis of a polynomial ideal',
    description: `The reduced Groebner basis of the ideal generated by polynomials over Q or GF(p), for lex, grlex or grevlex with the stated variable order (the first variable is the largest), computed by ${engineName}. Polynomials are texts in our grammar (integers, declared variables, + - * ^, division by integer literals, parentheses), or a stored polynomial list (generators_uri). The basis comes back monic, sorted by increasing leading monomial, in canonical text; it is unique for the ideal and order, so ZERO/UNIT/PROPER and the leading monomials answer membership and dimension questions. With cofactors: true it also returns each basis element as a combination of the generators. The claim is stored (result_uri) for ${VERIFY_CAPABILITY_ID}, which checks it independently.`,
    tags: ['polynomial', 'groebner-basis', 'ideal', 'commutative-algebra', 'buchberger', 'elimination', 'lex', 'grevlex', singular ? 'singular' : 'typescript'],
    keywords: ['Groebner basis', 'Gröbner basis', 'Grobner basis', 'reduced Groebner basis', 'Buchberger', 'standard basis', 'polynomial ideal', 'elimination', 'solve a polynomial system', 'system of polynomial equations', 'lex', 'grevlex', 'Singular'],
    domain: 'polynomial',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [POLYNOMIAL_LIST_SCHEMA_URI],
    produced_artifact_types: [GROEBNER_BASIS_SCHEMA_URI, POLYNOMIAL_LIST_SCHEMA_URI],
    input: GroebnerBasisInput,
    output: GroebnerBasisOutput,
    examples: EXAMPLES,
    relationships: [
      { kind: 'VERIFIED_BY', capability_id: VERIFY_CAPABILITY_ID },
      { kind: 'CONSUMES_OUTPUT_OF', capability_id: GROEBNER_BASIS_CAPABILITY_ID },
    ],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the one ideal (the given generators), ring (field and variables) and monomial order: its reduced Groebner basis, exact and complete; nothing about other orders, fields or ideals.',
    limits: {
      max_variables: POLYNOMIAL_LIMITS.maxVariables,
      max_generators: POLYNOMIAL_LIMITS.maxPolynomials,
      max_text_length: POLYNOMIAL_LIMITS.maxTextLength,
      max_degree: POLYNOMIAL_LIMITS.maxDegree,
      max_terms: POLYNOMIAL_LIMITS.maxTerms,
      ...(singular ? { max_characteristic: SINGULAR_MAX_CHARACTERISTIC.toString() } : {}),
    },
    async run(input, context): Promise<CapabilityOutcome<GroebnerBasisOutput>> {
      const resolved = await resolveGenerators(input, context);
      const { ring } = resolved;
      const computed = singular ? await computeWithSingular(resolved, input.cofactors, context) : await computeWithTypescript(resolved, input.cofactors, context);
      const { claim } = computed;
      const basis = claim.basis.map((json, i) => polynomialFromJson(ring, json, ['basis', i]));
      const diagnostics: Diagnostic[] = [];

      // The claim the checker reads, then the basis alone as a polynomial list derived from it.
      const parents = resolved.uri === null ? [] : [resolved.uri];
      const summary = {
        field: ring.field.name,
        variables: ring.arity,
        order: ring.order,
        generators: claim.generators.length,
        basis_size: claim.basis.length,
        cofactors: claim.cofactors !== undefined,
      };
      const claimArtifact = await storeOrWarn(
        'the Groebner basis claim',
        { schema_uri: GROEBNER_BASIS_SCHEMA_URI, semantics_uri: GROEBNER_BASIS_SEMANTICS_URI, payload: GroebnerBasisClaimSchema.parse(claim), parents, summary },
        context,
        diagnostics,
      );
      const basisArtifact =
        claimArtifact === null
          ? null
          : await storeOrWarn(
              'the basis list',
              {
                schema_uri: POLYNOMIAL_LIST_SCHEMA_URI,
                semantics_uri: GROEBNER_BASIS_LIST_SEMANTICS_URI,
                payload: { ring: claim.ring, polynomials: claim.basis },
                parents: [claimArtifact.uri],
                summary: { field: ring.field.name, variables: ring.arity, order: ring.order, polynomials: claim.basis.length },
              },
              context,
              diagnostics,
            );

      let cofactorTexts: string[][] | null = null;
      if (claim.cofactors !== undefined) {
        let bytes = 0;
        const rows: string[][] = [];
        for (const [i, row] of claim.cofactors.entries()) {
          const texts = row.map((json, j) => printPolynomial(ring, polynomialFromJson(ring, json, ['cofactors', i, j])));
          bytes += texts.reduce((sum, text) => sum + text.length + 4, 0);
          rows.push(texts);
        }
        if (bytes <= cofactorTextBudget(context)) cofactorTexts = rows;
        else {
          diagnostics.push({
            severity: 'INFO',
            code: 'OUTPUT_ABRIDGED',
            stage: 'EXECUTION',
            message: `the cofactors take about ${bytes} bytes of text, more than half the output budget; they are only in the stored claim`,
            path: ['output', 'cofactors'],
            hint: 'read them from result_uri, or raise budget.max_output_bytes',
          });
        }
      }

      const uris = [claimArtifact?.uri, basisArtifact?.uri, resolved.uri].filter((uri): uri is string => uri !== undefined && uri !== null);
      const relationships: CapabilityOutcome<GroebnerBasisOutput>['relationships'] = [];
      if (claimArtifact !== null && resolved.uri !== null) relationships.push({ subject: claimArtifact.uri, predicate: 'COMPUTED_FROM', object: resolved.uri });
      if (claimArtifact !== null && basisArtifact !== null) relationships.push({ subject: basisArtifact.uri, predicate: 'DERIVED_FROM', object: claimArtifact.uri });

      const variablesText = ring.arity <= 12 ? ring.variables.join(' > ') : `${ring.variables.slice(0, 6).join(' > ')} > … > ${ring.variables.at(-1) ?? ''} (${ring.arity} variables)`;
      const statement = `the reduced Groebner basis of the ideal generated by the ${claim.generators.length} ${resolved.uri === null ? 'given' : 'stored'} generator${claim.generators.length === 1 ? '' : 's'}${resolved.uri === null ? '' : ` (${resolved.uri})`} in ${ring.field.name}[${ring.variables.length <= 12 ? ring.variables.join(', ') : `${ring.arity} variables`}], ${ring.order} with ${variablesText}`;
      const obligations: Obligation[] = [
        {
          id: 'independent-verification',
          statement: `The basis was computed, not checked: ${VERIFY_CAPABILITY_ID} checks the stored claim (S-polynomials, generators, reducedness${claim.cofactors === undefined ? '' : ', cofactors'}) with its own code.`,
          status: 'OPEN',
          discharged_by: [],
        },
      ];
      if (claim.cofactors === undefined) {
        obligations.push({
          id: 'basis-in-ideal-certificate',
          statement: `No cofactors were computed, so ${VERIFY_CAPABILITY_ID} cannot verify this claim (it answers UNDECIDED, the basis-in-ideal obligation open); it can verify, asked by name (claim_kind REDUCED_GROEBNER_BASIS_OF_IDEAL_CONTAINING_GENERATORS), the weaker claim that the basis is a reduced Groebner basis of an ideal containing the generators. cofactors: true gives the certificate that each basis element lies in the ideal.`,
          status: 'OPEN',
          discharged_by: [],
        });
      }
      const ideal = basis.length === 0 ? 'ZERO' : basis.length === 1 && totalDegree(ring.leadingTerm(basis[0] as Polynomial<unknown>).monomial) === 0 ? 'UNIT' : 'PROPER';
      return {
        status: 'COMPLETED',
        output: {
          ring: claim.ring,
          generators: claim.generators.length,
          basis: basis.map((p) => printPolynomial(ring, p)),
          count: basis.length,
          leading_monomials: basis.map((p) => monomialText(ring, p)),
          ideal,
          max_degree: basis.reduce((d, p) => Math.max(d, ring.degree(p)), -1),
          cofactors: cofactorTexts,
          result_uri: claimArtifact?.uri ?? null,
          basis_uri: basisArtifact?.uri ?? null,
          generators_uri: resolved.uri,
          engine: computed.engine,
        },
        scope: { kind: 'EXACT_INPUT', statement: statement.slice(0, 2000), input_uris: parents },
        completeness: {
          status: 'COMPLETE',
          basis: `${singular ? "Singular's std" : "our Buchberger algorithm"} ran to completion: every remaining S-pair reduced to zero and the result was interreduced, so this is the reduced Groebner basis of exactly this ideal for this order (it is unique)`,
        },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'COMPUTED',
          basis: `computed by ${engineName}; not checked in this run; ${VERIFY_CAPABILITY_ID} can verify the stored claim`,
          verification_record_uri: null,
          checker_id: null,
        },
        obligations,
        relationships,
        artifact_uris: uris,
        diagnostics,
      };
    },
  };
}

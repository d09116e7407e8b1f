/**
 * `universal_algebra.enumerate.models`: every algebra of one fixed order n that satisfies a set
 * of laws, up to isomorphism, with the number of isomorphism classes and their tables.
 *
 * Method: our own TypeScript, no solver (model-enumeration.ts): a backtracking search over the
 * table cells with propagation through the ground instances of the laws and least-number
 * symmetry breaking, then a canonical form of each model found under all n! relabellings, whose
 * distinct values are the classes. It runs in an isolated kernel that polls its deadline, and
 * every model listed is rechecked against every law by the shared exhaustive evaluator.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  algebraTables,
  JacobianError,
  ListedModelSchema,
  MODELS_RESULT_SCHEMA_URI,
  MODELS_RESULT_SEMANTICS_URI,
  ModelsResultPayloadSchema,
  parseLaws,
  printLaw,
  resolveSignature,
  runKernel,
  SignatureSchema,
  toAppError,
  UNIVERSAL_ALGEBRA_LIMITS,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type Diagnostic,
  type InvocationExample,
  type ListedModel,
  type Obligation,
  type StoredArtifact,
} from '@jacobian/shared';
import { algebraOfCells } from './enumerate-models.kernel.js';
import { LawTextsSchema } from './evaluate-laws.js';
import { cellLayout, instanceCount, MAX_ENUMERATION_INSTANCES, MAX_ENUMERATION_ORDER } from './model-enumeration.js';
import { ASSOCIATIVITY, GROUP_LAWS, GROUP_SIGNATURE, SEMIGROUP_SIGNATURE } from './example-signatures.js';

/** The capability ID. */
export const ENUMERATE_MODELS_CAPABILITY_ID = 'universal_algebra.enumerate.models';
/** Most classes listed in the output itself; more are stored as an artifact. */
export const MAX_INLINE_MODELS = 32;
/** Largest `max_models` a request may ask for. */
export const MAX_LISTED_MODELS = 100_000;

/** The files of this capability, for its provider's SOURCE_TREE digest (with UNIVERSAL_ALGEBRA_SOURCES). */
export const ENUMERATE_MODELS_SOURCES: readonly string[] = ['./enumerate-models.ts', './enumerate-models.kernel.ts', './model-enumeration.ts', './evaluate-laws.ts'].map(
  (file) => fileURLToPath(new URL(file, import.meta.url)),
);

const Int = z.number().int();

/** Input: signature, laws, the one order, and how many classes to list at most. */
export const EnumerateModelsInput = z
  .object({
    signature: SignatureSchema,
    laws: LawTextsSchema.describe('the laws every model satisfies (may be empty), e.g. "x * (y * z) = (x * y) * z"'),
    order: Int.min(1).max(MAX_ENUMERATION_ORDER).describe('n: the one order enumerated; the elements are 0 … n−1'),
    max_models: Int.min(1)
      .max(MAX_LISTED_MODELS)
      .default(10_000)
      .describe('stop once this many isomorphism classes are listed and another is found (the answer is then MODEL_LIMIT, a lower bound)'),
  })
  .strict();
export type EnumerateModelsInput = z.infer<typeof EnumerateModelsInput>;

/** How the enumeration ended. */
export const EnumerationStatus = {
  COMPLETE: 'COMPLETE',
  MODEL_LIMIT: 'MODEL_LIMIT',
  BUDGET_EXHAUSTED: 'BUDGET_EXHAUSTED',
} as const;
export type EnumerationStatus = (typeof EnumerationStatus)[keyof typeof EnumerationStatus];

const METHOD_STATEMENT =
  'backtracking over the table cells in a fixed order, propagating through every ground instance of the laws (a contradiction fails the branch; a missing outermost cell is deduced); values are tried once per class of values exchanged by a permutation that fixes the partial tables (least-number heuristic and the stabilizer of the partial tables), which keeps a labelling of every isomorphism class; each model reached is reduced to its least table under all n! relabellings, and distinct least tables are distinct classes';

/** Output of the enumeration. */
export const EnumerateModelsOutput = z
  .object({
    status: z.enum(EnumerationStatus).describe('COMPLETE: every model of this order is isomorphic to exactly one listed; MODEL_LIMIT: more than max_models classes exist; BUDGET_EXHAUSTED: the search stopped first'),
    order: Int,
    count: Int.describe('pairwise non-isomorphic models listed: the number of isomorphism classes when COMPLETE, a lower bound otherwise'),
    labelled_count: Int.describe('models on the labelled set 0 … n−1 that the listed classes account for (Σ n!/automorphisms): all of them when COMPLETE'),
    scope: z
      .object({ kind: z.literal('ONE_FIXED_ORDER'), order: Int, statement: z.string() })
      .strict()
      .describe('the enumeration covers algebras of exactly this order and nothing else'),
    models: z
      .array(ListedModelSchema)
      .nullable()
      .describe(`the classes, each by its canonical tables (the least under relabelling) and its automorphism count, when at most ${MAX_INLINE_MODELS}; otherwise null and stored under models_uri`),
    models_uri: z.string().nullable().describe(`the stored list of all classes (${MODELS_RESULT_SCHEMA_URI}) when more than ${MAX_INLINE_MODELS}; null when listed inline or not retained`),
    method: z.object({ name: z.literal('BACKTRACKING_LEAST_NUMBER_CANONICAL_FORM'), statement: z.string() }).strict(),
    search: z.object({ decisions: Int, leaves: Int.describe('complete models reached, isomorphic copies included') }).strict(),
    reason: z.string().nullable().describe('why the list may be incomplete; null when COMPLETE'),
  })
  .strict();
export type EnumerateModelsOutput = z.infer<typeof EnumerateModelsOutput>;

const KernelOutput = z
  .object({
    models: z.array(z.object({ cells: z.string().regex(/^[0-7]*$/), automorphisms: Int.min(1) }).strict()),
    stopped: z.enum(['MODEL_LIMIT', 'DEADLINE']).nullable(),
    decisions: Int.min(0),
    leaves: Int.min(0),
    labelled_count: Int.min(0),
  })
  .strict();

const KERNEL = { module: fileURLToPath(new URL('./enumerate-models.kernel.ts', import.meta.url)), exportName: 'enumerateModelsKernel' };

const EXAMPLES: InvocationExample[] = [
  {
    title: 'The two groups of order 4 (Z4 and the Klein four-group)',
    mode: 'EXPLORE',
    payload: { signature: GROUP_SIGNATURE, laws: GROUP_LAWS, order: 4 },
  },
  {
    title: 'The five semigroups of order 2',
    mode: 'EXPLORE',
    payload: { signature: SEMIGROUP_SIGNATURE, laws: [ASSOCIATIVITY], order: 2 },
  },
];

function notRetained(why: string): Diagnostic {
  return {
    severity: 'WARNING',
    code: 'EVIDENCE_NOT_RETAINED',
    stage: 'ARTIFACT',
    message: `the list of models was not retained: ${why}`.slice(0, 2000),
    path: null,
    hint: 'the count stands; lower max_models or raise the artifact store limits to keep the tables',
  };
}

/** The enumeration capability: our own TypeScript, run in the isolation pool. */
export const enumerateModelsCapability: CapabilityDefinition<EnumerateModelsInput, EnumerateModelsOutput> = {
  id: ENUMERATE_MODELS_CAPABILITY_ID,
  version: '1.0.0',
  title: 'Enumerate the finite models of a set of laws up to isomorphism, at one fixed order',
  description: `Lists every algebra of exactly order n (operation tables over 0 … n−1, n ≤ ${MAX_ENUMERATION_ORDER}) that satisfies the given laws, one per isomorphism class, with the number of classes, each class's automorphism count and the number of labelled models. Exact and complete for that order when the status is COMPLETE (e.g. 5 semigroups of order 2, 2 groups of order 4); tables are inline for at most ${MAX_INLINE_MODELS} classes and otherwise stored as an artifact. Method: backtracking search in TypeScript (no solver) with propagation through the laws' ground instances, least-number symmetry breaking, and canonical forms under all n! relabellings; every listed model is rechecked against every law. Says nothing about other orders.`,
  tags: ['universal-algebra', 'finite-model', 'model-enumeration', 'isomorphism-classes', 'equational-logic', 'semigroup', 'group', 'quasigroup', 'exhaustive', 'exact'],
  keywords: ['enumerate models', 'all models', 'count models', 'models up to isomorphism', 'finite algebras', 'semigroups of order n', 'groups of order n', 'magmas', 'monoids', 'quasigroups', 'Cayley tables', 'isomorphism classes', 'Mace4', 'spectrum', 'OEIS'],
  domain: 'universal_algebra',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'heavy',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [MODELS_RESULT_SCHEMA_URI],
  input: EnumerateModelsInput,
  output: EnumerateModelsOutput,
  examples: EXAMPLES,
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule:
    'Covers algebras of the one requested order only (ONE_FIXED_ORDER); a COMPLETE list holds one model of every isomorphism class of that order, a MODEL_LIMIT or BUDGET_EXHAUSTED list is a lower bound.',
  limits: {
    min_order: 1,
    max_order: MAX_ENUMERATION_ORDER,
    max_models: MAX_LISTED_MODELS,
    max_inline_models: MAX_INLINE_MODELS,
    max_instances: MAX_ENUMERATION_INSTANCES,
    max_laws: UNIVERSAL_ALGEBRA_LIMITS.maxLaws,
    max_law_length: UNIVERSAL_ALGEBRA_LIMITS.maxLawLength,
    instance_bound: 'the laws have Σ n^k ground instances (k variables each); the sum must stay within max_instances',
  },
  async run(input, context): Promise<CapabilityOutcome<EnumerateModelsOutput>> {
    // Everything is checked here, before the kernel, so errors name the request's paths.
    const signature = resolveSignature(input.signature, ['payload', 'signature']);
    const laws = parseLaws(input.laws, signature, ['payload', 'laws']);
    const n = input.order;
    const instances = instanceCount(laws, n);
    if (instances > MAX_ENUMERATION_INSTANCES) {
      throw new JacobianError(
        'INVALID_REQUEST',
        `payload.laws: at order ${n} the laws have ${instances} ground instances (n^k per law with k variables), more than the limit of ${MAX_ENUMERATION_INSTANCES}`,
        { path: ['payload', 'laws'], hint: 'lower the order, or state the laws with fewer variables' },
      );
    }
    context.progress({ progress: 0, total: 1, message: `enumerating the models of order ${n}` });
    const found = KernelOutput.parse(await runKernel(context, KERNEL, { signature: input.signature, laws: input.laws, order: n, max_models: input.max_models }));
    const layout = cellLayout(signature, n);
    const models: ListedModel[] = found.models.map((model) => {
      if (model.cells.length !== layout.cells) throw new JacobianError('PROVIDER_FAILED', `the search returned a model of ${model.cells.length} cells, not ${layout.cells}; the result was discarded`);
      const cells = Array.from(model.cells, (digit) => digit.charCodeAt(0) - 48);
      if (cells.some((value) => value >= n)) throw new JacobianError('PROVIDER_FAILED', `the search returned a table entry outside 0 … ${n - 1}; the result was discarded`);
      return { tables: algebraTables(algebraOfCells(layout, cells)), automorphisms: model.automorphisms };
    });
    const status: EnumerationStatus = found.stopped === null ? 'COMPLETE' : found.stopped === 'MODEL_LIMIT' ? 'MODEL_LIMIT' : 'BUDGET_EXHAUSTED';
    const complete = status === 'COMPLETE';
    const lawsText = laws.length === 0 ? 'no laws' : `the ${laws.length} law${laws.length === 1 ? '' : 's'} ${laws.map((law) => `"${printLaw(law, signature)}"`).join(', ')}`;
    const scopeStatement = `algebras of order exactly ${n} for the given signature satisfying ${lawsText}, up to isomorphism; nothing about other orders`.slice(0, 1900);
    const reason =
      status === 'MODEL_LIMIT'
        ? `more than max_models = ${input.max_models} isomorphism classes exist; the first ${models.length} found are listed`
        : status === 'BUDGET_EXHAUSTED'
          ? `the search was stopped to stay within the wall-time budget after ${found.decisions} decisions; the ${models.length} classes found are listed`
          : null;

    const diagnostics: Diagnostic[] = [];
    let stored: StoredArtifact | null = null;
    if (models.length > MAX_INLINE_MODELS) {
      const payload = ModelsResultPayloadSchema.parse({
        signature: input.signature,
        laws: input.laws,
        order: n,
        complete,
        count: models.length,
        labelled_count: found.labelled_count,
        models,
        method: METHOD_STATEMENT,
      });
      try {
        stored = await context.artifacts.put(
          {
            schema_uri: MODELS_RESULT_SCHEMA_URI,
            semantics_uri: MODELS_RESULT_SEMANTICS_URI,
            payload,
            parents: [],
            summary: { order: n, count: models.length, complete, labelled_count: found.labelled_count },
          },
          { signal: context.signal },
        );
      } catch (error) {
        const appError = toAppError(error);
        if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
        diagnostics.push(notRetained(appError.message));
      }
    }
    if (reason !== null) {
      diagnostics.push({
        severity: 'WARNING',
        code: status === 'MODEL_LIMIT' ? 'MODEL_LIMIT_REACHED' : 'BUDGET_EXHAUSTED',
        stage: 'EXECUTION',
        message: reason,
        path: status === 'MODEL_LIMIT' ? ['payload', 'max_models'] : null,
        hint: status === 'MODEL_LIMIT' ? 'raise max_models' : 'raise budget.wall_time_ms, or lower the order',
      });
    }
    const obligations: Obligation[] = complete
      ? [
          {
            id: 'enumeration-completeness',
            statement: `Every model of order ${n} is isomorphic to a listed one: this rests on the search (its propagation and symmetry breaking) being sound; the listed models were each rechecked against every law, but their completeness was not checked independently.`,
            status: 'OPEN',
            discharged_by: [],
          },
        ]
      : [];
    return {
      status: 'COMPLETED',
      output: {
        status,
        order: n,
        count: models.length,
        labelled_count: found.labelled_count,
        scope: { kind: 'ONE_FIXED_ORDER', order: n, statement: scopeStatement },
        models: models.length <= MAX_INLINE_MODELS ? models : null,
        models_uri: stored?.uri ?? null,
        method: { name: 'BACKTRACKING_LEAST_NUMBER_CANONICAL_FORM', statement: METHOD_STATEMENT },
        search: { decisions: found.decisions, leaves: found.leaves },
        reason,
      },
      scope: { kind: 'EXACT_INPUT', statement: `the isomorphism classes of ${scopeStatement}`.slice(0, 2000), input_uris: [] },
      completeness: complete
        ? {
            status: 'COMPLETE',
            basis: `the search tree of order ${n} was exhausted: ${models.length} isomorphism class${models.length === 1 ? '' : 'es'} (${found.labelled_count} labelled models), each model rechecked against every law`,
          }
        : { status: 'PARTIAL', basis: (reason ?? '').slice(0, 1000) },
      qualifiers: complete ? ['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC'] : ['EXACT', 'BOUNDED'],
      assurance: {
        level: 'COMPUTED',
        basis:
          'enumerated by our own backtracking search (isolated); every listed model rechecked exhaustively by the shared evaluator, and classes told apart by canonical forms under all n! relabellings',
        verification_record_uri: null,
        checker_id: null,
      },
      obligations,
      relationships: [],
      artifact_uris: stored === null ? [] : [stored.uri],
      diagnostics,
    };
  },
};

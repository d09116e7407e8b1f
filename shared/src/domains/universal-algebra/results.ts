/**
 * The artifacts universal_algebra capabilities store so that others can re-read them: a
 * countermodel (one finite algebra, a claim a checker can verify on its own), and the models of
 * a set of laws at one order, up to isomorphism.
 *
 * Both hold the signature and the law texts exactly as the request gave them, so a reader
 * re-parses them with the grammar of syntax.ts instead of trusting a producer's parse.
 */
import { z } from 'zod';
import { OperationTableSchema } from './algebra.js';
import { UNIVERSAL_ALGEBRA_LIMITS } from './limits.js';
import { SignatureSchema } from './signature.js';

/** Schema of a stored countermodel: {@link CountermodelResultPayloadSchema}. */
export const COUNTERMODEL_RESULT_SCHEMA_URI = 'jacobian:schema/universal_algebra.countermodel.result/v1';
/**
 * What a stored countermodel claims: the algebra of order `order` with these tables satisfies
 * every source law under every assignment of its variables, and the two sides of the target law
 * take the values `target_values` (which differ) under `violating_assignment`.
 */
export const COUNTERMODEL_RESULT_SEMANTICS_URI = 'jacobian:semantics/universal_algebra.countermodel/v1';

/** Schema of stored models: {@link ModelsResultPayloadSchema}. */
export const MODELS_RESULT_SCHEMA_URI = 'jacobian:schema/universal_algebra.models.result/v1';
/**
 * What stored models claim: each listed algebra of order `order` satisfies the laws, no two are
 * isomorphic, and, when `complete` is true, every model of the laws of that order is isomorphic
 * to one of them.
 */
export const MODELS_RESULT_SEMANTICS_URI = 'jacobian:semantics/universal_algebra.models.up_to_isomorphism/v1';

const LawText = z.string().min(1).max(UNIVERSAL_ALGEBRA_LIMITS.maxLawLength);
const Element = z.number().int().min(0);
const Order = z.number().int().min(1).max(UNIVERSAL_ALGEBRA_LIMITS.maxAlgebraOrder);
const Tables = z
  .record(z.string(), OperationTableSchema)
  .describe('one table per operation of the signature, by name: constant → element, unary → [f(0), …], binary → rows [[0∘0, 0∘1, …], …]');

const countermodelClaimShape = {
  signature: SignatureSchema,
  laws: z.array(LawText).max(UNIVERSAL_ALGEBRA_LIMITS.maxLaws).describe('the source laws the algebra satisfies (may be empty)'),
  target: LawText.describe('the law the algebra violates'),
  order: Order.describe('n: the elements are 0 … n−1'),
  tables: Tables,
  violating_assignment: z
    .record(z.string(), Element)
    .describe("an element for each variable of the target law (exactly its variables), under which the target's two sides differ"),
  target_values: z
    .object({ left: Element, right: Element })
    .strict()
    .describe("the values of the target's left and right sides under violating_assignment"),
};

/**
 * A countermodel claim as data: the signature, the source and target law texts, and one finite
 * algebra with an assignment at which the target fails. Only the JSON shape is checked here;
 * whether the tables are total and in range and the laws behave as claimed is the checker's work.
 */
export const CountermodelClaimSchema = z.object(countermodelClaimShape).strict();
export type CountermodelClaim = z.infer<typeof CountermodelClaimSchema>;

/** Who produced a stored countermodel; null when a checker stored a claim it was given inline. */
const CountermodelProvenanceSchema = z
  .object({
    capability_id: z.string().min(1),
    capability_version: z.string().min(1),
    provider: z.string().min(1),
    provider_version: z.string(),
    provider_digest: z.string(),
    engine: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('which engine of the provider found the countermodel (e.g. TS_SEARCH, CADICAL, Z3); absent in results stored before engines were named'),
  })
  .strict();

/** Payload of a {@link COUNTERMODEL_RESULT_SCHEMA_URI} artifact: the claim and where it came from. */
export const CountermodelResultPayloadSchema = z
  .object({ ...countermodelClaimShape, provenance: CountermodelProvenanceSchema.nullable() })
  .strict();
export type CountermodelResultPayload = z.infer<typeof CountermodelResultPayloadSchema>;

/** One model in a {@link ModelsResultPayloadSchema}: its tables and the order of its automorphism group. */
export const ListedModelSchema = z
  .object({
    tables: Tables,
    automorphisms: z.number().int().min(1).describe('how many permutations of 0 … n−1 map the model to itself'),
  })
  .strict();
export type ListedModel = z.infer<typeof ListedModelSchema>;

/** Payload of a {@link MODELS_RESULT_SCHEMA_URI} artifact. */
export const ModelsResultPayloadSchema = z
  .object({
    signature: SignatureSchema,
    laws: z.array(LawText).max(UNIVERSAL_ALGEBRA_LIMITS.maxLaws),
    order: Order,
    complete: z.boolean().describe('true when every model of this order is isomorphic to a listed one'),
    count: z.number().int().min(0).describe('how many pairwise non-isomorphic models are listed'),
    labelled_count: z.number().int().min(0).describe('the models on the labelled set 0 … n−1 that the listed ones account for: the sum of n!/automorphisms'),
    models: z.array(ListedModelSchema),
    method: z.string().min(1).describe('how the models were found and told apart'),
  })
  .strict()
  .superRefine((payload, ctx) => {
    if (payload.count !== payload.models.length) ctx.addIssue({ code: 'custom', path: ['count'], message: `count is ${payload.count} but ${payload.models.length} models are listed` });
  });
export type ModelsResultPayload = z.infer<typeof ModelsResultPayloadSchema>;

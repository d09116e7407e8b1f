/**
 * How the claim capabilities take a formula: text in our grammar (`formula`), a tree as JSON
 * (`structure`), or a stored PROPOSITIONAL_STRUCTURE (`structure_uri`), exactly one. Each is
 * read by the shared strict parser, so bad input is an INVALID_REQUEST naming the field, the
 * position or node, and the rule.
 */
import { getTypedArtifactAt } from '@jacobian/shared';
import { z } from 'zod';
import { ArtifactUriSchema, JacobianError, type CapabilityContext, type StoredArtifact } from '@jacobian/shared';
import {
  formulaStats,
  parsePropositional,
  parsePropositionalPayload,
  parsePropositionalStructure,
  PROPOSITIONAL_FORMULA_SEMANTICS_URI,
  PROPOSITIONAL_LIMITS,
  PROPOSITIONAL_STRUCTURE_SCHEMA_URI,
  propositionalPayload,
  PropositionalStructurePayloadSchema,
  type PropositionalFormula,
} from './propositional-domain.js';

/** The three fields of a formula operand; spread into a capability's input object. */
export const formulaOperandShape = {
  formula: z
    .string()
    .min(1)
    .max(PROPOSITIONAL_LIMITS.maxTextLength)
    .optional()
    .describe('the formula as text: atoms (identifiers), ! or not, & or and, | or or, -> or implies, <-> or iff, parentheses; precedence ! > & > | > -> > <->, -> right-associative, <-> not chained'),
  structure: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('the formula as a tree: {kind: "atom", name} | {kind: "not", operand} | {kind: "and"|"or", operands: [≥2]} | {kind: "implies", antecedent, consequent} | {kind: "iff", left, right} | {kind: "group", inner}'),
  structure_uri: ArtifactUriSchema.optional().describe(`a stored formula (${PROPOSITIONAL_STRUCTURE_SCHEMA_URI}), e.g. the structure_uri of claim.validate`),
};

/** A zod refinement: exactly one of `formula`, `structure` and `structure_uri`. */
export function exactlyOneFormula(input: { formula?: string | undefined; structure?: unknown; structure_uri?: string | undefined }, ctx: z.RefinementCtx): void {
  const given = [input.formula, input.structure, input.structure_uri].filter((x) => x !== undefined).length;
  if (given !== 1) ctx.addIssue({ code: 'custom', path: [], message: 'give the formula in exactly one of `formula` (text), `structure` (a tree) or `structure_uri` (a stored structure)' });
}

/** A formula read from a request. */
export interface ResolvedFormula {
  formula: PropositionalFormula;
  /** The stored structure it came from; null when given inline. */
  uri: string | null;
  /** Words naming the formula, for scopes. */
  description: string;
}


/** Read a stored structure; the stored payload is at fault (ARTIFACT_TYPE_MISMATCH) when it does not check. */
export async function readStructureArtifact(uri: string, context: CapabilityContext): Promise<PropositionalFormula> {
  const path = ['payload', 'structure_uri'];
  const { payload } = await getTypedArtifactAt(context.artifacts, uri, path, { schemaUri: PROPOSITIONAL_STRUCTURE_SCHEMA_URI, what: 'a stored formula', payload: PropositionalStructurePayloadSchema }, { signal: context.signal });
  try {
    return parsePropositionalPayload(payload);
  } catch (error) {
    if (!(error instanceof JacobianError)) throw error;
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `payload.structure_uri: the stored structure does not check: ${error.message}`, { path, cause: error });
  }
}

/** The formula of a validated request. */
export async function resolveFormula(input: { formula?: string | undefined; structure?: unknown; structure_uri?: string | undefined }, context: CapabilityContext): Promise<ResolvedFormula> {
  let formula: PropositionalFormula;
  let uri: string | null = null;
  if (input.formula !== undefined) formula = parsePropositional(input.formula, ['payload', 'formula']);
  else if (input.structure !== undefined) formula = parsePropositionalStructure(input.structure, ['payload', 'structure']);
  else {
    uri = input.structure_uri as string;
    formula = await readStructureArtifact(uri, context);
  }
  const stats = formulaStats(formula);
  const where = uri === null ? 'given inline' : uri;
  return { formula, uri, description: `the formula ${where} (${stats.atoms.length} atoms, ${stats.nodes} nodes)` };
}

/** Store a formula as a PROPOSITIONAL_STRUCTURE artifact (equal trees, equal URIs). */
export async function storeStructure(formula: PropositionalFormula, context: CapabilityContext, parents: string[] = [], summary: Record<string, string | number | boolean> = {}): Promise<StoredArtifact> {
  const payload = propositionalPayload(formula);
  return context.artifacts.put(
    {
      schema_uri: PROPOSITIONAL_STRUCTURE_SCHEMA_URI,
      semantics_uri: PROPOSITIONAL_FORMULA_SEMANTICS_URI,
      payload,
      parents,
      summary: { atoms: payload.atoms.length, nodes: payload.nodes, depth: payload.depth, ...summary },
    },
    { signal: context.signal },
  );
}

/** The URI of the resolved formula's stored structure, storing it when it came inline. */
export async function structureUriOf(resolved: ResolvedFormula, context: CapabilityContext): Promise<string> {
  return resolved.uri ?? (await storeStructure(resolved.formula, context)).uri;
}

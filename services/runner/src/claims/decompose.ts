/**
 * The shared work of claim.conjunction.split and claim.implication.obligations: take the main
 * connective of a formula (under any parentheses around the whole of it), store each immediate
 * subtree in order as its own structure artifact whose parent is the source, and return the data
 * that puts the source back together. Only the immediate subtrees are taken: a part keeps its own
 * parentheses and nested connectives exactly as written, so `(a & b) & c` splits into `(a & b)`
 * and `c`, never into three parts.
 */
import { z } from 'zod';
import type { CapabilityContext, CapabilityOutcome } from '@jacobian/shared';
import { storeStructure, structureUriOf, type ResolvedFormula } from './formula-operand.js';
import { formulaStats, printPropositional, propositionalError, unwrapGroups, type PropositionalFormula } from './propositional-domain.js';

const Int = z.number().int().min(0);

/** One immediate subtree, stored. */
export const DecomposedPart = z
  .object({
    index: Int.describe('position among the immediate subtrees, from 0, in the order written'),
    role: z.enum(['CONJUNCT', 'ANTECEDENT', 'CONSEQUENT']),
    structure_uri: z.string().describe('the part as its own stored structure; its parent is source_uri'),
    text: z.string().describe('the part as written (its own parentheses kept)'),
    top_level: z.enum(['atom', 'not', 'and', 'or', 'implies', 'iff', 'group']).describe('the part’s root node; group when it was written in parentheses'),
    atoms: z.array(z.string()),
  })
  .strict();
export type DecomposedPart = z.infer<typeof DecomposedPart>;

/** What rebuilds the source from the parts. */
export const Reconstruction = z
  .object({
    operator: z.enum(['and', 'implies']).describe('the connective joining the parts'),
    part_uris: z.array(z.string()).describe('the parts in order'),
    outer_groups: Int.describe('pairs of parentheses that enclosed the whole source, put back around the joined parts'),
    text: z.string().describe('the parts joined by the operator inside outer_groups parentheses: exactly the source’s canonical text'),
  })
  .strict();
export type Reconstruction = z.infer<typeof Reconstruction>;

export interface Decomposition {
  sourceUri: string;
  parts: DecomposedPart[];
  reconstruction: Reconstruction;
}

/**
 * Store the immediate subtrees of `resolved`'s main connective, which must be `operator`.
 *
 * @throws JacobianError INVALID_REQUEST (rule NOT_A_CONJUNCTION / NOT_AN_IMPLICATION) naming the input field, otherwise.
 */
export async function decompose(resolved: ResolvedFormula, operator: 'and' | 'implies', field: string, context: CapabilityContext): Promise<Decomposition> {
  const { core, groups } = unwrapGroups(resolved.formula);
  if (core.kind !== operator) {
    const rule = operator === 'and' ? 'NOT_A_CONJUNCTION' : 'NOT_AN_IMPLICATION';
    const wanted = operator === 'and' ? 'a conjunction (&)' : 'an implication (->)';
    throw propositionalError(['payload', field], rule, `the main connective is ${core.kind === 'atom' ? 'none (the formula is an atom)' : core.kind}, not ${wanted}`);
  }
  // The parts are the source's own subtrees, so wrapping them in `groups` gives the source back.
  const subtrees: PropositionalFormula[] = core.kind === 'and' ? core.operands : [core.antecedent, core.consequent];
  const sourceUri = await structureUriOf(resolved, context);
  const parts: DecomposedPart[] = [];
  for (const [index, part] of subtrees.entries()) {
    const role = operator === 'and' ? 'CONJUNCT' : index === 0 ? 'ANTECEDENT' : 'CONSEQUENT';
    const stored = await storeStructure(part, context, [sourceUri], { role, index });
    parts.push({ index, role, structure_uri: stored.uri, text: printPropositional(part), top_level: part.kind, atoms: formulaStats(part).atoms });
  }
  return {
    sourceUri,
    parts,
    reconstruction: { operator, part_uris: parts.map((p) => p.structure_uri), outer_groups: groups, text: printPropositional(resolved.formula) },
  };
}

/** The result of a decomposition, shared by both capabilities. */
export function decompositionOutcome<O>(resolved: ResolvedFormula, decomposition: Decomposition, output: O, what: string): CapabilityOutcome<O> {
  const { sourceUri, parts } = decomposition;
  return {
    status: 'COMPLETED',
    output,
    scope: { kind: 'EXACT_INPUT', statement: `the ${what} of ${resolved.description}`, input_uris: resolved.uri === null ? [] : [resolved.uri] },
    completeness: { status: 'COMPLETE', basis: `every immediate subtree of the main connective was stored, in order; joined again they rebuild the source tree exactly` },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: { level: 'COMPUTED', basis: 'a syntactic decomposition of the parsed tree by our code, rechecked by rebuilding the source from its parts', verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: parts.map((p) => ({ subject: p.structure_uri, predicate: 'COMPUTED_FROM' as const, object: sourceUri })),
    artifact_uris: [sourceUri, ...parts.map((p) => p.structure_uri)],
    diagnostics: [],
  };
}

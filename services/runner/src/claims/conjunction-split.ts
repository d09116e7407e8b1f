/**
 * claim.conjunction.split: the immediate conjuncts of a formula whose main connective is `&`, in
 * the order written, each stored as its own structure (parent: the source), with the data that
 * rebuilds the source. A formula whose main connective is not `&` is refused (INVALID_REQUEST,
 * rule NOT_A_CONJUNCTION) rather than answered with one part: a one-part "split" would hide that
 * the claim is not a conjunction, and a caller that wants the whole formula has it already.
 * Parentheses around the whole formula are looked through and recorded (outer_groups).
 */
import { z } from 'zod';
import type { CapabilityDefinition } from '@jacobian/shared';
import { DecomposedPart, decompose, decompositionOutcome, Reconstruction } from './decompose.js';
import { exactlyOneFormula, formulaOperandShape, resolveFormula } from './formula-operand.js';
import { PROPOSITIONAL_LIMITS, PROPOSITIONAL_STRUCTURE_SCHEMA_URI } from './propositional-domain.js';

export const CONJUNCTION_SPLIT_CAPABILITY_ID = 'claim.conjunction.split';

export const SplitConjunctionInput = z.object({ ...formulaOperandShape }).strict().superRefine(exactlyOneFormula);
export type SplitConjunctionInput = z.infer<typeof SplitConjunctionInput>;

export const SplitConjunctionOutput = z
  .object({
    source_uri: z.string().describe('the stored source formula, parent of every part'),
    count: z.number().int().min(2),
    conjuncts: z.array(DecomposedPart).describe('the immediate conjuncts in the order written; nested grouping kept inside each'),
    reconstruction: Reconstruction,
  })
  .strict();
export type SplitConjunctionOutput = z.infer<typeof SplitConjunctionOutput>;

/** The claim.conjunction.split capability (our TypeScript). */
export const splitConjunction: CapabilityDefinition<SplitConjunctionInput, SplitConjunctionOutput> = {
  id: CONJUNCTION_SPLIT_CAPABILITY_ID,
  version: '1.0.0',
  title: 'Split a conjunction into its immediate conjuncts',
  description:
    'For a propositional formula whose main connective is & (text, tree or stored structure), stores each immediate conjunct, in the order written, as its own structure artifact whose parent is the source, and returns how to rebuild the source (operator, order, outer parentheses). Only one level is split: a parenthesized conjunction stays one part, so (a & b) & c gives (a & b) and c. A formula whose main connective is not & is an error with rule NOT_A_CONJUNCTION.',
  tags: ['claim', 'propositional-logic', 'conjunction', 'decomposition', 'structure', 'artifact'],
  keywords: ['split a conjunction', 'conjuncts', 'AND', 'decompose a claim', 'subgoals'],
  domain: 'logic',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
  accepted_artifact_types: [PROPOSITIONAL_STRUCTURE_SCHEMA_URI],
  produced_artifact_types: [PROPOSITIONAL_STRUCTURE_SCHEMA_URI],
  input: SplitConjunctionInput,
  output: SplitConjunctionOutput,
  examples: [
    { title: 'Three conjuncts, one of them parenthesized', mode: 'EXPLORE', payload: { formula: 'p & (q & r) & (p -> s)' } },
    { title: 'Parentheses around the whole formula are looked through', mode: 'EXPLORE', payload: { formula: '((a | b) & !c)' } },
  ],
  relationships: [{ kind: 'CONSUMES_OUTPUT_OF', capability_id: 'claim.validate' }],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the one formula given: its main conjunction’s immediate conjuncts, nothing below them.',
  limits: { ...PROPOSITIONAL_LIMITS },
  async run(input, context) {
    const resolved = await resolveFormula(input, context);
    const field = input.formula !== undefined ? 'formula' : input.structure !== undefined ? 'structure' : 'structure_uri';
    const decomposition = await decompose(resolved, 'and', field, context);
    const output = { source_uri: decomposition.sourceUri, count: decomposition.parts.length, conjuncts: decomposition.parts, reconstruction: decomposition.reconstruction };
    return decompositionOutcome(resolved, decomposition, output, 'immediate conjuncts');
  },
};

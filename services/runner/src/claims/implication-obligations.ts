/**
 * claim.implication.obligations: for a formula A -> B, the antecedent A (what may be assumed)
 * and the consequent B (what must then be shown), each stored as its own structure (parent: the
 * source), with the data that rebuilds the source. Implication is right-associative, so
 * a -> b -> c gives a and b -> c. A formula whose main connective is not -> is refused
 * (INVALID_REQUEST, rule NOT_AN_IMPLICATION), for the reason given in conjunction-split.ts.
 */
import { z } from 'zod';
import type { CapabilityDefinition } from '@jacobian/shared';
import { DecomposedPart, decompose, decompositionOutcome, Reconstruction } from './decompose.js';
import { exactlyOneFormula, formulaOperandShape, resolveFormula } from './formula-operand.js';
import { PROPOSITIONAL_LIMITS, PROPOSITIONAL_STRUCTURE_SCHEMA_URI } from './propositional-domain.js';

export const IMPLICATION_OBLIGATIONS_CAPABILITY_ID = 'claim.implication.obligations';

export const ImplicationObligationsInput = z.object({ ...formulaOperandShape }).strict().superRefine(exactlyOneFormula);
export type ImplicationObligationsInput = z.infer<typeof ImplicationObligationsInput>;

export const ImplicationObligationsOutput = z
  .object({
    source_uri: z.string().describe('the stored source formula, parent of both parts'),
    antecedent: DecomposedPart.describe('A: the hypothesis, assumed'),
    consequent: DecomposedPart.describe('B: what must be shown under A'),
    obligation: z.string().describe('in words: assuming the antecedent, prove the consequent'),
    reconstruction: Reconstruction,
  })
  .strict();
export type ImplicationObligationsOutput = z.infer<typeof ImplicationObligationsOutput>;

/** The claim.implication.obligations capability (our TypeScript). */
export const implicationObligations: CapabilityDefinition<ImplicationObligationsInput, ImplicationObligationsOutput> = {
  id: IMPLICATION_OBLIGATIONS_CAPABILITY_ID,
  version: '1.0.0',
  title: 'Split an implication into its antecedent and consequent',
  description:
    'For a propositional formula whose main connective is -> (text, tree or stored structure), stores the immediate antecedent A and consequent B as their own structure artifacts whose parent is the source: to establish A -> B, assume A and show B. Grouping inside each part is kept as written; -> is right-associative, so a -> b -> c gives a and b -> c. Returns how to rebuild the source. A formula whose main connective is not -> is an error with rule NOT_AN_IMPLICATION.',
  tags: ['claim', 'propositional-logic', 'implication', 'obligation', 'decomposition', 'structure', 'artifact'],
  keywords: ['implication', 'antecedent', 'consequent', 'hypothesis', 'conclusion', 'premises', 'proof obligation'],
  domain: 'logic',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
  accepted_artifact_types: [PROPOSITIONAL_STRUCTURE_SCHEMA_URI],
  produced_artifact_types: [PROPOSITIONAL_STRUCTURE_SCHEMA_URI],
  input: ImplicationObligationsInput,
  output: ImplicationObligationsOutput,
  examples: [
    { title: 'Modus ponens', mode: 'EXPLORE', payload: { formula: '((p -> q) & p) -> q' } },
    { title: 'A right-associated chain', mode: 'EXPLORE', payload: { formula: 'a -> b -> c' } },
  ],
  relationships: [{ kind: 'CONSUMES_OUTPUT_OF', capability_id: 'claim.validate' }],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the one formula given: its main implication’s antecedent and consequent, nothing below them.',
  limits: { ...PROPOSITIONAL_LIMITS },
  async run(input, context) {
    const resolved = await resolveFormula(input, context);
    const field = input.formula !== undefined ? 'formula' : input.structure !== undefined ? 'structure' : 'structure_uri';
    const decomposition = await decompose(resolved, 'implies', field, context);
    const [antecedent, consequent] = decomposition.parts as [DecomposedPart, DecomposedPart];
    const output = {
      source_uri: decomposition.sourceUri,
      antecedent,
      consequent,
      obligation: `assuming ${antecedent.text}, show ${consequent.text}`,
      reconstruction: decomposition.reconstruction,
    };
    return decompositionOutcome(resolved, decomposition, output, 'antecedent and consequent');
  },
};

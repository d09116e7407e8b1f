/**
 * claim.validate: read a propositional formula (text in our grammar, or a tree) and store it as
 * a typed PROPOSITIONAL_STRUCTURE artifact that keeps the grouping as written. Parsing is linear
 * in the size of the formula and bounded by PROPOSITIONAL_LIMITS, so it runs without isolation.
 */
import { z } from 'zod';
import type { CapabilityDefinition } from '@jacobian/shared';
import { exactlyOneFormula, formulaOperandShape, resolveFormula, storeStructure } from './formula-operand.js';
import { formulaStats, printPropositional, PROPOSITIONAL_LIMITS, PROPOSITIONAL_STRUCTURE_SCHEMA_URI, unwrapGroups } from './propositional-domain.js';

export const VALIDATE_CAPABILITY_ID = 'claim.validate';

export const ValidateClaimInput = z.object({ ...formulaOperandShape }).strict().superRefine(exactlyOneFormula);
export type ValidateClaimInput = z.infer<typeof ValidateClaimInput>;

const Int = z.number().int().min(0);
export const TopLevelKind = z.enum(['atom', 'not', 'and', 'or', 'implies', 'iff']);

export const ValidateClaimOutput = z
  .object({
    structure_uri: z.string().describe(`the stored formula (${PROPOSITIONAL_STRUCTURE_SCHEMA_URI}); equal trees give the same URI`),
    text: z.string().describe('the canonical printing (symbols); parsing it gives the same tree'),
    words: z.string().describe('the same formula with the operators as words'),
    atoms: z.array(z.string()).describe('distinct atoms in order of first appearance'),
    atom_count: Int,
    nodes: Int.describe('nodes of the tree, parentheses (group nodes) included'),
    depth: Int.describe('depth of the tree; an atom has depth 1'),
    top_level: TopLevelKind.describe('the main connective, under any parentheses around the whole formula'),
    outer_groups: Int.describe('pairs of parentheses around the whole formula'),
  })
  .strict();
export type ValidateClaimOutput = z.infer<typeof ValidateClaimOutput>;

/** The claim.validate capability (our TypeScript). */
export const validateClaim: CapabilityDefinition<ValidateClaimInput, ValidateClaimOutput> = {
  id: VALIDATE_CAPABILITY_ID,
  version: '1.0.0',
  title: 'Check a propositional formula and store it as a typed structure',
  description:
    'Parses a propositional formula — text with atoms, ! & | -> <-> (or not and or implies iff) and parentheses, or a tree as JSON, or a stored structure — and stores it as a PROPOSITIONAL_STRUCTURE artifact that keeps the parentheses as written. Reports the atoms, size and depth. A malformed formula is an error naming the line, column and rule broken. Pass structure_uri to claim.conjunction.split, claim.implication.obligations or claim.propositional.decide.',
  tags: ['claim', 'propositional-logic', 'formula', 'parser', 'artifact', 'validation', 'structure'],
  keywords: ['parse a formula', 'well-formed formula', 'propositional formula', 'boolean formula', 'syntax check'],
  domain: 'logic',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
  accepted_artifact_types: [PROPOSITIONAL_STRUCTURE_SCHEMA_URI],
  produced_artifact_types: [PROPOSITIONAL_STRUCTURE_SCHEMA_URI],
  input: ValidateClaimInput,
  output: ValidateClaimOutput,
  examples: [
    { title: 'Modus ponens as one formula', mode: 'EXPLORE', payload: { formula: '((p -> q) & p) -> q' } },
    { title: 'A formula as a tree', mode: 'EXPLORE', payload: { structure: { kind: 'or', operands: [{ kind: 'atom', name: 'p' }, { kind: 'not', operand: { kind: 'atom', name: 'p' } }] } } },
  ],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the one formula given: it is well formed, and the artifact holds its tree as written.',
  limits: { ...PROPOSITIONAL_LIMITS },
  async run(input, context) {
    const resolved = await resolveFormula(input, context);
    const stats = formulaStats(resolved.formula);
    const stored = resolved.uri === null ? await storeStructure(resolved.formula, context) : { uri: resolved.uri };
    const { core, groups } = unwrapGroups(resolved.formula);
    return {
      status: 'COMPLETED',
      output: {
        structure_uri: stored.uri,
        text: printPropositional(resolved.formula),
        words: printPropositional(resolved.formula, 'words'),
        atoms: stats.atoms,
        atom_count: stats.atoms.length,
        nodes: stats.nodes,
        depth: stats.depth,
        top_level: core.kind as z.infer<typeof TopLevelKind>,
        outer_groups: groups,
      },
      scope: { kind: 'EXACT_INPUT', statement: `the well-formedness and structure of ${resolved.description}`, input_uris: resolved.uri === null ? [] : [resolved.uri] },
      completeness: { status: 'COMPLETE', basis: 'the whole formula was read and checked against the grammar and the size limits' },
      qualifiers: ['EXACT', 'DETERMINISTIC'],
      assurance: { level: 'COMPUTED', basis: 'our strict parser and printer; the stored tree re-parses from its own printing', verification_record_uri: null, checker_id: null },
      obligations: [],
      relationships: [],
      artifact_uris: [stored.uri],
      diagnostics: [],
    };
  },
};

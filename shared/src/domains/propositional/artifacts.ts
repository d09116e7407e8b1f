/**
 * The PROPOSITIONAL_STRUCTURE artifact: a propositional formula as a typed tree that keeps the
 * grouping as written, with its canonical printing and counts. The counts and the text are
 * derived from the tree; {@link parsePropositionalPayload} recomputes and checks them, so a
 * reader never trusts them blindly.
 */
import { z } from 'zod';
import type { JsonPath } from '../../errors.js';
import { formulaStats, parsePropositionalStructure, printPropositional, propositionalError, type PropositionalFormula } from './syntax.js';

/** Schema of a stored propositional structure. */
export const PROPOSITIONAL_STRUCTURE_SCHEMA_URI = 'jacobian:schema/propositional.structure/v1';
/** Meaning of a stored structure: the formula itself, a claim to be decided, nothing asserted. */
export const PROPOSITIONAL_FORMULA_SEMANTICS_URI = 'jacobian:semantics/propositional.formula/v1';

const Count = z.number().int().min(0);

/** A stored structure. `formula` is checked by {@link parsePropositionalStructure}. */
export const PropositionalStructurePayloadSchema = z
  .object({
    format: z.literal('PROPOSITIONAL_STRUCTURE'),
    formula: z.unknown().describe('the tree: {kind: atom|not|and|or|implies|iff|group, …}, grouping kept as written'),
    text: z.string().describe('the canonical printing of the tree (symbols, single spaces)'),
    atoms: z.array(z.string()).describe('the distinct atoms in order of first appearance'),
    nodes: Count,
    depth: Count,
  })
  .strict();
export type PropositionalStructurePayload = z.infer<typeof PropositionalStructurePayloadSchema>;

/** A structure payload whose tree is typed (what {@link propositionalPayload} builds). */
export type TypedPropositionalStructurePayload = Omit<PropositionalStructurePayload, 'formula'> & { formula: PropositionalFormula };

/** The payload of a formula: the tree with its printing and counts. */
export function propositionalPayload(formula: PropositionalFormula): TypedPropositionalStructurePayload {
  const stats = formulaStats(formula);
  return { format: 'PROPOSITIONAL_STRUCTURE', formula, text: printPropositional(formula), atoms: stats.atoms, nodes: stats.nodes, depth: stats.depth };
}

/**
 * Read a stored structure: check the tree, then that the text and counts are the tree's.
 *
 * @throws JacobianError INVALID_REQUEST naming the field that disagrees or the node that is malformed.
 */
export function parsePropositionalPayload(payload: PropositionalStructurePayload, path: JsonPath = []): PropositionalFormula {
  const formula = parsePropositionalStructure(payload.formula, [...path, 'formula']);
  const expected = propositionalPayload(formula);
  for (const field of ['text', 'nodes', 'depth'] as const) {
    if (payload[field] !== expected[field]) throw propositionalError([...path, field], 'NODE_SHAPE', `the payload says ${JSON.stringify(payload[field])}, the tree gives ${JSON.stringify(expected[field])}`);
  }
  if (payload.atoms.join('\u0000') !== expected.atoms.join('\u0000') || payload.atoms.length !== expected.atoms.length) {
    throw propositionalError([...path, 'atoms'], 'NODE_SHAPE', `the payload lists the atoms ${JSON.stringify(payload.atoms)}, the tree has ${JSON.stringify(expected.atoms)}`);
  }
  return formula;
}

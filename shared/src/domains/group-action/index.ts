/** Permutation groups given by generators, shared by the group_action (symmetry counting) capabilities. */
import { fileURLToPath } from 'node:url';

export { GROUP_ACTION_LIMITS, GroupActionRule, groupActionError, groupOperandShape, readGroupOperand, refineGroupOperand } from './permutation-group.js';
export type { GroupOperand, PermutationGroupSpec } from './permutation-group.js';

/** The files of this core, for the SOURCE_TREE digest of a provider built on it. */
export const GROUP_ACTION_SOURCES: readonly string[] = ['./permutation-group.ts', './index.ts', '../numbers/arith.ts', '../polynomial/field.ts'].map((file) => fileURLToPath(new URL(file, import.meta.url)));

/**
 * The group behind a group_action request: validated generators, their stabilizer chain (order
 * exact), point orbits and the cycle-type counts, with the checks every capability shares.
 */
import { bigGcd, GROUP_ACTION_LIMITS, GroupActionRule, groupActionError, JacobianError, readGroupOperand, type CapabilityContext, type GroupOperand, type PermutationGroupSpec } from '@jacobian/shared';
import { cycleTypeCounts, pointOrbits, refuseOrder, schreierSims, type CycleTypeCounts } from './permutation-group.js';

export interface ComputedGroup {
  spec: PermutationGroupSpec;
  base: number[];
  orbits: number[][];
  counts: CycleTypeCounts;
}

/** Builds the group and its cycle-type counts; Burnside's count of point orbits is checked against the orbits of the generators. */
export function computeGroup(input: GroupOperand, context: Pick<CapabilityContext, 'deadline' | 'signal'>): ComputedGroup {
  const spec = readGroupOperand(input);
  const budget = { deadline: context.deadline, signal: context.signal };
  const path = input.automorphism_group === undefined ? ['generators'] : ['automorphism_group'];
  // A stated order above the limit is refused as stated: the generators' own group is checked only when it is enumerated.
  if (spec.statedOrder !== null && spec.statedOrder > BigInt(GROUP_ACTION_LIMITS.maxGroupOrder)) refuseOrder(spec.statedOrder, [...path, 'order'], true);
  const chain = schreierSims(spec.degree, spec.generators, budget, { order: BigInt(GROUP_ACTION_LIMITS.maxGroupOrder), refuse: (atLeast) => refuseOrder(atLeast, path, false) });
  if (spec.statedOrder !== null && spec.statedOrder !== chain.order)
    throw groupActionError(`the generators generate a group of order ${chain.order}, not the stated ${spec.statedOrder}`, ['automorphism_group', 'order'], GroupActionRule.ORDER_MISMATCH);
  const counts = cycleTypeCounts(chain, budget, path);
  const orbits = pointOrbits(spec.degree, spec.generators);
  // Burnside on the points: the average number of fixed points is the number of orbits.
  let fixed = 0n;
  let elements = 0n;
  for (const { type, elements: m } of counts.types.values()) {
    fixed += m * BigInt(type[1] ?? 0);
    elements += m;
  }
  if (elements !== chain.order || fixed !== BigInt(orbits.length) * chain.order)
    throw new JacobianError('PROVIDER_FAILED', `internal check failed: ${elements} elements enumerated for order ${chain.order}, ${fixed} fixed points for ${orbits.length} orbits`);
  return { spec, base: chain.base, orbits, counts };
}

/** p/q in lowest terms, as "p/q" (or "p" when q divides p). */
export function fraction(p: bigint, q: bigint): string {
  const g = bigGcd(p, q);
  return q / g === 1n ? `${p / g}` : `${p / g}/${q / g}`;
}

/** x1^a1 x2^a2 … for a cycle type. */
export function monomialText(type: readonly number[]): string {
  const parts: string[] = [];
  for (const [length, count] of type.entries()) if (length > 0 && count > 0) parts.push(count === 1 ? `x${length}` : `x${length}^${count}`);
  return parts.join(' ');
}

/**
 * Permutation groups given by generators: the request shape shared by the group_action
 * capabilities, and its validation into image arrays on {0..n-1}. A generator is an image array
 * ([1, 2, 0]: 0 ↦ 1, 1 ↦ 2, 2 ↦ 0) or cycle notation ("(0 1 2)(3 4)"); an automorphism group
 * printed by graph.automorphism_group.compute is accepted as it stands.
 */
import { z } from 'zod';
import { JacobianError } from '../../errors.js';

/** Bounds of a group request: the degree, the number of generators, and the group order up to which elements are enumerated. */
export const GROUP_ACTION_LIMITS = {
  maxDegree: 64,
  maxGenerators: 256,
  /** The cycle index is found by running through every element: larger groups are refused, not estimated. */
  maxGroupOrder: 1_000_000,
  /** Largest table of the content (pattern inventory) count: the product of (multiplicity + 1). */
  maxContentStates: 1_000_000,
  maxColours: 1_000_000,
} as const;

/** Why a group request was refused; `data.rule` of the INVALID_REQUEST error. */
export const GroupActionRule = {
  /** A cycle-notation generator that does not read as "(a b c)(d e)" with non-negative integers. */
  PERMUTATION_SYNTAX: 'permutation-syntax',
  /** A point outside {0..n-1}. */
  POINT_RANGE: 'point-range',
  /** An image array that repeats a point, or a cycle that repeats one. */
  BIJECTION: 'bijection',
  /** Generators of different lengths, or a degree that disagrees with them. */
  DEGREE: 'degree-consistency',
  /** Above GROUP_ACTION_LIMITS (degree, generators, colours, content table). */
  SIZE: 'size',
  /** A group of order above GROUP_ACTION_LIMITS.maxGroupOrder: refused, never estimated. */
  GROUP_ORDER: 'group-order-limit',
  /** An automorphism group whose search did not finish or whose generator list was truncated. */
  INCOMPLETE_GROUP: 'incomplete-group',
  /** An automorphism group whose stated order differs from the order of the group its generators generate. */
  ORDER_MISMATCH: 'order-mismatch',
  /** Colour multiplicities that do not sum to the degree. */
  CONTENT: 'content-sum',
} as const;
export type GroupActionRule = (typeof GroupActionRule)[keyof typeof GroupActionRule];

type Path = (string | number)[];

/** An INVALID_REQUEST naming the field (path under payload) and the rule. */
export function groupActionError(message: string, path: Path, rule: GroupActionRule, data: Record<string, unknown> = {}): JacobianError {
  const at = ['payload', ...path];
  return new JacobianError('INVALID_REQUEST', `${at.join('.')}: ${message} (rule ${rule})`, { path: at, data: { rule, ...data } });
}

const Point = z.number().int().min(0);
const GeneratorSchema = z
  .union([z.array(Point).max(GROUP_ACTION_LIMITS.maxDegree), z.string().max(4096)])
  .describe('an image array [g(0), …, g(n-1)] or cycle notation such as "(0 1 2)(3 4)"; points are 0..n-1');

/** The group_action operand: generators with an optional degree, or a graph automorphism group as printed by graph.automorphism_group.compute. */
export const groupOperandShape = {
  generators: z.array(GeneratorSchema).max(GROUP_ACTION_LIMITS.maxGenerators).optional().describe('generators of the permutation group; [] with a degree is the trivial group'),
  degree: z.number().int().min(1).max(GROUP_ACTION_LIMITS.maxDegree).optional().describe('n, the number of points; required for cycle notation that does not mention n-1'),
  automorphism_group: z
    .object({
      graph: z.object({ order: z.number().int().min(1) }).loose(),
      order: z.string().nullable(),
      generators: z.array(z.array(Point)),
      generators_truncated: z.boolean(),
    })
    .loose()
    .optional()
    .describe('the output of graph.automorphism_group.compute, as printed: its generators act on the graph\'s vertices; its order must be exact and its generator list complete'),
};
export interface GroupOperand {
  generators?: (number[] | string)[] | undefined;
  degree?: number | undefined;
  automorphism_group?: { graph: { order: number }; order: string | null; generators: number[][]; generators_truncated: boolean } | undefined;
}

/** Exactly one of `generators` and `automorphism_group`. */
export function refineGroupOperand(value: GroupOperand, ctx: z.RefinementCtx): void {
  const given = (value.generators === undefined ? 0 : 1) + (value.automorphism_group === undefined ? 0 : 1);
  if (given !== 1) ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of generators and automorphism_group' });
  if (value.automorphism_group !== undefined && value.degree !== undefined) ctx.addIssue({ code: 'custom', path: ['degree'], message: 'the degree of an automorphism group is its graph order; omit degree' });
}

/** A validated group: its degree and generators as image arrays. */
export interface PermutationGroupSpec {
  degree: number;
  generators: number[][];
  /** The order an automorphism group stated, to be checked against the computed one. */
  statedOrder: bigint | null;
  description: string;
}

const CYCLES = /^\s*(\(\s*\d+(\s*[\s,]\s*\d+)*\s*\)\s*)*$|^\s*\(\s*\)\s*$/;

function readCycles(text: string, path: Path): number[][] {
  if (!CYCLES.test(text)) throw groupActionError(`"${text.slice(0, 40)}" is not cycle notation such as "(0 1 2)(3 4)"`, path, GroupActionRule.PERMUTATION_SYNTAX);
  const cycles: number[][] = [];
  for (const match of text.matchAll(/\(([^)]*)\)/g)) {
    const points = (match[1] ?? '').split(/[\s,]+/).filter((s) => s.length > 0).map(Number);
    if (points.some((p) => !Number.isSafeInteger(p))) throw groupActionError('a point is too large', path, GroupActionRule.POINT_RANGE);
    if (points.length > 0) cycles.push(points);
  }
  return cycles;
}

/** Validates the whole operand (every generator, the degree, bijectivity) before anything is computed. */
export function readGroupOperand(input: GroupOperand): PermutationGroupSpec {
  if (input.automorphism_group !== undefined) {
    const group = input.automorphism_group;
    const path = ['automorphism_group'];
    if (group.order === null) throw groupActionError('the automorphism search did not finish (order is null): the generators may generate a proper subgroup', [...path, 'order'], GroupActionRule.INCOMPLETE_GROUP);
    if (group.generators_truncated) throw groupActionError('the generator list was truncated (max_generators): rerun graph.automorphism_group.compute with a larger max_generators', [...path, 'generators_truncated'], GroupActionRule.INCOMPLETE_GROUP);
    if (!/^[1-9][0-9]*$/.test(group.order)) throw groupActionError(`"${group.order}" is not a positive decimal`, [...path, 'order'], GroupActionRule.PERMUTATION_SYNTAX);
    const degree = group.graph.order;
    if (degree > GROUP_ACTION_LIMITS.maxDegree) throw groupActionError(`a graph of order ${degree} is above the degree limit ${GROUP_ACTION_LIMITS.maxDegree}`, [...path, 'graph', 'order'], GroupActionRule.SIZE);
    const generators = group.generators.map((g, i) => imageArray(g, degree, [...path, 'generators', i]));
    return { degree, generators, statedOrder: BigInt(group.order), description: `the automorphism group of a graph on ${degree} vertices (order ${group.order} as stated)` };
  }
  const given = input.generators ?? [];
  const path = ['generators'];
  const read = given.map((g, i) => (typeof g === 'string' ? { cycles: readCycles(g, [...path, i]) } : { image: g }));
  let degree = input.degree;
  for (const [i, g] of read.entries()) {
    if (g.image === undefined) continue;
    if (degree === undefined) degree = g.image.length;
    else if (g.image.length !== degree)
      throw groupActionError(`an image array of length ${g.image.length} where the degree is ${degree}${input.degree === undefined ? ' (from the first image array)' : ''}`, [...path, i], GroupActionRule.DEGREE);
  }
  if (degree === undefined) {
    const largest = Math.max(-1, ...read.flatMap((g) => g.cycles?.flat() ?? []));
    if (largest < 0) throw groupActionError('no point is named: give degree for a trivial group', ['degree'], GroupActionRule.DEGREE);
    degree = largest + 1;
  }
  if (degree > GROUP_ACTION_LIMITS.maxDegree) throw groupActionError(`degree ${degree} is above the limit ${GROUP_ACTION_LIMITS.maxDegree}`, path, GroupActionRule.SIZE);
  const n = degree;
  const generators = read.map((g, i) => (g.image !== undefined ? imageArray(g.image, n, [...path, i]) : fromCycles(g.cycles ?? [], n, [...path, i])));
  return { degree: n, generators, statedOrder: null, description: `the permutation group of degree ${n} generated by ${generators.length} generator${generators.length === 1 ? '' : 's'}` };
}

function imageArray(image: readonly number[], n: number, path: Path): number[] {
  if (image.length !== n) throw groupActionError(`an image array of length ${image.length} where the degree is ${n}`, path, GroupActionRule.DEGREE);
  const seen = new Uint8Array(n);
  for (const [i, p] of image.entries()) {
    if (p >= n) throw groupActionError(`point ${p} is outside 0..${n - 1}`, [...path, i], GroupActionRule.POINT_RANGE);
    if (seen[p] === 1) throw groupActionError(`point ${p} is the image of two points: not a bijection`, [...path, i], GroupActionRule.BIJECTION);
    seen[p] = 1;
  }
  return [...image];
}

function fromCycles(cycles: readonly number[][], n: number, path: Path): number[] {
  const image = Array.from({ length: n }, (_, i) => i);
  const seen = new Uint8Array(n);
  for (const cycle of cycles) {
    for (const [j, p] of cycle.entries()) {
      if (p >= n) throw groupActionError(`point ${p} is outside 0..${n - 1}`, path, GroupActionRule.POINT_RANGE);
      if (seen[p] === 1) throw groupActionError(`point ${p} appears twice in the cycles: not a bijection`, path, GroupActionRule.BIJECTION);
      seen[p] = 1;
      image[p] = cycle[(j + 1) % cycle.length] as number;
    }
  }
  return image;
}

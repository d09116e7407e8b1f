/**
 * polytope.separate: is a point in a polytope, given by its vertices (V) or by inequalities (H)?
 * Inside a V-polytope: a convex combination of the vertices equal to the point. Outside: a
 * hyperplane a·x = β with a·v ≤ β on the polytope and a·p > β at the point, read off the Farkas
 * certificate of the exact LP { λ ≥ 0, Σλ = 1, Σ λ_j v_j = p } (solved as lp.solve solves). For an
 * H-polytope the inequalities are evaluated at the point: a violated one is the hyperplane. Every
 * answer is checked exactly here before it is returned.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  bigGcd,
  canonicalLpProblem,
  formatLpNumber,
  JacobianError,
  lpNumber,
  LpNumberSchema,
  makeRational,
  RATIONALS,
  runKernel,
  type CapabilityDefinition,
  type JsonPath,
  type ProviderRuntime,
  type Rational,
} from '@jacobian/shared';
import { LpKernelOutput, type LpKernelInput } from './lp.kernel.js';
import { HIGHS_PROVIDER } from './provider.js';
import { EXACT_METHOD } from './solve-lp.js';

export const POLYTOPE_SEPARATE_ID = 'polytope.separate';
const KERNEL = { module: fileURLToPath(new URL('./lp.kernel.ts', import.meta.url)), exportName: 'lpSolveKernel' };

export const POLYTOPE_LIMITS = { maxDimension: 200, maxVertices: 2000, maxInequalities: 5000, maxNumbers: 90_000 } as const;

const Vector = z.array(LpNumberSchema).min(1).max(POLYTOPE_LIMITS.maxDimension);

export const PolytopeSeparateInput = z
  .object({
    point: Vector.describe('the point p, one exact number per coordinate'),
    vertices: z.array(Vector).min(1).max(POLYTOPE_LIMITS.maxVertices).optional().describe('V-polytope: the convex hull of these points'),
    inequalities: z
      .array(z.object({ coefficients: Vector, rhs: LpNumberSchema }).strict())
      .max(POLYTOPE_LIMITS.maxInequalities)
      .optional()
      .describe('H-polytope: the points x with coefficients·x ≤ rhs for every inequality'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.vertices === undefined) === (input.inequalities === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of `vertices` (V-polytope) and `inequalities` (H-polytope)' });
  });
export type PolytopeSeparateInput = z.infer<typeof PolytopeSeparateInput>;

export const PolytopeSeparateOutput = z
  .object({
    outcome: z.enum(['INSIDE', 'SEPARATED']),
    convex_combination: z.array(z.string()).nullable().describe('V, INSIDE: weights λ_j ≥ 0 with Σλ_j = 1 and Σ λ_j·v_j = p'),
    hyperplane: z
      .object({ normal: z.array(z.string()), offset: z.string() })
      .strict()
      .nullable()
      .describe('SEPARATED: normal·x ≤ offset on the whole polytope and normal·p > offset (a primitive integer normal for a V-polytope)'),
    violated_inequality: z.number().int().nullable().describe('H, SEPARATED: the index of the inequality the point violates'),
    engine: z.object({ provider: z.string(), version: z.string(), method: z.string(), compute_ms: z.number().int(), exact_pivots: z.number().int().nullable() }).strict(),
  })
  .strict();
export type PolytopeSeparateOutput = z.infer<typeof PolytopeSeparateOutput>;

const Q = RATIONALS;
const dot = (a: readonly Rational[], b: readonly Rational[]): Rational => a.reduce((s, x, i) => Q.add(s, Q.mul(x, b[i] as Rational)), Q.zero);
const cmp = (a: Rational, b: Rational): number => {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
};

/** A vector of the request's numbers, checked against the point's dimension. */
function vector(values: readonly (string | number)[], dimension: number, path: JsonPath): Rational[] {
  if (values.length !== dimension) throw new JacobianError('INVALID_REQUEST', `has ${values.length} coordinates, the point has ${dimension} (rule dimension)`, { path, data: { rule: 'dimension' } });
  return values.map((value, i) => lpNumber(value, [...path, i]));
}

/** The scaling of a rational vector to a primitive integer one (same direction). */
function primitive(values: readonly Rational[]): { scale: Rational; values: bigint[] } {
  const lcm = values.reduce((l, v) => (l / bigGcd(l, v.den)) * v.den, 1n);
  const ints = values.map((v) => (v.num * lcm) / v.den);
  const g = ints.reduce((acc, v) => bigGcd(acc, v), 0n) || 1n;
  return { scale: makeRational(lcm, g), values: ints.map((v) => v / g) };
}

function internal(message: string): JacobianError {
  return new JacobianError('INTERNAL', `polytope.separate: ${message}; the answer was not returned`);
}

export function polytopeSeparate(runtime: ProviderRuntime): CapabilityDefinition<PolytopeSeparateInput, PolytopeSeparateOutput> {
  const float = runtime.provider === HIGHS_PROVIDER;
  return {
    id: POLYTOPE_SEPARATE_ID,
    version: '1.0.0',
    title: 'Point in a polytope, or a separating hyperplane',
    description:
      'Decide exactly whether a point lies in a polytope given by vertices (V-polytope, convex hull) or by inequalities a·x ≤ b (H-polytope). INSIDE a V-polytope: a convex combination of the vertices equal to the point. Outside: a separating hyperplane normal·x ≤ offset on the polytope with normal·p > offset, from the Farkas certificate of an exact LP (or the violated inequality). Both answers checked exactly.',
    tags: ['polytope', 'convex-geometry', 'linear-programming', 'exact', 'certificate', float ? 'highs' : 'typescript'],
    keywords: ['separating hyperplane', 'separation oracle', 'point in polytope', 'convex hull membership', 'is the point in the convex hull', 'convex combination', 'V-polytope', 'H-polytope', 'halfspaces', 'Farkas lemma', 'Caratheodory'],
    domain: 'optimization',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input: PolytopeSeparateInput,
    output: PolytopeSeparateOutput,
    examples: [
      { title: 'The centre of the unit square is inside (λ on its vertices)', mode: 'EXPLORE', payload: { point: ['1/2', '1/2'], vertices: [[0, 0], [1, 0], [0, 1], [1, 1]] } },
      { title: '(2, 1/2) is separated from the unit square', mode: 'EXPLORE', payload: { point: [2, '1/2'], vertices: [[0, 0], [1, 0], [0, 1], [1, 1]] } },
      { title: '(1, 1) violates x + y ≤ 1 of the triangle x, y ≥ 0, x + y ≤ 1', mode: 'EXPLORE', payload: { point: [1, 1], inequalities: [{ coefficients: [-1, 0], rhs: 0 }, { coefficients: [0, -1], rhs: 0 }, { coefficients: [1, 1], rhs: 1 }] } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given point and polytope.',
    limits: { max_dimension: POLYTOPE_LIMITS.maxDimension, max_vertices: POLYTOPE_LIMITS.maxVertices, max_inequalities: POLYTOPE_LIMITS.maxInequalities, max_numbers: POLYTOPE_LIMITS.maxNumbers },
    async run(input, context) {
      const started = Date.now();
      const dimension = input.point.length;
      const count = (input.vertices?.length ?? 0) + (input.inequalities?.length ?? 0);
      if ((count + 1) * dimension > POLYTOPE_LIMITS.maxNumbers) {
        throw new JacobianError('INVALID_REQUEST', `${(count + 1) * dimension} numbers, over the limit ${POLYTOPE_LIMITS.maxNumbers} (rule size)`, { path: ['payload'], data: { rule: 'size' } });
      }
      const point = vector(input.point, dimension, ['payload', 'point']);
      let output: PolytopeSeparateOutput;
      if (input.inequalities !== undefined) {
        const rows = input.inequalities.map((row, i) => ({ a: vector(row.coefficients, dimension, ['payload', 'inequalities', i, 'coefficients']), b: lpNumber(row.rhs, ['payload', 'inequalities', i, 'rhs']) }));
        const violated = rows.findIndex((row) => cmp(dot(row.a, point), row.b) > 0);
        const engine = { provider: runtime.provider, version: runtime.version, method: 'exact evaluation of every inequality at the point', compute_ms: Date.now() - started, exact_pivots: null };
        const row = rows[violated];
        output =
          row === undefined
            ? { outcome: 'INSIDE', convex_combination: null, hyperplane: null, violated_inequality: null, engine }
            : { outcome: 'SEPARATED', convex_combination: null, hyperplane: { normal: row.a.map(formatLpNumber), offset: formatLpNumber(row.b) }, violated_inequality: violated, engine };
      } else {
        const vertices = input.vertices?.map((v, j) => vector(v, dimension, ['payload', 'vertices', j])) ?? [];
        // λ_j ≥ 0 with Σ_j λ_j = 1 and Σ_j λ_j·v_j = p: feasible exactly when p is in the hull.
        const names = vertices.map((_, j) => `l${j}`);
        const problem = canonicalLpProblem(
          {
            sense: 'minimize',
            variables: names.map((name) => ({ name })),
            objective: {},
            constraints: [
              ...point.map((p, t) => ({ name: `c${t}`, coefficients: Object.fromEntries(vertices.map((v, j) => [names[j] as string, formatLpNumber(v[t] as Rational)])), relation: '=' as const, rhs: formatLpNumber(p) })),
              { name: 'sum', coefficients: Object.fromEntries(names.map((name) => [name, 1])), relation: '=' as const, rhs: 1 },
            ],
          },
          ['payload'],
        );
        const kernelInput: LpKernelInput = { problem, float };
        const { certificate, record } = LpKernelOutput.parse(await runKernel(context, KERNEL, kernelInput));
        const engine = { provider: runtime.provider, version: runtime.version, method: `the LP {λ ≥ 0, Σλ = 1, Σλ·v = p} by ${float ? 'HiGHS for a starting basis, then ' : ''}${EXACT_METHOD}`, compute_ms: Date.now() - started, exact_pivots: record.stats.phase1_pivots + record.stats.phase2_pivots };
        const read = (text: string | undefined): Rational => (text === undefined ? Q.zero : (Q.parseCanonical(text) ?? Q.zero));
        if (certificate.outcome === 'OPTIMAL') {
          const lambda = names.map((name) => read(certificate.primal?.[name]));
          if (lambda.some((l) => l.num < 0n) || !Q.equals(lambda.reduce((s, l) => Q.add(s, l), Q.zero), Q.one)) throw internal('the weights are not a convex combination');
          for (let t = 0; t < dimension; t++) if (!Q.equals(dot(lambda, vertices.map((v) => v[t] as Rational)), point[t] as Rational)) throw internal(`the combination misses coordinate ${t}`);
          output = { outcome: 'INSIDE', convex_combination: lambda.map(formatLpNumber), hyperplane: null, violated_inequality: null, engine };
        } else if (certificate.outcome === 'INFEASIBLE') {
          // Farkas y on the rows: y_c·v_j + y_sum ≤ 0 for every vertex and y_c·p + y_sum > 0.
          const y = point.map((_, t) => read(certificate.farkas?.[`c${t}`]));
          const { scale, values } = primitive([...y, read(certificate.farkas?.['sum'])]);
          const normal = values.slice(0, dimension).map((v) => makeRational(v, 1n));
          const offset = makeRational(-(values[dimension] as bigint), 1n);
          if (scale.num <= 0n) throw internal('the Farkas multipliers scaled by a non-positive number');
          if (vertices.some((v) => cmp(dot(normal, v), offset) > 0) || cmp(dot(normal, point), offset) <= 0) throw internal('the hyperplane does not separate');
          output = { outcome: 'SEPARATED', convex_combination: null, hyperplane: { normal: normal.map(formatLpNumber), offset: formatLpNumber(offset) }, violated_inequality: null, engine };
        } else {
          throw internal('the membership LP came back unbounded, which a zero objective cannot');
        }
      }
      const polytope = input.vertices !== undefined ? `the convex hull of ${input.vertices.length} points` : `the polytope of ${input.inequalities?.length ?? 0} inequalities`;
      return {
        status: 'COMPLETED',
        output,
        scope: { kind: 'EXACT_INPUT', statement: `whether the given point of Q^${dimension} lies in ${polytope}`, input_uris: [] },
        completeness: { status: 'COMPLETE', basis: output.outcome === 'INSIDE' ? 'the point is inside, shown exactly' : 'a separating hyperplane, checked exactly' },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: { level: 'COMPUTED', basis: 'computed exactly (an exact LP for a V-polytope); the convex combination or the separating hyperplane was checked exactly before it was returned', verification_record_uri: null, checker_id: null },
        obligations: [],
        relationships: [],
        artifact_uris: [],
        diagnostics: [],
      };
    },
  };
}

/**
 * What the symmetry capabilities (canonical form, automorphism group) share: which
 * implementation serves a registration (nauty, or our TypeScript search as the fallback when
 * nauty is absent), the fallback's order limit, and running the fallback's kernel.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { JacobianError, runKernel, type CapabilityContext, type GraphOperand, type IndexedGraph, type ProviderRuntime } from '@jacobian/shared';
import { NAUTY_PROVIDER, type NautyProbe, type NautyTools } from '../providers/nauty.js';
import type { SymmetryKernelInput } from './symmetry.kernel.js';

/** Provider name of the TypeScript fallback (its identity digest covers the files that implement it). */
export const SYMMETRY_TS_PROVIDER = 'jacobian-graph-symmetry-ts';

/**
 * Largest order the TypeScript fallback accepts. Its search is nauty's scheme without nauty's
 * engineering; well tested up to this order, and slower than a budget allows on some graphs above it.
 */
export const SYMMETRY_TS_MAX_ORDER = 64;

/**
 * Method name of the fallback's canonical forms. Bump it whenever a change to
 * invariants/automorphisms.ts changes which labelling is canonical (the pinned forms in
 * canonical-form.test.ts fail when that happens), so old and new forms are never compared.
 */
export const TS_CANONICAL_FORM_METHOD = 'jacobian-ts-1';

/** The implementation a registration serves with. */
export type SymmetryBackend = { kind: 'nauty'; tools: NautyTools } | { kind: 'typescript' };

/**
 * Pick the implementation for the provider that a probe chose (see firstHealthyOf): nauty's
 * tools as its probe vouched for them, or the TypeScript search.
 *
 * @throws JacobianError REGISTRATION_INVALID for any other provider, or for nauty without a
 *   successful probe: both are wiring mistakes, not run-time conditions.
 */
export function symmetryBackend(runtime: ProviderRuntime, nauty: Pick<NautyProbe, 'tools'>): SymmetryBackend {
  if (runtime.provider === NAUTY_PROVIDER) {
    const tools = nauty.tools;
    if (tools === undefined) throw new JacobianError('REGISTRATION_INVALID', 'nauty serves this capability, but no nauty probe succeeded');
    return { kind: 'nauty', tools };
  }
  if (runtime.provider === SYMMETRY_TS_PROVIDER) return { kind: 'typescript' };
  throw new JacobianError('REGISTRATION_INVALID', `graph symmetry capabilities are served by ${NAUTY_PROVIDER} or ${SYMMETRY_TS_PROVIDER}, not ${runtime.provider}`);
}

/** The request path of the operand field that carried the graph, for diagnostics. */
export function operandPath(input: GraphOperand): string[] {
  const field = input.graph !== undefined ? 'graph' : input.graph6 !== undefined ? 'graph6' : input.sparse6 !== undefined ? 'sparse6' : 'graph_uri';
  return ['payload', field];
}

/** Refuse a graph above the fallback's limit, naming the field it came in and the way out. */
export function requireTypescriptOrder(graph: IndexedGraph, input: GraphOperand): void {
  if (graph.order <= SYMMETRY_TS_MAX_ORDER) return;
  const path = operandPath(input);
  throw new JacobianError(
    'SIZE_LIMIT_EXCEEDED',
    `${path.join('.')}: the graph has ${graph.order} vertices; this runner serves graph symmetry with its TypeScript fallback, which accepts at most ${SYMMETRY_TS_MAX_ORDER} (nauty, when installed, accepts up to 256)`,
    { path, hint: 'send graphs of at most 64 vertices, or ask the operator to install nauty (Debian package nauty) on the runners' },
  );
}

const KERNEL = { module: fileURLToPath(new URL('./symmetry.kernel.ts', import.meta.url)), exportName: 'graphSymmetryKernel' };

const Vertex = z.number().int().min(0);
const Decimal = z.string().regex(/^[1-9][0-9]*$/);

/** The kernel's answer, parsed again here because it crossed a process boundary. */
const KernelOutput = z
  .object({
    labelling: z.array(Vertex),
    canonical_edges: z.array(z.tuple([Vertex, Vertex])),
    group_order: Decimal,
    generators: z.array(z.array(Vertex)),
    generator_count: z.number().int().min(0),
    orbits: z.array(z.array(Vertex)),
    exhaustive: z.boolean(),
    nodes: z.number().int().min(0),
  })
  .strict();
/** The TypeScript search's answer for one graph. */
export type TypescriptSymmetry = z.infer<typeof KernelOutput>;

/** Run the TypeScript search isolated, inside what is left of the run's budget. */
export async function runTypescriptSymmetry(context: CapabilityContext, graph: IndexedGraph, maxGenerators: number): Promise<TypescriptSymmetry> {
  const input: SymmetryKernelInput = { graph: { order: graph.order, edges: graph.edges }, max_generators: maxGenerators };
  return KernelOutput.parse(await runKernel(context, KERNEL, input));
}

import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGraph6, encodeGraph6, encodeSparse6, type CapabilityResult, type IndexedGraph, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import type { NautyTools } from '../providers/nauty.js';
import { canonicalForm, type CanonicalFormOutput } from './canonical-form.js';
import { constructExplicit } from './construct-explicit.js';
import { relabel } from './symmetry-checks.js';
import { requireNauty } from './nauty-test-support.js';
// The test graphs' relabelling, renamed: `relabel` in this file is symmetry-checks' own.
import { completeBipartite, cycle, mulberry32, namedGraphs, PETERSEN, randomGraph, randomPermutation, relabel as permute } from './test-graphs.js';
import { SYMMETRY_TS_PROVIDER, TS_CANONICAL_FORM_METHOD } from './symmetry.js';

const ID = 'graph.canonical_form.compute';
const TS_RUNTIME: ProviderRuntime = { ...FAKE_RUNTIME, provider: SYMMETRY_TS_PROVIDER };

function output(result: CapabilityResult): CanonicalFormOutput {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result.output as CanonicalFormOutput;
}

function firstError(result: CapabilityResult): { code: string; path: (string | number)[] | null; message: string } {
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (!diagnostic) throw new Error(`expected an ERROR diagnostic, got ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

/** All graphs of order n up to isomorphism, from nauty's geng (the published counts: 34 for n = 5, 156 for n = 6). */
function geng(n: number): IndexedGraph[] {
  return execFileSync('/usr/bin/nauty-geng', ['-q', String(n)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((text) => decodeGraph6(text));
}

describe('graph.canonical_form.compute', () => {
  let harness: CapabilityHarness;
  let tools: NautyTools;
  let nautyRuntime: ProviderRuntime;
  const installed: Record<'nauty' | 'typescript', InstalledCapability> = {} as Record<'nauty' | 'typescript', InstalledCapability>;

  beforeAll(async () => {
    harness = await createCapabilityHarness();
    ({ tools, runtime: nautyRuntime } = await requireNauty());
    installed.nauty = harness.install(canonicalForm({ kind: 'nauty', tools }), nautyRuntime);
    installed.typescript = harness.install(canonicalForm({ kind: 'typescript' }), TS_RUNTIME);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  function run(backend: 'nauty' | 'typescript', payload: Record<string, unknown>, budget?: Record<string, number>): Promise<CapabilityResult> {
    return harness.run(installed[backend], { capability_id: ID, payload, ...(budget === undefined ? {} : { budget }) });
  }
  const canonical = async (backend: 'nauty' | 'typescript', graph: IndexedGraph): Promise<CanonicalFormOutput> =>
    output(await run(backend, { graph6: encodeGraph6(graph) }));

  describe.each(['nauty', 'typescript'] as const)('served by %s', (backend) => {
    const maxOrder = backend === 'nauty' ? 256 : 64;

    it('gives relabelled copies one canonical form; the labelling maps each copy onto it; the group orders are the known ones', async () => {
      for (const { name, graph, order } of namedGraphs(maxOrder)) {
        const forms = new Set<string>();
        for (const seed of [1, 2, 3]) {
          const copy = permute(graph, randomPermutation(graph.order, mulberry32(seed)));
          const found = await canonical(backend, copy);
          // Independent of the capability's own recheck: relabel here and compare.
          expect(encodeGraph6(relabel(copy, found.labelling)), name).toBe(found.canonical_graph6);
          expect(found.automorphism_group_order, name).toBe(order.toString());
          forms.add(found.canonical_graph6);
        }
        expect(forms.size, name).toBe(1);
      }
    });

    it('gives relabelled copies of random graphs one canonical form (orders 0 to max_order)', async () => {
      const orders = backend === 'nauty' ? [0, 1, 2, 7, 20, 64, 100, 256] : [0, 1, 2, 7, 20, 40, 64];
      for (const [i, n] of orders.entries()) {
        for (const p of [0.1, 0.5]) {
          const graph = randomGraph(n, p, mulberry32(1000 + i));
          const a = await canonical(backend, graph);
          const b = await canonical(backend, permute(graph, randomPermutation(n, mulberry32(2000 + i))));
          expect(b.canonical_graph6, `G(${n}, ${p})`).toBe(a.canonical_graph6);
          expect(b.automorphism_group_order).toBe(a.automorphism_group_order);
        }
      }
    });

    it('separates non-isomorphic graphs: all 156 graphs on 6 vertices get 156 distinct forms', async () => {
      const graphs = geng(6);
      expect(graphs).toHaveLength(156);
      const forms = new Set<string>();
      for (const graph of graphs) forms.add((await canonical(backend, graph)).canonical_graph6);
      expect(forms.size).toBe(156);
    });

    it('separates non-isomorphic graphs with equal degree sequences (Petersen vs the pentagonal prism, C_6 vs 2K_3)', async () => {
      const prism = { order: 10, edges: [...cycle(5).edges, ...cycle(5).edges.map(([u, v]): [number, number] => [u + 5, v + 5]), ...[0, 1, 2, 3, 4].map((i): [number, number] => [i, i + 5])] };
      const twoTriangles = { order: 6, edges: [...cycle(3).edges, ...cycle(3).edges.map(([u, v]): [number, number] => [u + 3, v + 3])] };
      expect((await canonical(backend, PETERSEN)).canonical_graph6).not.toBe((await canonical(backend, permute(prism, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))).canonical_graph6);
      expect((await canonical(backend, cycle(6))).canonical_graph6).not.toBe((await canonical(backend, twoTriangles)).canonical_graph6);
    });

    it('names its method and the labelling by input labels; the scope says forms of other methods are not comparable', async () => {
      const result = await run(backend, { graph: { vertices: ['c', 'a', 'b', 'd'], edges: [['a', 'b'], ['b', 'c'], ['c', 'd']] } });
      const found = output(result);
      expect(found.canonical_form_method).toBe(backend === 'nauty' ? `nauty-labelg ${nautyRuntime.version} (${tools.wordSize} bits)` : TS_CANONICAL_FORM_METHOD);
      expect(found.labelling_by_label.map((entry) => entry.label)).toEqual(['a', 'b', 'c', 'd']);
      expect(found.labelling_by_label.map((entry) => entry.position)).toEqual(found.labelling);
      expect(found.graph).toEqual({ order: 4, size: 3 });
      expect(result.scope?.statement).toContain(`under ${found.canonical_form_method}`);
      expect(result.scope?.statement).toContain('comparable only with canonical forms under the same method');
      expect(result.completeness.status).toBe('COMPLETE');
      expect(result.provider?.name).toBe(backend === 'nauty' ? 'nauty' : SYMMETRY_TS_PROVIDER);
      expect(installed[backend].descriptor.limits).toMatchObject({ max_order: maxOrder, canonical_form_method: found.canonical_form_method });
    });

    it('reads a stored graph artifact', async () => {
      const construct = harness.install(constructExplicit);
      const stored = await harness.run(construct, { capability_id: constructExplicit.id, payload: { order: 5, edges: cycle(5).edges } });
      const { graph_uri } = stored.output as { graph_uri: string };
      const result = await run(backend, { graph_uri });
      expect(output(result).automorphism_group_order).toBe('10');
      expect(result.artifact_uris).toEqual([graph_uri]);
      expect(result.scope?.input_uris).toEqual([graph_uri]);
    });

    it('names the field of a bad input', async () => {
      expect(firstError(await run(backend, { graph6: 'I!!' }))).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'graph6'] });
      expect(firstError(await run(backend, {}))).toMatchObject({ code: 'INVALID_REQUEST' });
      expect(firstError(await run(backend, { graph6: 'Cr', sparse6: ':Cdv' }))).toMatchObject({ path: ['payload', 'sparse6'] });
    });
  });

  it('nauty: the canonical form is exactly what nauty-labelg prints, up to 256 vertices', async () => {
    for (const graph of [PETERSEN, randomGraph(256, 0.3, mulberry32(9)), completeBipartite(100, 156)]) {
      const labelg = execFileSync('/usr/bin/nauty-labelg', ['-q'], { input: `${encodeGraph6(graph)}\n`, encoding: 'utf8' }).trim();
      expect((await canonical('nauty', graph)).canonical_graph6).toBe(labelg);
    }
  });

  it('typescript: refuses graphs above 64 vertices, naming the field and the limit', async () => {
    const viaSparse6 = firstError(await run('typescript', { sparse6: encodeSparse6(randomGraph(65, 0.1, mulberry32(1))) }));
    expect(viaSparse6).toMatchObject({ code: 'SIZE_LIMIT_EXCEEDED', path: ['payload', 'sparse6'] });
    const viaGraph6 = firstError(await run('typescript', { graph6: encodeGraph6(randomGraph(65, 0.1, mulberry32(1))) }));
    expect(viaGraph6).toMatchObject({ code: 'SIZE_LIMIT_EXCEEDED', path: ['payload', 'graph6'] });
    expect(viaGraph6.message).toContain('at most 64');
    expect(output(await run('nauty', { graph6: encodeGraph6(randomGraph(65, 0.1, mulberry32(1))) })).graph.order).toBe(65);
  });

  it(`typescript: canonical forms are pinned, so a change to the search that changes them must bump ${TS_CANONICAL_FORM_METHOD}`, async () => {
    const graphs = { petersen: PETERSEN, c5: cycle(5), k34: completeBipartite(3, 4), random: randomGraph(30, 0.3, mulberry32(42)) };
    for (const [name, graph] of Object.entries(graphs)) {
      const form = PINNED_TS_FORMS[name as keyof typeof graphs];
      expect((await canonical('typescript', graph)).canonical_graph6, name).toBe(form);
      // And each pinned form is the graph it stands for, by nauty's judgement.
      const labelg = (text: string): string => execFileSync('/usr/bin/nauty-labelg', ['-q'], { input: `${text}\n`, encoding: 'utf8' }).trim();
      expect(labelg(form), name).toBe(labelg(encodeGraph6(graph)));
    }
  });

  it('refuses an answer whose relabelling does not reproduce the canonical graph (PROVIDER_FAILED)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jacobian-labelg-'));
    try {
      // A labelg that always prints the Petersen graph as given, not its canonical form.
      const liar = join(dir, 'labelg');
      await writeFile(liar, "#!/bin/sh\ncat >/dev/null\necho 'IheA@GUAo'\n");
      await chmod(liar, 0o755);
      const lying = harness.install(canonicalForm({ kind: 'nauty', tools: { ...tools, labelg: liar } }), nautyRuntime);
      const result = await harness.run(lying, { capability_id: ID, payload: { graph6: encodeGraph6(permute(PETERSEN, randomPermutation(10, mulberry32(5)))) } });
      expect(result.execution.status).toBe('ERROR');
      expect(firstError(result)).toMatchObject({ code: 'PROVIDER_FAILED' });
      expect(result.output).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** The TypeScript fallback's canonical forms under jacobian-ts-1 (recorded when the method was named). */
const PINNED_TS_FORMS = {
  petersen: 'I@HIcUSw?',
  c5: 'DLo',
  k34: 'F?~v_',
  random: ']???H?BA?_ADDO?A_O?PbA{HKGs@KtCDG?d_S?SBCGC`V?mPSQHIF?uoH[VCG@PvDTs]@cXceO',
};

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissibleFromDescriptor, encodeGraph6, encodeSparse6, PETERSEN_EXAMPLE, verifyRecordSignature, type CapabilityDescriptor } from '@jacobian/shared';
import { createWitnessCheckerFixture, type WitnessCheckerFixture } from './witness-test-fixture.js';

/** Petersen graph in the canonical order of PETERSEN_EXAMPLE: outer 0-4, spokes i–i+5, inner pentagram. */
const PETERSEN = PETERSEN_EXAMPLE;
/** PETERSEN_EXAMPLE with each edge as [u, v], u < v, sorted: the form the graph encoders and stored graphs take. */
const PETERSEN_SORTED = {
  order: 10,
  edges: PETERSEN_EXAMPLE.edges.map(([u, v]): [number, number] => (u < v ? [u, v] : [v, u])).sort((a, b) => a[0] - b[0] || a[1] - b[1]),
};
const COLOURS_3 = [0, 1, 0, 1, 2, 1, 0, 2, 2, 1];
const INDEPENDENT_4 = [0, 2, 8, 9];
const SPOKES: [number, number][] = [[0, 5], [1, 6], [2, 7], [3, 8], [4, 9]];
const TREE: [number, number][] = [[0, 1], [1, 2], [2, 3], [3, 4], ...SPOKES];
const HAMILTONIAN_PATH = [0, 1, 2, 3, 4, 9, 7, 5, 8, 6];
const C5 = { order: 5, edges: [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0]] as [number, number][] };
const CUBE = {
  order: 8,
  edges: [[0, 1], [0, 2], [0, 4], [1, 3], [1, 5], [2, 3], [2, 6], [3, 7], [4, 5], [4, 6], [5, 7], [6, 7]] as [number, number][],
};

const WITNESS_CHECKERS = [
  'graph.colouring.verify',
  'graph.clique.verify',
  'graph.independent_set.verify',
  'graph.matching.verify',
  'graph.hamiltonian_path.verify',
  'graph.hamiltonian_cycle.verify',
  'graph.spanning_tree.verify',
  'graph.isomorphism.verify',
];

describe('graph witness checkers', () => {
  let f: WitnessCheckerFixture;
  beforeAll(async () => {
    f = await createWitnessCheckerFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  describe('registration', () => {
    it('registers every witness checker in VERIFY mode with its own identity, authorized when bundled', () => {
      const ids = f.checker.installed.map((c) => c.descriptor.id);
      expect(ids).toEqual(expect.arrayContaining(['graph.induced_tree.maximum.verify', ...WITNESS_CHECKERS]));
      const checkerIds = f.checker.identities.map((i) => i.checker_id);
      expect(new Set(checkerIds).size).toBe(ids.length);
      for (const id of WITNESS_CHECKERS) {
        const descriptor = f.checker.installed.find((c) => c.descriptor.id === id)?.descriptor;
        expect(descriptor).toMatchObject({ role: 'checker', modes: ['VERIFY'], assurance_ceiling: 'VERIFIED', domain: 'graph' });
        expect(descriptor?.checker?.checker_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(f.checker.authorization.authorized).toContainEqual({ checker_id: descriptor?.checker?.checker_id, checker_digest: descriptor?.checker?.checker_digest });
      }
    });

    it('runs every invocation example it advertises, and each is VERIFIED', async () => {
      for (const id of WITNESS_CHECKERS) {
        const descriptor = f.checker.installed.find((c) => c.descriptor.id === id)?.descriptor;
        expect(descriptor?.examples.length).toBeGreaterThan(0);
        for (const example of descriptor?.examples ?? []) {
          // An API that only sees the advertised descriptor admits with its JSON Schema: it must accept the example too.
          expect(admissibleFromDescriptor(descriptor as CapabilityDescriptor).input.safeParse(example.payload).success).toBe(true);
          await f.expectVerified(await f.run(id, example.payload));
        }
      }
    });

    it('refuses EXPLORE mode: a checker only verifies', async () => {
      f.expectError(await f.run('graph.clique.verify', { graph: PETERSEN, vertices: [0, 1], size: 2 }, { mode: 'EXPLORE' }), 'MODE_NOT_SUPPORTED');
    });
  });

  describe('graph.colouring.verify', () => {
    it('accepts a proper 3-colouring of the Petersen graph and signs a verifiable record', async () => {
      const result = await f.run('graph.colouring.verify', { graph: PETERSEN, colours: COLOURS_3, k: 3 });
      const { record, candidate } = await f.expectVerified(result);
      expect(result.output).toMatchObject({ k: 3, colours_used: 3, graph: { order: 10, size: 15, graph_uri: null } });
      expect(record.body.claim).toMatchObject({ kind: 'PROPER_COLOURING', value: { colours: COLOURS_3, k: 3 } });
      expect(record.body.input_uris).toEqual([]);
      expect(candidate.graphs.map((g) => [g.role, g.graph_uri, g.graph.order, g.graph.edges.length])).toEqual([['graph', null, 10, 15]]);
      // The signature covers the claim: a record whose claim is altered no longer verifies.
      const forged = { ...record, body: { ...record.body, claim: { ...record.body.claim, value: { colours: COLOURS_3, k: 2 } } } };
      expect(() => verifyRecordSignature(forged, new Map([[f.key.keyId, f.key.publicKey]]))).toThrow(/signature/);
    });

    it('accepts fewer colours than k, and colours used as arbitrary names', async () => {
      await f.expectVerified(await f.run('graph.colouring.verify', { graph: PETERSEN, colours: COLOURS_3, k: 4 }));
      const named = COLOURS_3.map((c) => [70, 3, 900][c] as number);
      const result = await f.run('graph.colouring.verify', { graph: PETERSEN, colours: named, k: 3 });
      await f.expectVerified(result);
      expect(result.output).toMatchObject({ colours_used: 3 });
    });

    it('rejects an improper colouring, naming the adjacent pair and their colour', async () => {
      const improper = [...COLOURS_3];
      improper[7] = 1; // 7 is adjacent to 5 (colour 1) and 9 (colour 1)
      f.expectRejected(await f.run('graph.colouring.verify', { graph: PETERSEN, colours: improper, k: 3 }), 'WITNESS_INVALID', 'adjacent vertices 5 and 7 both have colour 1');
    });

    it('rejects a proper colouring with more colours than claimed', async () => {
      const four = [...COLOURS_3];
      four[0] = 3;
      f.expectRejected(await f.run('graph.colouring.verify', { graph: PETERSEN, colours: four, k: 3 }), 'CLAIM_MISMATCH', 'the colouring uses 4 colours, more than the claimed 3');
      f.expectRejected(await f.run('graph.colouring.verify', { graph: PETERSEN, colours: COLOURS_3, k: 2 }), 'CLAIM_MISMATCH', 'uses 3 colours, more than the claimed 2');
    });

    it('refuses a colouring that does not give one colour per vertex, before writing anything', async () => {
      f.expectError(await f.run('graph.colouring.verify', { graph: PETERSEN, colours: COLOURS_3.slice(1), k: 3 }), 'INVALID_REQUEST', ['payload', 'colours']);
    });
  });

  describe('graph.clique.verify', () => {
    it('accepts an edge of the Petersen graph as a clique of 2', async () => {
      const result = await f.run('graph.clique.verify', { graph: PETERSEN, vertices: [0, 1], size: 2 });
      await f.expectVerified(result);
      expect((result.output as Record<string, unknown>)['claim']).toContain('form a clique of 2 vertices, so its clique number ω ≥ 2');
    });

    it('accepts a triangle named by labels in a labelled graph', async () => {
      const graph = { vertices: ['d', 'a', 'c', 'b'], edges: [['a', 'b'], ['b', 'c'], ['a', 'c'], ['c', 'd']] };
      const result = await f.run('graph.clique.verify', { graph, vertices: ['c', 'a', 'b'], size: 3 });
      const { record } = await f.expectVerified(result);
      // Canonical order sorts the labels a, b, c, d: indices 0..3.
      expect(result.output).toMatchObject({ vertices: { vertices: [2, 0, 1], labels: ['c', 'a', 'b'] } });
      expect(record.body.claim.value).toEqual({ vertices: [2, 0, 1], size: 3 });
    });

    it('rejects a set that is not a clique, naming the non-adjacent pair', async () => {
      f.expectRejected(await f.run('graph.clique.verify', { graph: PETERSEN, vertices: [0, 1, 2], size: 3 }), 'WITNESS_INVALID', 'vertices 0 and 2 are not adjacent');
    });

    it('rejects a wrong size claim', async () => {
      f.expectRejected(await f.run('graph.clique.verify', { graph: PETERSEN, vertices: [0, 1], size: 3 }), 'CLAIM_MISMATCH', 'the clique has 2 vertices, not the claimed 3');
    });

    it('rejects a repeated vertex', async () => {
      f.expectRejected(await f.run('graph.clique.verify', { graph: PETERSEN, vertices: [0, 1, 0], size: 3 }), 'WITNESS_INVALID', 'vertices[2] = 0 is repeated');
    });

    it('refuses a vertex index or label that names no vertex, at its path, before writing anything', async () => {
      f.expectError(await f.run('graph.clique.verify', { graph: PETERSEN, vertices: [0, 10], size: 2 }), 'INVALID_REQUEST', ['payload', 'vertices', 1]);
      f.expectError(await f.run('graph.clique.verify', { graph: PETERSEN, vertices: [0, 'x'], size: 2 }), 'INVALID_REQUEST', ['payload', 'vertices', 1]);
    });

    it('refuses a request with two graph forms, before reading or writing anything', async () => {
      const result = await f.run('graph.clique.verify', { graph: PETERSEN, graph6: encodeGraph6(PETERSEN_SORTED), vertices: [0, 1], size: 2 });
      f.expectError(result, 'INVALID_REQUEST', ['payload', 'graph6']);
    });

    it('cannot produce VERIFIED when the operator has not authorized it, for a true or a false claim', async () => {
      f.expectError(await f.run('graph.clique.verify', { graph: PETERSEN, vertices: [0, 1], size: 2 }, { service: f.unauthorized }), 'CHECKER_NOT_AUTHORIZED');
      f.expectError(await f.run('graph.clique.verify', { graph: PETERSEN, vertices: [0, 2], size: 2 }, { service: f.unauthorized }), 'CHECKER_NOT_AUTHORIZED');
    });
  });

  describe('graph.independent_set.verify', () => {
    it('accepts an independent set of 4 in the Petersen graph', async () => {
      const result = await f.run('graph.independent_set.verify', { graph: PETERSEN, vertices: INDEPENDENT_4, size: 4 });
      await f.expectVerified(result);
      expect(result.output).toMatchObject({ vertices: { vertices: INDEPENDENT_4, labels: ['0', '2', '8', '9'] }, size: 4 });
    });

    it('rejects a set with an edge inside, naming it', async () => {
      f.expectRejected(await f.run('graph.independent_set.verify', { graph: PETERSEN, vertices: [0, 2, 7], size: 3 }), 'WITNESS_INVALID', 'vertices 2 and 7 are adjacent');
    });

    it('rejects a wrong size claim and a repeated vertex', async () => {
      f.expectRejected(await f.run('graph.independent_set.verify', { graph: PETERSEN, vertices: INDEPENDENT_4, size: 5 }), 'CLAIM_MISMATCH', 'has 4 vertices, not the claimed 5');
      f.expectRejected(await f.run('graph.independent_set.verify', { graph: PETERSEN, vertices: [0, 2, 2], size: 3 }), 'WITNESS_INVALID', 'vertices[2] = 2 is repeated');
    });
  });

  describe('graph.matching.verify', () => {
    it('accepts the perfect matching of spokes, with the graph given as sparse6', async () => {
      const result = await f.run('graph.matching.verify', { sparse6: encodeSparse6(PETERSEN_SORTED), edges: SPOKES, size: 5 });
      await f.expectVerified(result);
      expect(result.output).toMatchObject({ edges: { edges: SPOKES, labels: SPOKES.map(([u, v]) => [String(u), String(v)]) }, size: 5 });
    });

    it('rejects edges sharing a vertex', async () => {
      f.expectRejected(await f.run('graph.matching.verify', { graph: PETERSEN, edges: [[0, 1], [1, 2]], size: 2 }), 'WITNESS_INVALID', 'edges[0] and edges[1] share vertex 1');
    });

    it('rejects a pair that is not an edge of the graph (a missing edge)', async () => {
      f.expectRejected(await f.run('graph.matching.verify', { graph: PETERSEN, edges: [[0, 5], [1, 3]], size: 2 }), 'WITNESS_INVALID', 'edges[1] = [1, 3] is not an edge of the graph');
    });

    it('rejects a wrong size claim', async () => {
      f.expectRejected(await f.run('graph.matching.verify', { graph: PETERSEN, edges: SPOKES, size: 6 }), 'CLAIM_MISMATCH', 'the matching has 5 edges, not the claimed 6');
    });
  });

  describe('graph.hamiltonian_path.verify', () => {
    it('accepts a Hamiltonian path of the Petersen graph, with the graph given as graph6', async () => {
      await f.expectVerified(await f.run('graph.hamiltonian_path.verify', { graph6: encodeGraph6(PETERSEN_SORTED), vertices: HAMILTONIAN_PATH }));
    });

    it('rejects a repeated vertex', async () => {
      const repeated = [...HAMILTONIAN_PATH.slice(0, 9), 8];
      f.expectRejected(await f.run('graph.hamiltonian_path.verify', { graph: PETERSEN, vertices: repeated }), 'WITNESS_INVALID', 'vertices[9] = 8 is repeated');
    });

    it('rejects a path that misses a vertex', async () => {
      f.expectRejected(await f.run('graph.hamiltonian_path.verify', { graph: PETERSEN, vertices: HAMILTONIAN_PATH.slice(0, 9) }), 'WITNESS_INVALID', 'visits 9 of the 10 vertices');
    });

    it('rejects a step between non-adjacent vertices', async () => {
      const jumped = [0, 1, 2, 3, 4, 9, 7, 5, 6, 8];
      f.expectRejected(await f.run('graph.hamiltonian_path.verify', { graph: PETERSEN, vertices: jumped }), 'WITNESS_INVALID', 'consecutive vertices 5 and 6 are not adjacent');
    });
  });

  describe('graph.hamiltonian_cycle.verify', () => {
    it('accepts C5 and a Gray-code cycle of the cube', async () => {
      await f.expectVerified(await f.run('graph.hamiltonian_cycle.verify', { graph: C5, vertices: [0, 1, 2, 3, 4] }));
      await f.expectVerified(await f.run('graph.hamiltonian_cycle.verify', { graph: CUBE, vertices: [0, 1, 3, 2, 6, 7, 5, 4] }));
    });

    it('rejects the Petersen Hamiltonian path as a cycle: its ends are not adjacent (Petersen has no Hamiltonian cycle)', async () => {
      f.expectRejected(await f.run('graph.hamiltonian_cycle.verify', { graph: PETERSEN, vertices: HAMILTONIAN_PATH }), 'WITNESS_INVALID', 'consecutive vertices 6 and 0 are not adjacent');
    });

    it('rejects a repeated vertex and a cycle that misses a vertex', async () => {
      f.expectRejected(await f.run('graph.hamiltonian_cycle.verify', { graph: C5, vertices: [0, 1, 2, 3, 3] }), 'WITNESS_INVALID', 'vertices[4] = 3 is repeated');
      f.expectRejected(await f.run('graph.hamiltonian_cycle.verify', { graph: CUBE, vertices: [0, 1, 3, 2, 6, 4] }), 'WITNESS_INVALID', 'visits 6 of the 8 vertices');
    });
  });

  describe('graph.spanning_tree.verify', () => {
    it('accepts a spanning tree of the Petersen graph given inline', async () => {
      await f.expectVerified(await f.run('graph.spanning_tree.verify', { graph: PETERSEN, edges: TREE }));
    });

    it('accepts it for a stored graph, binding the graph artifact as input and lineage', async () => {
      const graphUri = await f.storeGraph(10, PETERSEN_SORTED.edges);
      const result = await f.run('graph.spanning_tree.verify', { graph_uri: graphUri, edges: TREE });
      const { record, candidate } = await f.expectVerified(result);
      expect(record.body.input_uris).toEqual([graphUri]);
      expect(result.scope?.input_uris).toEqual([graphUri]);
      expect(candidate.graphs[0]?.graph_uri).toBe(graphUri);
      expect(result.output).toMatchObject({ graph: { graph_uri: graphUri } });
      expect(result.relationships).toContainEqual({ subject: (result.output as Record<string, unknown>)['candidate_uri'], predicate: 'DERIVED_FROM', object: graphUri });
    });

    it('rejects a pair that is not an edge (a missing edge)', async () => {
      const wrong: [number, number][] = [[0, 2], ...TREE.slice(1)];
      f.expectRejected(await f.run('graph.spanning_tree.verify', { graph: PETERSEN, edges: wrong }), 'WITNESS_INVALID', 'edges[0] = [0, 2] is not an edge of the graph');
    });

    it('rejects too few edges, and order − 1 edges that contain a cycle and miss a vertex', async () => {
      f.expectRejected(await f.run('graph.spanning_tree.verify', { graph: PETERSEN, edges: TREE.slice(1) }), 'WITNESS_INVALID', 'has 9 edges, got 8');
      const cyclic: [number, number][] = [...C5.edges, [0, 5], [1, 6], [2, 7], [3, 8]];
      f.expectRejected(await f.run('graph.spanning_tree.verify', { graph: PETERSEN, edges: cyclic }), 'WITNESS_INVALID', 'the edges do not connect every vertex');
    });

    it('refuses a stored artifact that is missing or not a graph', async () => {
      const missing = `artifact://sha256/${'3'.repeat(64)}`;
      f.expectError(await f.run('graph.spanning_tree.verify', { graph_uri: missing, edges: TREE }), 'ARTIFACT_NOT_FOUND', ['payload', 'graph_uri']);
      const notGraph = await f.artifacts.put({ schema_uri: 'jacobian:schema/test.other/v1', semantics_uri: 'jacobian:semantics/test.other/v1', payload: { x: 1 }, parents: [] });
      f.expectError(await f.run('graph.spanning_tree.verify', { graph_uri: notGraph.uri, edges: TREE }), 'ARTIFACT_TYPE_MISMATCH', ['payload', 'graph_uri']);
    });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admitRequest,
  CapabilityRequestSchema,
  createLocalFolderArtifactStore,
  createProcessPool,
  GRAPH_SCHEMA_URI,
  GRAPH_SEMANTICS_URI,
  INDUCED_TREE_RESULT_SCHEMA_URI,
  INDUCED_TREE_RESULT_SEMANTICS_URI,
  loadOrCreateSigningKey,
  verifyRecordSignature,
  type ArtifactStore,
  type CapabilityResult,
  type IsolatedExecutor,
  type SigningKey,
} from '@jacobian/shared';
import { createChecker, type CheckerService } from '../checker.js';

const PETERSEN_EDGES: [number, number][] = [
  [0, 1], [0, 4], [0, 5], [1, 2], [1, 6], [2, 3], [2, 7], [3, 4], [3, 8], [4, 9], [5, 7], [5, 8], [6, 8], [6, 9], [7, 9],
];
/** An induced tree of order 7 in the Petersen graph (its maximum): a spanning tree of 0,1,2,3,5,6,9 with no chords. */
const PETERSEN_TREE = [0, 1, 2, 3, 5, 6, 9];

describe('graph.induced_tree.maximum.verify', () => {
  let root: string;
  let artifacts: ArtifactStore;
  let executor: IsolatedExecutor;
  let key: SigningKey;
  let checker: CheckerService;
  let unauthorized: CheckerService;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'jacobian-checker-'));
    artifacts = createLocalFolderArtifactStore({ root: join(root, 'artifacts') });
    executor = createProcessPool({ size: 1 });
    key = await loadOrCreateSigningKey(join(root, 'key.pem'));
    checker = await createChecker({ artifacts, executor, authorization: 'bundled', signingKey: key });
    unauthorized = await createChecker({ artifacts, executor, authorization: { authorized: [] }, signingKey: key });
  });
  afterAll(async () => {
    await executor.close();
    await artifacts.close();
    await rm(root, { recursive: true, force: true });
  });

  async function storeGraph(order: number, edges: [number, number][]): Promise<string> {
    const stored = await artifacts.put({
      schema_uri: GRAPH_SCHEMA_URI,
      semantics_uri: GRAPH_SEMANTICS_URI,
      payload: { order, labels: Array.from({ length: order }, (_, i) => String(i)), edges },
      parents: [],
      summary: { order, size: edges.length },
    });
    return stored.uri;
  }

  async function storeResult(
    graphUri: string,
    claim: { lower: number; upper: number; witness: number[]; optimal?: boolean },
    parents: string[] = [graphUri],
  ): Promise<string> {
    const optimal = claim.optimal ?? claim.lower === claim.upper;
    const stored = await artifacts.put({
      schema_uri: INDUCED_TREE_RESULT_SCHEMA_URI,
      semantics_uri: INDUCED_TREE_RESULT_SEMANTICS_URI,
      payload: {
        input_uri: graphUri,
        claim: { kind: 'MAXIMUM_INDUCED_TREE_ORDER', optimal, lower_bound: claim.lower, upper_bound: claim.upper, witness: claim.witness },
        termination: optimal ? 'OPTIMAL' : 'BUDGET_EXHAUSTED',
        solver_calls: 1,
        provider: { name: 'forged-for-test', version: '0', digest: 'f'.repeat(64) },
      },
      parents,
      summary: {},
    });
    return stored.uri;
  }

  async function verify(service: CheckerService, resultUri: string): Promise<CapabilityResult> {
    const run = admitRequest(
      CapabilityRequestSchema.parse({ capability_id: 'graph.induced_tree.maximum.verify', mode: 'VERIFY', payload: { result_uri: resultUri } }),
    );
    return service.handle(run, new AbortController().signal);
  }

  it('publishes a fixed checker identity bound to its code, authorized when bundled', () => {
    const identity = checker.identities.find((i) => i.checker_id === 'jacobian.graph.induced_tree.maximum.exhaustive');
    expect(identity?.checker_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // Every identity is distinct, and 'bundled' authorizes exactly the identities measured.
    expect(new Set(checker.identities.map((i) => i.checker_digest)).size).toBe(checker.identities.length);
    expect(checker.authorization.authorized).toEqual(checker.identities.map(({ checker_id, checker_digest }) => ({ checker_id, checker_digest })));
  });

  it('accepts a true maximum and signs a record binding claim, candidate, inputs and request', async () => {
    const graphUri = await storeGraph(10, PETERSEN_EDGES);
    const resultUri = await storeResult(graphUri, { lower: 7, upper: 7, witness: PETERSEN_TREE });
    const result = await verify(checker, resultUri);
    expect(result.execution.status).toBe('COMPLETED');
    expect(result.assurance.level).toBe('VERIFIED');
    expect(result.output).toMatchObject({ verdict: 'ACCEPTED', claimed_maximum: 7, subsets_examined: 1024 });
    const recordUri = result.assurance.verification_record_uri as string;
    const stored = await artifacts.get(recordUri);
    expect(stored.manifest.parents).toEqual([resultUri, graphUri]);
    const record = verifyRecordSignature(stored.payload, new Map<string, KeyObject>([[key.keyId, key.publicKey]]));
    expect(record.body).toMatchObject({
      verdict: 'ACCEPTED',
      candidate_uri: resultUri,
      input_uris: [graphUri],
      request_digest: result.execution.request_digest,
      checker_id: checker.identities[0]?.checker_id,
      checker_digest: checker.identities[0]?.checker_digest,
    });
    expect(result.obligations).toEqual([expect.objectContaining({ id: 'optimality', status: 'DISCHARGED' })]);
  });

  const rejections: [string, { lower: number; upper: number; witness: number[] }, string][] = [
    ['a maximum that is too small (a larger tree exists)', { lower: 6, upper: 6, witness: [0, 1, 2, 3, 5, 6] }, 'NOT_MAXIMUM'],
    ['a witness with a cycle', { lower: 5, upper: 5, witness: [0, 1, 2, 3, 4] }, 'WITNESS_NOT_INDUCED_TREE'],
    ['a disconnected witness', { lower: 2, upper: 2, witness: [0, 2] }, 'WITNESS_NOT_INDUCED_TREE'],
  ];
  for (const [name, claim, reason] of rejections) {
    it(`rejects ${name} without VERIFIED and without a record`, async () => {
      const graphUri = await storeGraph(10, PETERSEN_EDGES);
      const result = await verify(checker, await storeResult(graphUri, claim));
      expect(result.execution.status).toBe('COMPLETED');
      expect(result.assurance.level).toBe('COMPUTED');
      expect(result.assurance.verification_record_uri).toBeNull();
      expect(result.output).toMatchObject({ verdict: 'REJECTED', reason_code: reason });
      expect(result.diagnostics[0]).toMatchObject({ severity: 'WARNING', code: 'CHECKER_REJECTED' });
    });
  }

  it('returns an unsupported non-conclusion for a bounds-only result', async () => {
    const graphUri = await storeGraph(10, PETERSEN_EDGES);
    const result = await verify(checker, await storeResult(graphUri, { lower: 6, upper: 8, witness: [0, 1, 2, 3, 5, 6] }));
    expect(result.execution.status).toBe('ERROR');
    expect(result.assurance.level).toBe('HEURISTIC');
    expect(result.diagnostics[0]?.code).toBe('CHECKER_UNSUPPORTED');
  });

  it('returns an unsupported non-conclusion above order 14', async () => {
    const path15: [number, number][] = Array.from({ length: 14 }, (_, i) => [i, i + 1]);
    const graphUri = await storeGraph(15, path15);
    const result = await verify(checker, await storeResult(graphUri, { lower: 15, upper: 15, witness: Array.from({ length: 15 }, (_, i) => i) }));
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'CHECKER_UNSUPPORTED' });
    expect(result.diagnostics[0]?.message).toMatch(/order 15/);
  });

  it('refuses a result whose named input is not among its parents (lineage)', async () => {
    const graphUri = await storeGraph(10, PETERSEN_EDGES);
    const other = await storeGraph(3, [[0, 1], [1, 2]]);
    const result = await verify(checker, await storeResult(graphUri, { lower: 7, upper: 7, witness: PETERSEN_TREE }, [other]));
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]?.code).toBe('LINEAGE_MISMATCH');
  });

  it('refuses an artifact that is not a producer result', async () => {
    const graphUri = await storeGraph(3, [[0, 1]]);
    const result = await verify(checker, graphUri);
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'result_uri'] });
  });

  it('cannot produce VERIFIED when the operator has not authorized it', async () => {
    const graphUri = await storeGraph(10, PETERSEN_EDGES);
    const result = await verify(unauthorized, await storeResult(graphUri, { lower: 7, upper: 7, witness: PETERSEN_TREE }));
    expect(result.execution.status).toBe('ERROR');
    expect(result.assurance.level).toBe('HEURISTIC');
    expect(result.diagnostics[0]?.code).toBe('CHECKER_NOT_AUTHORIZED');
  });

  it('returns ARTIFACT_NOT_FOUND for a result that does not exist', async () => {
    const result = await verify(checker, `artifact://sha256/${'2'.repeat(64)}`);
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]?.code).toBe('ARTIFACT_NOT_FOUND');
  });
});

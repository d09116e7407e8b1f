/**
 * Test fixture of the graph witness checkers: a checker service on a local folder store that
 * records every write (so a test can show that a rejected or invalid request wrote nothing),
 * and the assertions every accepted or rejected verdict must satisfy. Used by the tests beside
 * it only; the service never imports it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { expect } from 'vitest';
import {
  admitRequest,
  CapabilityRequestSchema,
  createLocalFolderArtifactStore,
  createProcessPool,
  GRAPH_SCHEMA_URI,
  GRAPH_SEMANTICS_URI,
  loadOrCreateSigningKey,
  VERIFICATION_RECORD_SCHEMA_URI,
  verifyRecordSignature,
  type ArtifactStore,
  type CapabilityResult,
  type IsolatedExecutor,
  type SigningKey,
  type VerificationRecord,
} from '@jacobian/shared';
import { createChecker, type CheckerService } from '../checker.js';
import { GRAPH_WITNESS_CANDIDATE_SCHEMA_URI, GraphWitnessCandidateSchema, type GraphWitnessCandidate, type RejectionReason } from './witness-checker.js';

export interface WitnessCheckerFixture {
  /** The store the services write to; every put is listed in {@link writes}. */
  readonly artifacts: ArtifactStore;
  /** Schema URIs of the artifacts written since the last {@link resetWrites}. */
  readonly writes: string[];
  readonly key: SigningKey;
  /** Authorized by 'bundled'. */
  readonly checker: CheckerService;
  /** Authorizes nothing. */
  readonly unauthorized: CheckerService;
  resetWrites(): void;
  run(capabilityId: string, payload: Record<string, unknown>, options?: { service?: CheckerService; mode?: 'EXPLORE' | 'VERIFY' }): Promise<CapabilityResult>;
  /** Store a graph artifact directly (canonical payload: labels in canonical order, sorted edges). */
  storeGraph(order: number, edges: [number, number][]): Promise<string>;
  /** Assert an accepted, VERIFIED result with a stored record whose signature and bindings hold. */
  expectVerified(result: CapabilityResult): Promise<{ record: VerificationRecord; candidate: GraphWitnessCandidate }>;
  /** Assert a REJECTED verdict that is not VERIFIED, has no record and wrote nothing. */
  expectRejected(result: CapabilityResult, reason: RejectionReason, message: string | RegExp): void;
  /** Assert a non-conclusion with this error code that wrote nothing. */
  expectError(result: CapabilityResult, code: string, path?: (string | number)[]): void;
  close(): Promise<void>;
}

export async function createWitnessCheckerFixture(): Promise<WitnessCheckerFixture> {
  const root = await mkdtemp(join(tmpdir(), 'jacobian-witness-checker-'));
  const store = createLocalFolderArtifactStore({ root: join(root, 'artifacts') });
  const writes: string[] = [];
  const artifacts: ArtifactStore = {
    get limits() {
      return store.limits;
    },
    put: (draft, options) => {
      writes.push(draft.schema_uri);
      return store.put(draft, options);
    },
    get: (uri, options) => store.get(uri, options),
    getManifest: (uri, options) => store.getManifest(uri, options),
    has: (uri) => store.has(uri),
    sync: (uris) => store.sync(uris),
    close: () => store.close(),
  };
  const executor: IsolatedExecutor = createProcessPool({ size: 1 });
  const key = await loadOrCreateSigningKey(join(root, 'key.pem'));
  const checker = await createChecker({ artifacts, executor, authorization: 'bundled', signingKey: key });
  const unauthorized = await createChecker({ artifacts, executor, authorization: { authorized: [] }, signingKey: key });
  const trusted = new Map<string, KeyObject>([[key.keyId, key.publicKey]]);

  const fixture: WitnessCheckerFixture = {
    artifacts,
    writes,
    key,
    checker,
    unauthorized,
    resetWrites() {
      writes.length = 0;
    },
    async run(capabilityId, payload, options = {}) {
      writes.length = 0;
      const run = admitRequest(CapabilityRequestSchema.parse({ capability_id: capabilityId, mode: options.mode ?? 'VERIFY', payload }));
      return (options.service ?? checker).handle(run, new AbortController().signal);
    },
    async storeGraph(order, edges) {
      const stored = await store.put({
        schema_uri: GRAPH_SCHEMA_URI,
        semantics_uri: GRAPH_SEMANTICS_URI,
        payload: { order, labels: Array.from({ length: order }, (_, i) => String(i)), edges },
        parents: [],
        summary: { order, size: edges.length },
      });
      return stored.uri;
    },
    async expectVerified(result) {
      expect(result.diagnostics).toEqual([]);
      expect(result.execution.status).toBe('COMPLETED');
      expect(result.assurance.level).toBe('VERIFIED');
      const output = result.output as Record<string, unknown>;
      expect(output).toMatchObject({ verdict: 'ACCEPTED', reason_code: null });
      const recordUri = result.assurance.verification_record_uri as string;
      const candidateUri = output['candidate_uri'] as string;
      expect(output['verification_record_uri']).toBe(recordUri);
      expect(writes).toEqual([GRAPH_WITNESS_CANDIDATE_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI]);

      const stored = await artifacts.get(recordUri);
      expect(stored.manifest.schema_uri).toBe(VERIFICATION_RECORD_SCHEMA_URI);
      const record = verifyRecordSignature(stored.payload, trusted);
      const declared = checker.installed.find((c) => c.descriptor.id === result.capability_id)?.descriptor.checker;
      const inputUris = result.scope?.input_uris ?? [];
      expect(record.body).toMatchObject({
        verdict: 'ACCEPTED',
        capability_id: result.capability_id,
        checker_id: declared?.checker_id,
        checker_digest: declared?.checker_digest,
        candidate_uri: candidateUri,
        input_uris: inputUris,
        request_digest: result.execution.request_digest,
        scope: { kind: 'EXACT_CLAIM', statement: output['claim'] },
        signer: { algorithm: 'ed25519', key_id: key.keyId },
      });
      expect(result.assurance.checker_id).toBe(declared?.checker_id);
      expect(result.scope).toMatchObject({ kind: 'EXACT_CLAIM', statement: output['claim'] });
      expect(stored.manifest.parents).toEqual([candidateUri, ...inputUris]);
      expect(result.artifact_uris).toEqual([recordUri, candidateUri, ...inputUris]);
      expect(result.relationships).toContainEqual({ subject: recordUri, predicate: 'VERIFIES', object: candidateUri });

      const candidateArtifact = await artifacts.get(candidateUri);
      expect(candidateArtifact.manifest).toMatchObject({ schema_uri: GRAPH_WITNESS_CANDIDATE_SCHEMA_URI, semantics_uri: record.body.claim_semantics_uri, parents: inputUris });
      const candidate = GraphWitnessCandidateSchema.parse(candidateArtifact.payload);
      expect(candidate.claim).toEqual(record.body.claim);
      return { record, candidate };
    },
    expectRejected(result, reason, message) {
      expect(result.execution.status).toBe('COMPLETED');
      expect(result.assurance).toMatchObject({ level: 'COMPUTED', verification_record_uri: null, checker_id: null });
      expect(result.output).toMatchObject({ verdict: 'REJECTED', reason_code: reason, candidate_uri: null, verification_record_uri: null });
      const said = (result.output as Record<string, unknown>)['message'] as string;
      if (typeof message === 'string') expect(said).toContain(message);
      else expect(said).toMatch(message);
      expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: said })]);
      expect(writes).toEqual([]);
    },
    expectError(result, code, path) {
      expect(result.execution.status).toBe('ERROR');
      expect(result.assurance.level).toBe('HEURISTIC');
      expect(result.output).toBeNull();
      expect(result.diagnostics[0]?.code).toBe(code);
      if (path !== undefined) expect(result.diagnostics[0]?.path).toEqual(path);
      expect(writes).toEqual([]);
    },
    async close() {
      await executor.close();
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  return fixture;
}

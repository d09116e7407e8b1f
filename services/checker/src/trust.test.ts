/**
 * The trust invariants, across every checker this service installs: VERIFIED covers the whole
 * claim asked. Each descriptor example is run through the service; a VERIFIED answer must carry
 * no open obligation, and its signed record must bind exactly the claim the result states (kind
 * named, statement equal to the scope's, candidate and request digest the result's). The answers
 * that must NOT be VERIFIED (an obligation of the claim asked left open) are tested beside each
 * checker; here one per checker family is rechecked through the service.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admitRequest,
  CapabilityRequestSchema,
  CapabilityResultSchema,
  createLocalFolderArtifactStore,
  createProcessPool,
  loadOrCreateSigningKey,
  verifyRecordSignature,
  type ArtifactStore,
  type CapabilityResult,
  type IsolatedExecutor,
  type SigningKey,
} from '@jacobian/shared';
import { createChecker, type CheckerService } from './checker.js';

describe('every checker: VERIFIED only for the whole claim asked, bound by its record', () => {
  let root: string;
  let artifacts: ArtifactStore;
  let executor: IsolatedExecutor;
  let key: SigningKey;
  let checker: CheckerService;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'jacobian-trust-'));
    artifacts = createLocalFolderArtifactStore({ root: join(root, 'artifacts') });
    executor = createProcessPool({ size: 1 });
    key = await loadOrCreateSigningKey(join(root, 'key.pem'));
    checker = await createChecker({ artifacts, executor, authorization: 'bundled', signingKey: key });
  });
  afterAll(async () => {
    await executor?.close();
    await artifacts?.close();
    await rm(root, { recursive: true, force: true });
  });

  const handle = (capability_id: string, payload: Record<string, unknown>): Promise<CapabilityResult> =>
    checker.handle(admitRequest(CapabilityRequestSchema.parse({ capability_id, mode: 'VERIFY', payload })), new AbortController().signal);

  it('each example of each checker is VERIFIED with no open obligation, and its record binds the stated claim', { timeout: 240_000 }, async () => {
    const trusted = new Map([[key.keyId, key.publicKey]]);
    expect(checker.installed.length).toBeGreaterThanOrEqual(16);
    for (const capability of checker.installed) {
      for (const example of capability.descriptor.examples) {
        const where = `${capability.descriptor.id}: ${example.title}`;
        const result = await handle(capability.descriptor.id, example.payload);
        expect(CapabilityResultSchema.safeParse(result).success, where).toBe(true);
        expect(result.assurance.level, `${where}: ${JSON.stringify(result.diagnostics)}`).toBe('VERIFIED');
        expect(result.obligations.filter((o) => o.status === 'OPEN'), where).toEqual([]);
        const record = verifyRecordSignature((await artifacts.get(result.assurance.verification_record_uri as string)).payload, trusted).body;
        expect(record.claim.kind, where).toMatch(/^[A-Z][A-Z0-9_]+$/);
        expect(record.claim.statement, where).toBe(result.scope?.statement);
        expect(record.scope.statement, where).toBe(result.scope?.statement);
        expect(record.request_digest, where).toBe(result.execution.request_digest);
        expect(result.artifact_uris, where).toContain(record.candidate_uri);
      }
    }
  });

  it('answers below VERIFIED, with the open obligation named, wherever the evidence leaves part of the claim asked unshown', async () => {
    const groebner = await handle('polynomial.groebner_basis.verify', {
      claim: { ring: { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' }, generators: ['x^2 - y', 'x*y - 1'], basis: ['y^3 - 1', 'x - y^2'] },
    });
    const factor = await handle('polynomial.factor.verify', { claim: { ring: { field: { kind: 'Q' }, variables: ['x'], order: 'lex' }, polynomial: 'x^4 + 1', unit: '1', factors: [{ factor: 'x^4 + 1', multiplicity: 1 }] } });
    const member = await handle('polynomial.ideal_membership.verify', { claim: { ring: { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' }, generators: ['x - y'], polynomial: 'x^2 - y^2', verdict: 'MEMBER' } });
    for (const [result, open] of [
      [groebner, 'basis-in-ideal'],
      [factor, 'factors-irreducible'],
      [member, 'membership-certificate'],
    ] as const) {
      expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
      expect(result.assurance.level).toBe('COMPUTED');
      expect(result.assurance.verification_record_uri).toBeNull();
      expect(result.obligations.filter((o) => o.status === 'OPEN').map((o) => o.id)).toEqual([open]);
      expect((result.output as { verdict: string }).verdict).toBe('UNDECIDED');
    }
  });
});

import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  admitRequest,
  ArtifactUriSchema,
  CapabilityRequestSchema,
  CapabilityResultSchema,
  createLocalFolderArtifactStore,
  errorDiagnostic,
  installCapability,
  JacobianError,
  keyId,
  nonConclusionResult,
  OperatorPolicySchema,
  signRecord,
  VERIFICATION_RECORD_SCHEMA_URI,
  VERIFICATION_RECORD_SEMANTICS_URI,
  type AdmittedRun,
  type ArtifactStore,
  type CapabilityDefinition,
  type CapabilityRequestInput,
  type CapabilityResult,
  type CheckerIdentity,
  type InstalledCapability,
  type JsonValue,
  type OperatorPolicyInput,
  type ProviderRuntime,
  type RunQueue,
  type RunTarget,
  type SigningKey,
  type VerificationRecordBody,
} from '@jacobian/shared';
import { memoryTracing } from '@jacobian/shared/testing';
import { ANSWER_GRACE_MS, createApi, type Api } from './api.js';

const RUNTIME: ProviderRuntime = {
  provider: 'fake-provider',
  availability: 'AVAILABLE',
  version: '1.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: '6'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

const IDENTITY: CheckerIdentity = { checker_id: 'test.checker.exhaustive', checker_digest: `sha256:${'7'.repeat(64)}`, method: 'look at everything' };

function capability(id: string, input: z.ZodType, overrides: Partial<CapabilityDefinition<unknown, unknown>> = {}, checker: CheckerIdentity | null = null): InstalledCapability {
  const definition: CapabilityDefinition<unknown, unknown> = {
    id,
    version: '1.0.0',
    title: id,
    description: `test capability ${id}`,
    tags: [],
    domain: 'test',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input,
    output: z.unknown(),
    examples: [],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'the input',
    limits: {},
    run: () => Promise.reject(new Error('the API never runs capabilities itself')),
    ...overrides,
  };
  return installCapability(definition, RUNTIME, checker);
}

const checkerOverrides = { role: 'checker', pool: 'checker', assurance_ceiling: 'VERIFIED' } as const;
const INSTALLED: InstalledCapability[] = [
  capability('test.square', z.object({ n: z.number().int().min(0).max(1000) }).strict()),
  capability('test.real', z.object({ x: z.number() }).strict()),
  capability('test.hidden', z.object({}).strict()),
  capability('test.check', z.object({ target: ArtifactUriSchema }).strict(), { ...checkerOverrides, modes: ['VERIFY'] }, IDENTITY),
  capability('test.dual', z.object({ target: ArtifactUriSchema }).strict(), { ...checkerOverrides, modes: ['EXPLORE', 'VERIFY'] }, { ...IDENTITY, checker_id: 'test.dual.checker' }),
];

interface Submitted {
  run: AdmittedRun;
  target: RunTarget;
  signal: AbortSignal | undefined;
}

function fakeQueue(respond: (run: AdmittedRun) => CapabilityResult | Promise<CapabilityResult>): { queue: RunQueue; submits: Submitted[] } {
  const submits: Submitted[] = [];
  const queue: RunQueue = {
    submit: async (run, target, options) => {
      submits.push({ run, target, signal: options?.signal });
      return respond(run);
    },
    stats: () => ({ inFlight: 0, queued: 0, running: 0 }),
    close: () => Promise.resolve(),
  };
  return { queue, submits };
}

function computedResult(run: AdmittedRun): CapabilityResult {
  return {
    capability_id: run.capability_id,
    capability_version: '1.0.0',
    mode: run.mode,
    execution: { status: 'COMPLETED', runtime_ms: 3, job_id: run.job_id, request_digest: run.request_digest },
    output: { square: 49 },
    scope: { kind: 'EXACT_INPUT', statement: 'n', input_uris: [] },
    completeness: { status: 'COMPLETE', basis: 'arithmetic' },
    qualifiers: ['EXACT'],
    assurance: { level: 'COMPUTED', basis: 'computed', verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: [],
    provider: { name: 'fake-provider', version: '1.0.0', digest_kind: 'SOURCE_TREE', digest: '6'.repeat(64) },
    diagnostics: [],
  };
}

function newKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, keyId: keyId(publicKey) };
}

const checkerKey = newKey();
const forgerKey = newKey();
const trusted = new Map<string, KeyObject>([[checkerKey.keyId, checkerKey.publicKey]]);

let root: string;
let store: ArtifactStore;
let candidateUri: string;
let otherUri: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-api-'));
  store = createLocalFolderArtifactStore({ root: path.join(root, 'artifacts') });
  candidateUri = (await store.put({ schema_uri: 'urn:test:candidate', semantics_uri: 'urn:test:claim', payload: { maximum: 6 } })).uri;
  otherUri = (await store.put({ schema_uri: 'urn:test:candidate', semantics_uri: 'urn:test:claim', payload: { maximum: 7 } })).uri;
});

afterAll(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

function api(queue: RunQueue, policy: OperatorPolicyInput = {}): Api {
  return createApi({ installed: () => INSTALLED, policy: OperatorPolicySchema.parse(policy), queue, artifacts: store, trustedCheckerKeys: trusted });
}

function diagnostic(result: CapabilityResult): CapabilityResult['diagnostics'][number] {
  expect(result.diagnostics.length).toBeGreaterThanOrEqual(1);
  return result.diagnostics[0] as CapabilityResult['diagnostics'][number];
}

describe('admission rejects before anything is queued', () => {
  it.each([
    ['an unknown capability', { capability_id: 'test.nope', payload: {} }, {}, { code: 'UNKNOWN_CAPABILITY', path: ['capability_id'], stage: 'ADMISSION' }],
    ['a capability hidden by ID', { capability_id: 'test.hidden', payload: {} }, { hidden_ids: ['test.hidden'] }, { code: 'CAPABILITY_POLICY_DENIED', path: ['capability_id'], stage: 'POLICY' }],
    ['a capability hidden by domain', { capability_id: 'test.square', payload: { n: 1 } }, { hidden_domains: ['test'] }, { code: 'CAPABILITY_POLICY_DENIED', stage: 'POLICY' }],
    ['a hidden mode', { capability_id: 'test.dual', mode: 'VERIFY', payload: { target: `artifact://sha256/${'0'.repeat(64)}` } }, { hidden_modes: ['VERIFY'] }, { code: 'CAPABILITY_POLICY_DENIED', stage: 'POLICY' }],
    ['VERIFY on an EXPLORE-only capability', { capability_id: 'test.square', mode: 'VERIFY', payload: { n: 1 } }, {}, { severity: 'ERROR' }],
    ['EXPLORE on a VERIFY-only checker', { capability_id: 'test.check', payload: { target: `artifact://sha256/${'0'.repeat(64)}` } }, {}, { severity: 'ERROR' }],
    ['an invalid payload', { capability_id: 'test.square', payload: { n: 1001 } }, {}, { code: 'INVALID_REQUEST', path: ['payload', 'n'], stage: 'VALIDATION' }],
    ['a payload of the wrong type', { capability_id: 'test.square', payload: { n: 'seven' } }, {}, { code: 'INVALID_REQUEST', path: ['payload', 'n'] }],
    ['a float in the payload', { capability_id: 'test.real', payload: { x: 1.5 } }, {}, { code: 'CANONICAL_JSON_INVALID', stage: 'VALIDATION' }],
    ['a request without payload', { capability_id: 'test.square' }, {}, { code: 'INVALID_REQUEST', path: ['payload'] }],
    ['a budget out of bounds', { capability_id: 'test.square', payload: { n: 1 }, budget: { wall_time_ms: 10 } }, {}, { code: 'INVALID_REQUEST', path: ['budget', 'wall_time_ms'] }],
    // As JSON.parse gives it (an own key): a record would drop it without a word, and the run would be another request's.
    ['a payload key named __proto__', JSON.parse('{"capability_id":"test.square","payload":{"n":3,"__proto__":{"n":4}}}') as Record<string, unknown>, {}, { code: 'INVALID_REQUEST', path: ['payload', '__proto__'] }],
    ['a nested key named __proto__', JSON.parse('{"capability_id":"test.square","payload":{"n":3,"extra":[{"__proto__":1}]}}') as Record<string, unknown>, {}, { code: 'INVALID_REQUEST', path: ['payload', 'extra', 0, '__proto__'] }],
  ] as [string, Record<string, unknown>, OperatorPolicyInput, Record<string, unknown>][])('rejects %s', async (_name, request, policy, expected) => {
    const { queue, submits } = fakeQueue(computedResult);
    const result = await api(queue, policy).run(request);
    expect(submits).toHaveLength(0);
    expect(result.execution).toMatchObject({ status: 'ERROR', job_id: 'unadmitted' });
    expect(diagnostic(result)).toMatchObject({ severity: 'ERROR', ...expected });
    expect(result.assurance.level).toBe('HEURISTIC');
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  });

  it.each([
    ['VERIFY on an EXPLORE-only capability', { capability_id: 'test.square', mode: 'VERIFY', payload: { n: 1 } }],
    ['EXPLORE on a VERIFY-only checker', { capability_id: 'test.check', payload: { target: `artifact://sha256/${'0'.repeat(64)}` } }],
  ])('rejects %s with MODE_NOT_SUPPORTED at mode', async (_name, request) => {
    const { queue } = fakeQueue(computedResult);
    const result = await api(queue).run(request);
    expect(diagnostic(result)).toMatchObject({ code: 'MODE_NOT_SUPPORTED', path: ['mode'], stage: 'ADMISSION' });
  });

  it('names every invalid payload field under payload', async () => {
    const { queue, submits } = fakeQueue(computedResult);
    const result = await api(queue).run({ capability_id: 'test.square', payload: { n: -1, extra: true } });
    expect(submits).toHaveLength(0);
    expect(result.diagnostics.every((d) => d.path?.[0] === 'payload')).toBe(true);
    expect(result.diagnostics.map((d) => d.message).join(' ')).toContain('"extra"');
  });

  // Regression: the canonicalization error path already starts at the request's own field, so the API
  // must not prefix 'payload' again (it once reported ['payload', 'payload', 'x']).
  it('reports a float in the payload at exactly payload.x', async () => {
    const { queue } = fakeQueue(computedResult);
    const result = await api(queue).run({ capability_id: 'test.real', payload: { x: 1.5 } });
    expect(diagnostic(result)).toMatchObject({ code: 'CANONICAL_JSON_INVALID', path: ['payload', 'x'] });
    expect(diagnostic(result).message).toContain('non-integer');
    const deep = await api(queue).run({ capability_id: 'test.real', payload: { x: 2 ** 53 } });
    expect(diagnostic(deep).path).toEqual(['payload', 'x']);
  });
});

describe('admitted runs go to the queue', () => {
  it('submits a valid request once, to its pool, with its signal, and returns the result', async () => {
    const { queue, submits } = fakeQueue(computedResult);
    const controller = new AbortController();
    const request: CapabilityRequestInput = { capability_id: 'test.square', payload: { n: 7 } };
    const result = await api(queue).run(request, controller.signal);
    const expected = admitRequest(CapabilityRequestSchema.parse(request));
    expect(submits.map(({ run, target }) => ({ run, target }))).toEqual([{ run: expected, target: { kind: 'pool', pool: 'light' } }]);
    expect(result).toEqual(computedResult(expected));
    // The queue's signal follows the caller's (combined with the API's own deadline).
    const signal = submits[0]?.signal;
    expect(signal?.aborted).toBe(false);
    controller.abort();
    expect(signal?.aborted).toBe(true);
  });

  it('answers TIMEOUT once the budget and the answer grace have passed, and withdraws from the queue', async () => {
    // A queue that never answers, not even when withdrawn: the API's deadline answers anyway.
    const { queue, submits } = fakeQueue(() => new Promise<CapabilityResult>(() => undefined));
    const result = await api(queue).run({ capability_id: 'test.square', payload: { n: 7 }, budget: { wall_time_ms: 100 } });
    expect(result.execution.status).toBe('TIMEOUT');
    expect(diagnostic(result)).toMatchObject({ code: 'EXECUTION_TIMEOUT', stage: 'EXECUTION' });
    expect(diagnostic(result).message).toContain(`+${ANSWER_GRACE_MS} ms`);
    expect(result.artifact_uris).toEqual([]);
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    expect(submits[0]?.signal?.aborted).toBe(true);
  });

  it('keeps a result that arrives before the deadline, and a caller cancellation stays CANCELLED', async () => {
    const { queue } = fakeQueue(async (run) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return computedResult(run);
    });
    const kept = await api(queue).run({ capability_id: 'test.square', payload: { n: 7 }, budget: { wall_time_ms: 100 } });
    expect(kept.execution.status).toBe('COMPLETED');
    const withdrawn = fakeQueue((run) => nonConclusionResult(run, { status: 'CANCELLED', diagnostics: [errorDiagnostic(new JacobianError('EXECUTION_CANCELLED', 'cancelled'))] }));
    const controller = new AbortController();
    controller.abort();
    const cancelled = await api(withdrawn.queue).run({ capability_id: 'test.square', payload: { n: 7 } }, controller.signal);
    expect(cancelled.execution.status).toBe('CANCELLED');
  });

  it('sends checker capabilities to the checker target', async () => {
    const { queue, submits } = fakeQueue(computedResult);
    await api(queue).run({ capability_id: 'test.dual', payload: { target: candidateUri } });
    expect(submits.map((s) => s.target)).toEqual([{ kind: 'checker' }]);
  });

  it('turns a queue failure into an ERROR result carrying its code', async () => {
    const { queue } = fakeQueue(() => Promise.reject(Object.assign(new Error('no runner'), { code: 'PROVIDER_UNAVAILABLE' })));
    const result = await api(queue).run({ capability_id: 'test.square', payload: { n: 7 } });
    expect(result.execution.status).toBe('ERROR');
    expect(diagnostic(result)).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: 'no runner' });
  });
});

describe('a VERIFIED result stands only with a genuine, binding verification record', () => {
  const VERIFY_REQUEST = (): CapabilityRequestInput => ({ capability_id: 'test.check', mode: 'VERIFY', payload: { target: candidateUri } });

  interface RecordOptions {
    body?: Partial<Omit<VerificationRecordBody, 'signer'>>;
    key?: SigningKey;
    schemaUri?: string;
    parents?: string[];
  }

  async function storeRecord(requestDigest: string, options: RecordOptions = {}): Promise<string> {
    const record = signRecord(
      {
        verdict: 'ACCEPTED',
        capability_id: 'test.check',
        capability_version: '1.0.0',
        checker_id: IDENTITY.checker_id,
        checker_digest: IDENTITY.checker_digest,
        claim: { kind: 'TEST_CLAIM', statement: 'the maximum is 6', value: { maximum: 6 } },
        claim_semantics_uri: 'urn:test:claim',
        candidate_uri: candidateUri,
        input_uris: [],
        scope: { kind: 'EXACT_CLAIM', statement: 'the maximum is 6' },
        evidence_format: 'urn:test:evidence',
        request_digest: requestDigest,
        issued_at: '2025-06-01T00:00:00.000Z',
        ...options.body,
      },
      options.key ?? checkerKey,
    );
    const stored = await store.put({
      schema_uri: options.schemaUri ?? VERIFICATION_RECORD_SCHEMA_URI,
      semantics_uri: VERIFICATION_RECORD_SEMANTICS_URI,
      payload: record as unknown as JsonValue,
      parents: options.parents ?? [candidateUri],
    });
    return stored.uri;
  }

  function verifiedResult(run: AdmittedRun, recordUri: string, checkerId = IDENTITY.checker_id): CapabilityResult {
    return {
      ...computedResult(run),
      output: { verdict: 'ACCEPTED' },
      scope: { kind: 'EXACT_CLAIM', statement: 'the maximum is 6', input_uris: [candidateUri] },
      assurance: { level: 'VERIFIED', basis: 'checker accepted', verification_record_uri: recordUri, checker_id: checkerId },
      relationships: [{ subject: recordUri, predicate: 'VERIFIES', object: candidateUri }],
      artifact_uris: [recordUri, candidateUri],
    };
  }

  const digestOf = (request: CapabilityRequestInput): string => admitRequest(CapabilityRequestSchema.parse(request)).request_digest;

  async function runWith(recordUri: (digest: string) => Promise<string>, checkerId?: string): Promise<CapabilityResult> {
    const uri = await recordUri(digestOf(VERIFY_REQUEST()));
    const { queue, submits } = fakeQueue((run) => verifiedResult(run, uri, checkerId));
    const result = await api(queue).run(VERIFY_REQUEST());
    expect(submits).toHaveLength(1);
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    return result;
  }

  function expectRejected(result: CapabilityResult, code: string, message?: string): void {
    expect(result.assurance.level).not.toBe('VERIFIED');
    expect(result.assurance.verification_record_uri).toBeNull();
    expect(result.execution.status).toBe('ERROR');
    expect(result.output).toBeNull();
    expect(diagnostic(result)).toMatchObject({ code, severity: 'ERROR' });
    if (message !== undefined) expect(diagnostic(result).message).toContain(message);
  }

  it('accepts a genuine record (the control case)', async () => {
    const result = await runWith((digest) => storeRecord(digest));
    expect(result.execution.status).toBe('COMPLETED');
    expect(result.assurance.level).toBe('VERIFIED');
    expect(result.assurance.checker_id).toBe(IDENTITY.checker_id);
  });

  it('rejects a record signed by an untrusted key', async () => {
    expectRejected(await runWith((digest) => storeRecord(digest, { key: forgerKey })), 'VERIFICATION_RECORD_INVALID', 'not trusted');
  });

  it('rejects a record that claims the trusted key ID but was signed by another key', async () => {
    const impostor: SigningKey = { ...forgerKey, keyId: checkerKey.keyId };
    expectRejected(await runWith((digest) => storeRecord(digest, { key: impostor })), 'VERIFICATION_RECORD_INVALID', 'does not verify');
  });

  it('rejects a record issued for a different request', async () => {
    const otherDigest = digestOf({ capability_id: 'test.check', mode: 'VERIFY', payload: { target: otherUri } });
    expectRejected(await runWith(() => storeRecord(otherDigest)), 'VERIFICATION_RECORD_INVALID', 'request digest');
  });

  it('rejects a record URI that is not in the store with ARTIFACT_NOT_FOUND', async () => {
    expectRejected(await runWith(() => Promise.resolve(`artifact://sha256/${'9'.repeat(64)}`)), 'ARTIFACT_NOT_FOUND');
  });

  it("rejects a record whose checker digest differs from the descriptor's", async () => {
    const result = await runWith((digest) => storeRecord(digest, { body: { checker_digest: `sha256:${'8'.repeat(64)}` } }));
    expectRejected(result, 'VERIFICATION_RECORD_INVALID', 'checker identity');
  });

  it('rejects a record from another checker ID, even if the result names that checker', async () => {
    expectRejected(
      await runWith((digest) => storeRecord(digest, { body: { checker_id: 'test.dual.checker' } }), 'test.dual.checker'),
      'VERIFICATION_RECORD_INVALID',
      'checker identity',
    );
  });

  it('rejects a result that names a checker other than the record', async () => {
    expectRejected(await runWith((digest) => storeRecord(digest), 'someone.else'), 'VERIFICATION_RECORD_INVALID', 'checker named in the result');
  });

  it('rejects a record that signs a weaker claim than the result states', async () => {
    const weaker = { claim: { kind: 'TEST_LOWER_BOUND', statement: 'the maximum is at least 6', value: { maximum: 6 } }, scope: { kind: 'EXACT_CLAIM' as const, statement: 'the maximum is at least 6' } };
    expectRejected(await runWith((digest) => storeRecord(digest, { body: weaker })), 'VERIFICATION_RECORD_INVALID', 'claim');
  });

  it('rejects a record for another capability', async () => {
    expectRejected(await runWith((digest) => storeRecord(digest, { body: { capability_id: 'test.dual' } })), 'VERIFICATION_RECORD_INVALID', 'capability');
  });

  it('rejects a record about a candidate the result does not list', async () => {
    expectRejected(
      await runWith((digest) => storeRecord(digest, { body: { candidate_uri: otherUri }, parents: [otherUri] })),
      'VERIFICATION_RECORD_INVALID',
      'candidate',
    );
  });

  it('rejects a record artifact whose lineage does not include the candidate', async () => {
    expectRejected(await runWith((digest) => storeRecord(digest, { parents: [otherUri] })), 'VERIFICATION_RECORD_INVALID', 'record lineage');
  });

  it('rejects an artifact that is not a verification record', async () => {
    expectRejected(await runWith((digest) => storeRecord(digest, { schemaUri: 'urn:test:not-a-record' })), 'VERIFICATION_RECORD_INVALID', 'is not a verification record');
  });

  it("says on the verification.check span whether the record was accepted, rejected, or could not be read", async () => {
    const telemetry = memoryTracing();
    try {
      const outcomes: unknown[] = [];
      for (const recordUri of [(digest: string) => storeRecord(digest), (digest: string) => storeRecord(digest, { key: forgerKey }), () => Promise.resolve(`artifact://sha256/${'9'.repeat(64)}`)]) {
        telemetry.exporter.reset();
        await runWith(recordUri);
        const checks = telemetry.exporter.getFinishedSpans().filter((span) => span.name === 'verification.check');
        expect(checks).toHaveLength(1);
        outcomes.push(checks[0]?.attributes['jacobian.verification']);
      }
      expect(outcomes).toEqual(['verified', 'rejected', 'unchecked']);
    } finally {
      await telemetry.close();
    }
  });

  it('leaves COMPUTED results from a checker alone (no record needed)', async () => {
    const { queue } = fakeQueue(computedResult);
    const result = await api(queue).run(VERIFY_REQUEST());
    expect(result.assurance.level).toBe('COMPUTED');
    expect(result.execution.status).toBe('COMPLETED');
  });
});

describe('readArtifact', () => {
  it('reads a stored artifact and rejects a malformed or unknown URI', async () => {
    const target = api(fakeQueue(computedResult).queue);
    expect((await target.readArtifact(candidateUri)).payload).toEqual({ maximum: 6 });
    await expect(target.readArtifact('artifact://sha256/xyz')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(target.readArtifact(`artifact://sha256/${'9'.repeat(64)}`)).rejects.toMatchObject({ code: 'ARTIFACT_NOT_FOUND' });
  });
});

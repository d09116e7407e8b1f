import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { JacobianError } from '../errors.js';
import {
  keyId,
  loadOrCreateSigningKey,
  loadPublicKey,
  loadSigningKey,
  signRecord,
  writeSigningKeyPair,
  verifyRecordSignature,
  type SigningKey,
  type VerificationRecord,
  type VerificationRecordBody,
} from './record.js';

const uri = (d: string): string => `artifact://sha256/${d.repeat(64)}`;

function signingKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, keyId: keyId(publicKey) };
}

const trusted = signingKey();
const stranger = signingKey();
const trust = (...keys: SigningKey[]): Map<string, KeyObject> => new Map(keys.map((k) => [k.keyId, k.publicKey]));

function body(): Omit<VerificationRecordBody, 'signer'> {
  return {
    verdict: 'ACCEPTED',
    capability_id: 'graph.induced_tree.maximum.verify',
    capability_version: '1.0.0',
    checker_id: 'jacobian.graph.induced_tree.maximum.exhaustive',
    checker_digest: `sha256:${'c'.repeat(64)}`,
    claim: { kind: 'MAXIMUM_INDUCED_TREE_ORDER', statement: 'the maximum is 6', value: { maximum: 6, witness: [0, 1, 2, 3, 4, 5] } },
    claim_semantics_uri: 'jacobian:semantics/graph.induced_tree.maximum/v1',
    candidate_uri: uri('a'),
    input_uris: [uri('b')],
    scope: { kind: 'EXACT_CLAIM', statement: 'the maximum is 6' },
    evidence_format: 'jacobian:evidence/x/v1',
    request_digest: `sha256:${'1'.repeat(64)}`,
    issued_at: '2025-01-02T03:04:05.678Z',
  };
}

function verifyError(value: unknown, keys: ReadonlyMap<string, KeyObject>): JacobianError {
  try {
    verifyRecordSignature(value, keys);
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    return error as JacobianError;
  }
  throw new Error('expected the record to be rejected');
}

const clone = (record: VerificationRecord): VerificationRecord => JSON.parse(JSON.stringify(record)) as VerificationRecord;

describe('keyId', () => {
  it('is the sha256 of the SPKI DER encoding of the public key', () => {
    const der = trusted.publicKey.export({ type: 'spki', format: 'der' });
    expect(trusted.keyId).toBe(createHash('sha256').update(der).digest('hex'));
    expect(trusted.keyId).not.toBe(stranger.keyId);
  });
});

describe('signRecord / verifyRecordSignature', () => {
  it('round-trips: a signed record verifies against its key, also after a JSON round trip', () => {
    const record = signRecord(body(), trusted);
    expect(record.body).toEqual({ ...body(), signer: { algorithm: 'ed25519', key_id: trusted.keyId } });
    expect(record.signature).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(record.signature, 'base64')).toHaveLength(64);
    expect(verifyRecordSignature(record, trust(trusted))).toEqual(record);
    expect(verifyRecordSignature(clone(record), trust(stranger, trusted))).toEqual(record);
  });

  it('signs the canonical body: key order in the stored JSON does not matter', () => {
    const record = signRecord(body(), trusted);
    const reversed = Object.fromEntries(Object.entries(record.body).reverse());
    expect(verifyRecordSignature({ signature: record.signature, body: reversed }, trust(trusted)).body).toEqual(record.body);
  });

  const tamper: [string, (b: VerificationRecordBody) => void][] = [
    ['capability_id', (b) => (b.capability_id = 'graph.other.verify')],
    ['capability_version', (b) => (b.capability_version = '1.0.1')],
    ['checker_id', (b) => (b.checker_id = 'another.checker')],
    ['checker_digest', (b) => (b.checker_digest = `sha256:${'d'.repeat(64)}`)],
    ['claim.kind', (b) => (b.claim.kind = 'OTHER')],
    ['claim.statement', (b) => (b.claim.statement = 'the maximum is 7')],
    ['claim.value', (b) => (b.claim.value['maximum'] = 7)],
    ['claim_semantics_uri', (b) => (b.claim_semantics_uri = 'jacobian:semantics/other/v1')],
    ['candidate_uri', (b) => (b.candidate_uri = uri('e'))],
    ['input_uris', (b) => b.input_uris.push(uri('f'))],
    ['scope.statement', (b) => (b.scope.statement = 'the maximum is 7')],
    ['evidence_format', (b) => (b.evidence_format = 'jacobian:evidence/y/v1')],
    ['request_digest', (b) => (b.request_digest = `sha256:${'2'.repeat(64)}`)],
    ['issued_at', (b) => (b.issued_at = '2025-01-02T03:04:06.678Z')],
  ];

  it.each(tamper)('rejects a record whose %s was changed after signing', (_field, mutate) => {
    const record = clone(signRecord(body(), trusted));
    mutate(record.body);
    const error = verifyError(record, trust(trusted));
    expect(error.code).toBe('VERIFICATION_RECORD_INVALID');
    expect(error.message).toBe('verification record signature does not verify');
  });

  it('covers every body field with a tampering case', () => {
    const fields = new Set(tamper.map(([field]) => field.split('.')[0]));
    const expected = Object.keys(signRecord(body(), trusted).body).filter((k) => k !== 'verdict' && k !== 'signer');
    expect([...fields].sort()).toEqual(expected.sort());
  });

  it('rejects a changed verdict or an extra field as malformed', () => {
    const rejected = clone(signRecord(body(), trusted));
    (rejected.body as unknown as { verdict: string }).verdict = 'REJECTED';
    expect(verifyError(rejected, trust(trusted))).toMatchObject({ code: 'VERIFICATION_RECORD_INVALID', message: 'verification record is malformed at body.verdict' });
    const extra = { ...clone(signRecord(body(), trusted)), note: 'x' };
    expect(verifyError(extra, trust(trusted)).code).toBe('VERIFICATION_RECORD_INVALID');
    expect(verifyError(null, trust(trusted)).code).toBe('VERIFICATION_RECORD_INVALID');
  });

  it('rejects a tampered signature', () => {
    const record = clone(signRecord(body(), trusted));
    const bytes = Buffer.from(record.signature, 'base64');
    bytes[10] = (bytes[10] as number) ^ 0x01;
    record.signature = bytes.toString('base64');
    expect(verifyError(record, trust(trusted)).message).toBe('verification record signature does not verify');
    expect(verifyError({ ...record, signature: 'not base64!' }, trust(trusted)).message).toContain('malformed');
  });

  it('rejects a record signed by an untrusted key', () => {
    const record = signRecord(body(), stranger);
    const error = verifyError(record, trust(trusted));
    expect(error.code).toBe('VERIFICATION_RECORD_INVALID');
    expect(error.message).toBe(`verification record is signed by key ${stranger.keyId}, which is not trusted`);
    expect(verifyError(record, new Map()).code).toBe('VERIFICATION_RECORD_INVALID');
  });

  it('rejects a record that claims a trusted key ID but was signed by another key', () => {
    const impostor: SigningKey = { privateKey: stranger.privateKey, publicKey: stranger.publicKey, keyId: trusted.keyId };
    const forged = signRecord(body(), impostor);
    expect(forged.body.signer.key_id).toBe(trusted.keyId);
    expect(verifyError(forged, trust(trusted)).message).toBe('verification record signature does not verify');
  });

  it('refuses to sign a malformed body', () => {
    expect(() => signRecord({ ...body(), candidate_uri: 'artifact://sha256/short' }, trusted)).toThrow();
    expect(() => signRecord({ ...body(), issued_at: 'yesterday' }, trusted)).toThrow();
  });
});

describe('loadOrCreateSigningKey', () => {
  const roots: string[] = [];
  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'jacobian-keys-'));
    roots.push(dir);
    return dir;
  }
  afterAll(async () => {
    await Promise.all(roots.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('creates an ed25519 PEM key with mode 0600 (and its missing folders), then reloads the same key', async () => {
    const file = path.join(await tempDir(), 'nested', 'keys', 'checker.pem');
    const created = await loadOrCreateSigningKey(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const pem = await readFile(file, 'utf8');
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(created.privateKey.asymmetricKeyType).toBe('ed25519');
    expect(created.keyId).toBe(keyId(createPublicKey(pem)));
    const reloaded = await loadOrCreateSigningKey(file);
    expect(reloaded.keyId).toBe(created.keyId);
    // The reloaded key verifies what the first one signed.
    expect(verifyRecordSignature(signRecord(body(), created), trust(reloaded)).body.signer.key_id).toBe(created.keyId);
    expect(await readFile(file, 'utf8')).toBe(pem);
  });

  it('gives two concurrent first uses one key', async () => {
    const file = path.join(await tempDir(), 'k.pem');
    const [a, b] = await Promise.all([loadOrCreateSigningKey(file), loadOrCreateSigningKey(file)]);
    expect(a.keyId).toBe(b.keyId);
    expect((await loadOrCreateSigningKey(file)).keyId).toBe(a.keyId);
  });

  it.each([
    ['an EC P-256 key', 'ec', 'must be ed25519, found ec'],
    ['an X25519 key', 'x25519', 'must be ed25519, found x25519'],
  ] as const)('rejects %s with CONFIG_INVALID', async (_name, type, message) => {
    const file = path.join(await tempDir(), 'k.pem');
    const pair = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' }) : generateKeyPairSync('x25519');
    await writeFile(file, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), { mode: 0o600 });
    await expect(loadOrCreateSigningKey(file)).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining(message) as unknown });
  });

  it('rejects a file that is not a PEM private key with CONFIG_INVALID', async () => {
    const file = path.join(await tempDir(), 'k.pem');
    await writeFile(file, 'hello\n');
    await expect(loadOrCreateSigningKey(file)).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('is not a PEM private key') as unknown });
  });
});

describe('cluster key files', () => {
  it('keygen writes a pair the checker and the API load, and refuses to overwrite', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'jacobian-keygen-'));
    try {
      const id = await writeSigningKeyPair(path.join(dir, 'k.pem'), path.join(dir, 'k.pub.pem'));
      expect((await stat(path.join(dir, 'k.pem'))).mode & 0o777).toBe(0o600);
      const signing = await loadSigningKey(path.join(dir, 'k.pem'));
      expect(signing.keyId).toBe(id);
      expect(keyId(await loadPublicKey(path.join(dir, 'k.pub.pem')))).toBe(id);
      await expect(writeSigningKeyPair(path.join(dir, 'k.pem'), path.join(dir, 'other.pub.pem'))).rejects.toMatchObject({ code: 'EEXIST' });
      await expect(loadSigningKey(path.join(dir, 'missing.pem'))).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
      await expect(loadPublicKey(path.join(dir, 'k.pem'))).resolves.toBeDefined();
      await expect(loadPublicKey(path.join(dir, 'missing.pub.pem'))).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

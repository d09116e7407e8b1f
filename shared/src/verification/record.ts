import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { canonicalBytes, sha256Hex } from '../canonical-json.js';
import { JacobianError } from '../errors.js';

export const VERIFICATION_RECORD_SCHEMA_URI = 'jacobian:schema/verification.record/v1';
export const VERIFICATION_RECORD_SEMANTICS_URI = 'jacobian:semantics/verification.record.ed25519/v1';

const ArtifactUri = z.string().regex(/^artifact:\/\/sha256\/[0-9a-f]{64}$/);

/** The statement a checker signs: what it checked, with which code, against which evidence. */
export const VerificationRecordBodySchema = z
  .object({
    verdict: z.literal('ACCEPTED'),
    capability_id: z.string(),
    capability_version: z.string(),
    checker_id: z.string(),
    checker_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    claim: z.object({ kind: z.string(), statement: z.string(), value: z.record(z.string(), z.unknown()) }).strict(),
    claim_semantics_uri: z.string(),
    candidate_uri: ArtifactUri,
    input_uris: z.array(ArtifactUri),
    scope: z.object({ kind: z.literal('EXACT_CLAIM'), statement: z.string() }).strict(),
    evidence_format: z.string(),
    request_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    issued_at: z.iso.datetime(),
    signer: z.object({ algorithm: z.literal('ed25519'), key_id: z.string().regex(/^[0-9a-f]{64}$/) }).strict(),
  })
  .strict();
export type VerificationRecordBody = z.infer<typeof VerificationRecordBodySchema>;

export const VerificationRecordSchema = z
  .object({ body: VerificationRecordBodySchema, signature: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/) })
  .strict();
export type VerificationRecord = z.infer<typeof VerificationRecordSchema>;

/** sha256 (hex) of the key's SPKI DER encoding: the key's stable identity. */
export function keyId(publicKey: KeyObject): string {
  return sha256Hex(new Uint8Array(publicKey.export({ type: 'spki', format: 'der' })));
}

export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly keyId: string;
}

/**
 * The checker service's signing key, kept at `path` (PEM, mode 0600) and created on first use.
 * Only the checker role holds it; other roles get the public key.
 */
export async function loadOrCreateSigningKey(path: string): Promise<SigningKey> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const { privateKey } = generateKeyPairSync('ed25519');
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    // Written whole under a temporary name, then linked to `path`, which fails if it exists: a
    // process starting beside this one (or after one that died here) reads a whole key or none.
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, pem, { mode: 0o600, flag: 'wx' });
      await link(temporary, path);
    } catch (writeError) {
      // Another process created it first: use theirs so both sign with one key.
      if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
      pem = await readFile(path, 'utf8');
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw new JacobianError('CONFIG_INVALID', `checker signing key at ${path} is not a PEM private key`, { cause: error });
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new JacobianError('CONFIG_INVALID', `checker signing key at ${path} must be ed25519, found ${privateKey.asymmetricKeyType ?? 'unknown'}`);
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyId(publicKey) };
}

/**
 * Load an existing signing key (the cluster checker's): unlike the embedded default, a
 * missing key is a configuration error, never silently replaced by a new identity.
 */
export async function loadSigningKey(path: string): Promise<SigningKey> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (error) {
    throw new JacobianError('CONFIG_INVALID', `checker signing key ${path} cannot be read: ${(error as Error).message}`, {
      cause: error,
      hint: 'create one with `jacobian keygen --out DIR` and give the public half to the API',
    });
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw new JacobianError('CONFIG_INVALID', `checker signing key ${path} is not a PEM private key`, { cause: error });
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new JacobianError('CONFIG_INVALID', `checker signing key ${path} must be ed25519, found ${privateKey.asymmetricKeyType ?? 'unknown'}`);
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyId(publicKey) };
}

/** Load a checker's public key (PEM, SPKI) that an API trusts for verification records. */
export async function loadPublicKey(path: string): Promise<KeyObject> {
  let key: KeyObject;
  try {
    key = createPublicKey(await readFile(path, 'utf8'));
  } catch (error) {
    throw new JacobianError('CONFIG_INVALID', `checker public key ${path} cannot be read as a PEM public key: ${(error as Error).message}`, { cause: error });
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new JacobianError('CONFIG_INVALID', `checker public key ${path} must be ed25519, found ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  return key;
}

/** Write a new Ed25519 key pair: the private half with mode 0600, never over an existing file. */
export async function writeSigningKeyPair(privatePath: string, publicPath: string): Promise<string> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  await mkdir(dirname(privatePath), { recursive: true, mode: 0o700 });
  await writeFile(privatePath, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), { mode: 0o600, flag: 'wx' });
  await mkdir(dirname(publicPath), { recursive: true });
  await writeFile(publicPath, publicKey.export({ type: 'spki', format: 'pem' }).toString(), { flag: 'wx' });
  return keyId(publicKey);
}

export function signRecord(body: Omit<VerificationRecordBody, 'signer'>, key: SigningKey): VerificationRecord {
  const full: VerificationRecordBody = VerificationRecordBodySchema.parse({
    ...body,
    signer: { algorithm: 'ed25519', key_id: key.keyId },
  });
  const signature = sign(null, canonicalBytes(full), key.privateKey).toString('base64');
  return { body: full, signature };
}

/**
 * Check a record's shape and signature against the trusted keys. Returns the parsed record
 * or throws VERIFICATION_RECORD_INVALID saying which check failed.
 */
export function verifyRecordSignature(value: unknown, trustedKeys: ReadonlyMap<string, KeyObject>): VerificationRecord {
  const parsed = VerificationRecordSchema.safeParse(value);
  if (!parsed.success) {
    throw new JacobianError('VERIFICATION_RECORD_INVALID', `verification record is malformed at ${parsed.error.issues[0]?.path.join('.') ?? '?'}`);
  }
  const record = parsed.data;
  const key = trustedKeys.get(record.body.signer.key_id);
  if (key === undefined) {
    throw new JacobianError('VERIFICATION_RECORD_INVALID', `verification record is signed by key ${record.body.signer.key_id}, which is not trusted`);
  }
  const ok = verify(null, canonicalBytes(record.body), key, Buffer.from(record.signature, 'base64'));
  if (!ok) throw new JacobianError('VERIFICATION_RECORD_INVALID', 'verification record signature does not verify');
  return record;
}

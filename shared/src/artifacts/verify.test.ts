import { describe, expect, it, vi } from 'vitest';

import { sha256Hex } from '../canonical-json.js';
import { JacobianError } from '../errors.js';
import type { ArtifactDraft } from './manifest.js';
import { DEFAULT_ARTIFACT_STORE_LIMITS, prepareArtifact, type StoredArtifact } from './store.js';
import {
  compareExisting,
  readVerifiedManifest,
  readVerifiedPayload,
  verifyManifestRead,
  verifyParents,
  verifyPayloadRead,
  type BoundedRead,
} from './verify.js';

const limits = DEFAULT_ARTIFACT_STORE_LIMITS;
const draft: ArtifactDraft = {
  schema_uri: 'https://jacobian.dev/schemas/verify-test/v1',
  semantics_uri: 'https://jacobian.dev/semantics/verify-test',
  payload: { answer: 42 },
};
const prepared = prepareArtifact(draft, limits);
const stored: StoredArtifact = { uri: prepared.uri, manifest: prepared.manifest };
const MISSING_URI = `artifact://sha256/${'0'.repeat(64)}`;

const read = (bytes: Uint8Array | string): BoundedRead => ({
  kind: 'read',
  bytes: typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes,
});

function thrown(fn: () => unknown): JacobianError {
  try {
    fn();
  } catch (error) {
    if (error instanceof JacobianError) return error;
    throw error;
  }
  throw new Error('expected a JacobianError');
}

async function rejection(promise: Promise<unknown>): Promise<JacobianError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof JacobianError) return error;
    throw error;
  }
  throw new Error('expected a JacobianError');
}

describe('compareExisting', () => {
  const { payloadBytes, payloadDigest } = prepared;
  it('tells absent, matching and mismatching copies apart', () => {
    expect(compareExisting({ kind: 'missing' }, payloadDigest, payloadBytes.byteLength)).toBe('absent');
    expect(compareExisting(read(payloadBytes), payloadDigest, payloadBytes.byteLength)).toBe('match');
    expect(compareExisting({ kind: 'too-large' }, payloadDigest, payloadBytes.byteLength)).toBe('mismatch');
    const flipped = Uint8Array.from(payloadBytes);
    flipped[0] = flipped[0]! ^ 0x01;
    expect(compareExisting(read(flipped), payloadDigest, payloadBytes.byteLength)).toBe('mismatch');
    expect(compareExisting(read(payloadBytes.subarray(1)), payloadDigest, payloadBytes.byteLength)).toBe('mismatch');
  });
});

describe('verifyManifestRead', () => {
  const digest = prepared.manifestDigest;
  const verify = (r: BoundedRead): StoredArtifact => verifyManifestRead(r, prepared.uri, digest, ['uri'], 2048);

  it('returns the parsed manifest of bytes that hash to the URI', () => {
    expect(verify(read(prepared.manifestBytes))).toEqual(stored);
  });

  it('reports a missing manifest as ARTIFACT_NOT_FOUND at the given path', () => {
    const error = thrown(() => verifyManifestRead({ kind: 'missing' }, prepared.uri, digest, ['parents', 3], 2048));
    expect(error.code).toBe('ARTIFACT_NOT_FOUND');
    expect(error.path).toEqual(['parents', 3]);
    expect(error.message).toContain('parents[3]');
  });

  it('reports an oversized manifest with its size when known, else as over the limit', () => {
    const sized = thrown(() => verify({ kind: 'too-large', size: 5000 }));
    expect(sized.code).toBe('ARTIFACT_INTEGRITY');
    expect(sized.message).toContain('is 5000 bytes, more than');
    const unsized = thrown(() => verify({ kind: 'too-large' }));
    expect(unsized.code).toBe('ARTIFACT_INTEGRITY');
    expect(unsized.message).toMatch(/is over 2048 bytes .*maxManifestBytes/);
  });

  it('rejects bytes that do not hash to the URI, and hashing bytes that are no manifest', () => {
    const wrong = thrown(() => verify(read('{}')));
    expect(wrong.code).toBe('ARTIFACT_INTEGRITY');
    expect(wrong.message).toMatch(/hashes to sha256/);
    for (const text of ['not json', '{"payload_digest":"x"}']) {
      const bytes = new TextEncoder().encode(text);
      const invalid = thrown(() => verifyManifestRead(read(bytes), prepared.uri, sha256Hex(bytes), ['uri'], 2048));
      expect(invalid.code).toBe('ARTIFACT_INTEGRITY');
      expect(invalid.message).toMatch(/not a valid artifact manifest/);
    }
  });
});

describe('verifyPayloadRead', () => {
  it('returns the parsed payload of bytes matching the manifest', () => {
    expect(verifyPayloadRead(read(prepared.payloadBytes), stored)).toEqual({ answer: 42 });
  });

  it('reports missing, oversized and mismatching payloads as ARTIFACT_INTEGRITY', () => {
    const size = prepared.manifest.payload_bytes;
    const missing = thrown(() => verifyPayloadRead({ kind: 'missing' }, stored));
    expect(missing.message).toMatch(/missing/);
    const sized = thrown(() => verifyPayloadRead({ kind: 'too-large', size: size + 1 }, stored));
    expect(sized.message).toContain(`is ${size + 1} bytes; it must be manifest.payload_bytes = ${size}`);
    const unsized = thrown(() => verifyPayloadRead({ kind: 'too-large' }, stored));
    expect(unsized.message).toMatch(/payload .* is over \d+ bytes/);
    const mismatch = thrown(() => verifyPayloadRead(read('{"answer":41}'), stored));
    expect(mismatch.message).toMatch(/payload_digest\/payload_bytes/);
    for (const error of [missing, sized, unsized, mismatch]) {
      expect(error.code).toBe('ARTIFACT_INTEGRITY');
      expect(error.path).toEqual(['uri']);
    }
  });
});

describe('readVerifiedManifest and readVerifiedPayload', () => {
  it('read by digest with the right bound', async () => {
    const reader = vi.fn((_hex: string, _max: number) => Promise.resolve(read(prepared.manifestBytes)));
    expect(await readVerifiedManifest(prepared.uri, ['uri'], limits, reader)).toEqual(stored);
    expect(reader).toHaveBeenCalledWith(prepared.manifestDigest, limits.maxManifestBytes);

    const payloadReader = vi.fn((_hex: string, _max: number) => Promise.resolve(read(prepared.payloadBytes)));
    expect(await readVerifiedPayload(stored, limits, payloadReader)).toEqual({ answer: 42 });
    expect(payloadReader).toHaveBeenCalledWith(prepared.payloadDigest, prepared.manifest.payload_bytes);
  });

  it('reject a malformed URI and an over-limit payload without reading', async () => {
    const reader = vi.fn(() => Promise.resolve<BoundedRead>({ kind: 'missing' }));
    expect((await rejection(readVerifiedManifest('nope', ['parents', 0], limits, reader))).path).toEqual(['parents', 0]);
    const small = { ...limits, maxPayloadBytes: prepared.manifest.payload_bytes - 1 };
    const error = await rejection(readVerifiedPayload(stored, small, reader));
    expect(error.code).toBe('SIZE_LIMIT_EXCEEDED');
    expect(reader).not.toHaveBeenCalled();
  });
});

describe('verifyParents', () => {
  const found = (uri: string): Promise<StoredArtifact> => Promise.resolve({ uri, manifest: prepared.manifest });

  it('checks every parent in order', async () => {
    const readManifest = vi.fn(found);
    await verifyParents([prepared.uri, MISSING_URI], readManifest, undefined);
    expect(readManifest.mock.calls).toEqual([
      [prepared.uri, ['parents', 0]],
      [MISSING_URI, ['parents', 1]],
    ]);
  });

  it('turns a missing parent into the put-specific ARTIFACT_NOT_FOUND and passes other errors through', async () => {
    const notFound = await rejection(
      verifyParents([prepared.uri, MISSING_URI], (uri, uriPath) =>
        uri === MISSING_URI ? Promise.reject(new JacobianError('ARTIFACT_NOT_FOUND', 'gone', { path: uriPath })) : found(uri),
      undefined,
      ),
    );
    expect(notFound.code).toBe('ARTIFACT_NOT_FOUND');
    expect(notFound.path).toEqual(['parents', 1]);
    expect(notFound.message).toContain('parents must be stored before their children');
    expect(notFound.data).toEqual({ uri: MISSING_URI });

    const corrupt = new JacobianError('ARTIFACT_INTEGRITY', 'bad', { path: ['parents', 0] });
    expect(await rejection(verifyParents([prepared.uri], () => Promise.reject(corrupt), undefined))).toBe(corrupt);
  });

  it('stops before reading when the signal is aborted', async () => {
    const readManifest = vi.fn(found);
    const error = await rejection(verifyParents([prepared.uri], readManifest, AbortSignal.abort()));
    expect(error.code).toBe('EXECUTION_CANCELLED');
    expect(readManifest).not.toHaveBeenCalled();
  });
});

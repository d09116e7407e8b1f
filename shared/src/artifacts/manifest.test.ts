import { describe, expect, it } from 'vitest';

import { canonicalize, sha256Hex } from '../canonical-json.js';
import { JacobianError } from '../errors.js';
import {
  ARTIFACT_URI_PATTERN,
  ArtifactDraftSchema,
  ArtifactManifestSchema,
  ArtifactUriSchema,
  artifactUriOf,
  parseArtifactUri,
  type ArtifactManifest,
} from './manifest.js';
import { DEFAULT_ARTIFACT_STORE_LIMITS, prepareArtifact, resolveArtifactStoreLimits } from './store.js';

const hex = (c: string): string => c.repeat(64);
const uri = (c: string): string => `artifact://sha256/${hex(c)}`;

const manifest: ArtifactManifest = {
  schema_uri: 'https://jacobian.dev/schemas/x',
  semantics_uri: 'https://jacobian.dev/semantics/x',
  payload_digest: `sha256:${hex('a')}`,
  payload_bytes: 12,
  parents: [uri('b'), uri('c')],
  summary: { n: 1, tags: ['a'] },
};

function thrown(fn: () => unknown): JacobianError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    return error as JacobianError;
  }
  throw new Error('expected a JacobianError');
}

describe('ArtifactManifestSchema', () => {
  it('accepts a valid manifest unchanged', () => {
    expect(ArtifactManifestSchema.parse(manifest)).toEqual(manifest);
  });

  it.each([
    ['unknown field', { ...manifest, extra: 1 }, []],
    ['empty schema_uri', { ...manifest, schema_uri: '' }, ['schema_uri']],
    ['long semantics_uri', { ...manifest, semantics_uri: 'x'.repeat(513) }, ['semantics_uri']],
    ['uppercase digest', { ...manifest, payload_digest: `sha256:${hex('A')}` }, ['payload_digest']],
    ['digest without prefix', { ...manifest, payload_digest: hex('a') }, ['payload_digest']],
    ['negative payload_bytes', { ...manifest, payload_bytes: -1 }, ['payload_bytes']],
    ['fractional payload_bytes', { ...manifest, payload_bytes: 1.5 }, ['payload_bytes']],
    ['bad parent', { ...manifest, parents: ['artifact://sha256/xyz'] }, ['parents', 0]],
    ['duplicate parent', { ...manifest, parents: [uri('b'), uri('b')] }, ['parents', 1]],
    ['65 parents', { ...manifest, parents: Array.from({ length: 65 }, (_, i) => `artifact://sha256/${i.toString(16).padStart(64, '0')}`) }, ['parents']],
    ['array summary', { ...manifest, summary: [] }, ['summary']],
    ['float in summary', { ...manifest, summary: { r: 0.5 } }, ['summary', 'r']],
    ['summary over 4096 bytes', { ...manifest, summary: { s: 'x'.repeat(4096) } }, ['summary', 's']],
    ['summary one byte over 4096', { ...manifest, summary: { s: 'x'.repeat(4096 - 7) } }, ['summary']],
  ])('rejects %s at the right path', (_label, value, path) => {
    const result = ArtifactManifestSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });

  it('accepts a summary of exactly 4096 canonical bytes', () => {
    const summary = { s: 'x'.repeat(4096 - 8) };
    expect(canonicalize(summary)).toHaveLength(4096);
    expect(ArtifactManifestSchema.safeParse({ ...manifest, summary }).success).toBe(true);
  });
});

describe('artifact URIs', () => {
  it('artifactUriOf hashes the canonical manifest, independent of key order', () => {
    const expected = `artifact://sha256/${sha256Hex(canonicalize(manifest))}`;
    expect(artifactUriOf(manifest)).toBe(expected);
    const reversed = Object.fromEntries(Object.entries(manifest).reverse()) as ArtifactManifest;
    expect(artifactUriOf(reversed)).toBe(expected);
    expect(artifactUriOf(manifest)).toMatch(ARTIFACT_URI_PATTERN);
  });

  it('parseArtifactUri returns the digest and rejects malformed URIs', () => {
    expect(parseArtifactUri(uri('e'))).toEqual({ digest: hex('e') });
    for (const bad of ['', uri('E'), `${uri('e')}x`, 'artifact://sha256/', `sha256:${hex('e')}`, 42]) {
      const error = thrown(() => parseArtifactUri(bad));
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.path).toEqual(['uri']);
      expect(error.message).toMatch(/artifact:\/\/sha256\//);
    }
    expect(thrown(() => parseArtifactUri('x', ['parents', 2])).message).toContain('parents[2]');
  });

  it('ArtifactUriSchema matches the pattern', () => {
    expect(ArtifactUriSchema.safeParse(uri('0')).success).toBe(true);
    expect(ArtifactUriSchema.safeParse(uri('g')).success).toBe(false);
  });
});

describe('prepareArtifact', () => {
  const draft = {
    schema_uri: 'https://jacobian.dev/schemas/x',
    semantics_uri: 'https://jacobian.dev/semantics/x',
    payload: { z: 1, a: ['caf\u0065\u0301'] },
  };

  it('computes canonical bytes, digests, manifest and URI', () => {
    const prepared = prepareArtifact(draft, DEFAULT_ARTIFACT_STORE_LIMITS);
    const payloadText = '{"a":["caf\u00e9"],"z":1}';
    expect(new TextDecoder().decode(prepared.payloadBytes)).toBe(payloadText);
    expect(prepared.payloadDigest).toBe(sha256Hex(payloadText));
    expect(prepared.manifest).toEqual({
      schema_uri: draft.schema_uri,
      semantics_uri: draft.semantics_uri,
      payload_digest: `sha256:${sha256Hex(payloadText)}`,
      payload_bytes: Buffer.byteLength(payloadText),
      parents: [],
      summary: {},
    });
    expect(new TextDecoder().decode(prepared.manifestBytes)).toBe(canonicalize(prepared.manifest));
    expect(prepared.manifestDigest).toBe(sha256Hex(prepared.manifestBytes));
    expect(prepared.uri).toBe(artifactUriOf(prepared.manifest));
  });

  it('reports limit violations with the limit name', () => {
    const payload = thrown(() => prepareArtifact(draft, { maxPayloadBytes: 10, maxManifestBytes: 1000 }));
    expect(payload.code).toBe('SIZE_LIMIT_EXCEEDED');
    expect(payload.path).toEqual(['payload']);
    expect(payload.message).toMatch(/maxPayloadBytes/);
    const manifestError = thrown(() => prepareArtifact(draft, { maxPayloadBytes: 1000, maxManifestBytes: 100 }));
    expect(manifestError.code).toBe('SIZE_LIMIT_EXCEEDED');
    expect(manifestError.message).toMatch(/maxManifestBytes/);
  });

  it('keeps the depth error of a too deeply nested payload', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    const error = thrown(() => prepareArtifact({ ...draft, payload: deep as never }, DEFAULT_ARTIFACT_STORE_LIMITS));
    expect(error.code).toBe('SIZE_LIMIT_EXCEEDED');
    expect(error.message).toMatch(/maxDepth/);
    expect(error.path?.[0]).toBe('payload');
  });

  it('rejects a draft whose URI grows past 512 characters under NFC', () => {
    // U+FB33 is one code unit but two after NFC.
    const error = thrown(() =>
      prepareArtifact({ ...draft, schema_uri: `${'x'.repeat(511)}\ufb33` }, DEFAULT_ARTIFACT_STORE_LIMITS),
    );
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.path).toEqual(['schema_uri']);
  });

  it('maps draft issues to errors naming the field', () => {
    const unknown = thrown(() => prepareArtifact({ ...draft, extra: true } as never, DEFAULT_ARTIFACT_STORE_LIMITS));
    expect(unknown.path).toEqual(['extra']);
    expect(unknown.message).toContain('extra');
    const notObject = thrown(() => prepareArtifact('nope' as never, DEFAULT_ARTIFACT_STORE_LIMITS));
    expect(notObject.code).toBe('INVALID_REQUEST');
    expect(ArtifactDraftSchema.safeParse(draft).success).toBe(true);
  });

  it('resolveArtifactStoreLimits fills defaults and validates', () => {
    expect(resolveArtifactStoreLimits()).toEqual(DEFAULT_ARTIFACT_STORE_LIMITS);
    expect(thrown(() => resolveArtifactStoreLimits({ maxManifestBytes: -5 })).code).toBe('CONFIG_INVALID');
  });
});

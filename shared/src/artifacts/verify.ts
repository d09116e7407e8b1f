import { formatJsonPath, sha256Hex, type JsonValue } from '../canonical-json.js';
import { JacobianError, type JsonPath } from '../errors.js';
import { ArtifactManifestSchema, parseArtifactUri, type ArtifactManifest } from './manifest.js';
import { throwIfAborted, type ArtifactStoreLimits, type StoredArtifact } from './store.js';

/*
 * The verification every artifact store adapter does on what it reads back, shared so the
 * adapters differ only in their I/O. Nothing here touches storage: the adapters pass in the
 * bytes they read, or a callback that reads them (and maps its own I/O failures).
 */

/**
 * The outcome of reading one stored object with an upper bound on its size.
 *
 * `too-large.size` is the object's exact size when the adapter knows it (the local store
 * fstats the file). An adapter that only learns the object is over the bound (S3 stops a
 * streamed read right after it) leaves `size` out, and the error then says "over" the bound.
 */
export type BoundedRead =
  | { kind: 'missing' }
  | { kind: 'too-large'; size?: number }
  | { kind: 'read'; bytes: Uint8Array };

/** Reads an object of at most `maxBytes` (the caller maps its own I/O failures). */
export type BoundedReader = (hex: string, maxBytes: number) => Promise<BoundedRead>;

/** Decode as `Buffer#toString('utf8')` does (TextDecoder would silently drop a leading BOM). */
function utf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** How an existing object compares with the bytes a put wants it to hold. */
export type ExistingCopy = 'absent' | 'match' | 'mismatch';

/**
 * Compare what was read back at a key with the `size` bytes hashing to `hex` that a put
 * wants there; read it with `maxBytes = size`. The put is a no-op on `match`, and on
 * `mismatch` (corruption) it overwrites, which is safe because a key has one correct content.
 */
export function compareExisting(existing: BoundedRead, hex: string, size: number): ExistingCopy {
  if (existing.kind === 'missing') return 'absent';
  if (existing.kind === 'too-large') return 'mismatch';
  return existing.bytes.byteLength === size && sha256Hex(existing.bytes) === hex ? 'match' : 'mismatch';
}

/**
 * Check bytes read back for the manifest named by `uri` (whose digest is `digest`): present,
 * within `maxManifestBytes`, hashing to the digest, and a valid manifest.
 *
 * @throws JacobianError `ARTIFACT_NOT_FOUND` if missing, `ARTIFACT_INTEGRITY` otherwise;
 *   both at `uriPath`.
 */
export function verifyManifestRead(
  read: BoundedRead,
  uri: string,
  digest: string,
  uriPath: JsonPath,
  maxManifestBytes: number,
): StoredArtifact {
  if (read.kind === 'missing') {
    throw new JacobianError('ARTIFACT_NOT_FOUND', `${formatJsonPath(uriPath)}: no artifact ${uri} in this store (it must be put first)`, {
      path: uriPath,
      data: { uri },
    });
  }
  if (read.kind === 'too-large') {
    const message =
      read.size === undefined
        ? `stored manifest of ${uri} is over ${maxManifestBytes} bytes (this store's limits.maxManifestBytes), which no manifest it wrote can be`
        : `stored manifest of ${uri} is ${read.size} bytes, more than this store's limits.maxManifestBytes of ${maxManifestBytes}, which no manifest it wrote can be`;
    throw new JacobianError('ARTIFACT_INTEGRITY', message, { path: uriPath, data: { uri } });
  }
  const bytes = read.bytes;
  const actual = sha256Hex(bytes);
  if (actual !== digest) {
    throw new JacobianError(
      'ARTIFACT_INTEGRITY',
      `stored manifest of ${uri} hashes to sha256 ${actual}; a manifest must hash to the digest in its URI`,
      { path: uriPath, data: { uri, actual } },
    );
  }
  let manifest: ArtifactManifest;
  try {
    const parsed = ArtifactManifestSchema.safeParse(JSON.parse(utf8(bytes)));
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'schema mismatch');
    manifest = parsed.data;
  } catch (error) {
    // The bytes hash correctly, so whatever wrote them was not this code.
    throw new JacobianError(
      'ARTIFACT_INTEGRITY',
      `stored manifest of ${uri} is not a valid artifact manifest: ${error instanceof Error ? error.message : String(error)}`,
      { path: uriPath, data: { uri }, cause: error },
    );
  }
  return { uri, manifest };
}

/**
 * Check payload bytes read back for `stored`: present, exactly `manifest.payload_bytes` long,
 * hashing to `manifest.payload_digest`, and JSON. Errors are at `['uri']`.
 *
 * @throws JacobianError `ARTIFACT_INTEGRITY`.
 */
export function verifyPayloadRead(read: BoundedRead, stored: StoredArtifact): JsonValue {
  const { uri, manifest } = stored;
  if (read.kind === 'missing') {
    throw new JacobianError(
      'ARTIFACT_INTEGRITY',
      `payload blob of ${uri} is missing although its manifest is stored; a stored manifest must have its payload`,
      { path: ['uri'], data: { uri } },
    );
  }
  if (read.kind === 'too-large') {
    const message =
      read.size === undefined
        ? `stored payload of ${uri} is over ${manifest.payload_bytes} bytes; it must be exactly manifest.payload_bytes`
        : `stored payload of ${uri} is ${read.size} bytes; it must be manifest.payload_bytes = ${manifest.payload_bytes}`;
    throw new JacobianError('ARTIFACT_INTEGRITY', message, { path: ['uri'], data: { uri } });
  }
  const bytes = read.bytes;
  const actual = sha256Hex(bytes);
  if (bytes.byteLength !== manifest.payload_bytes || `sha256:${actual}` !== manifest.payload_digest) {
    throw new JacobianError(
      'ARTIFACT_INTEGRITY',
      `stored payload of ${uri} (${bytes.byteLength} bytes, sha256 ${actual}) does not match manifest.payload_digest/payload_bytes`,
      { path: ['uri'], data: { uri, actual } },
    );
  }
  try {
    return JSON.parse(utf8(bytes)) as JsonValue;
  } catch (error) {
    throw new JacobianError('ARTIFACT_INTEGRITY', `stored payload of ${uri} hashes correctly but is not JSON`, {
      path: ['uri'],
      data: { uri },
      cause: error,
    });
  }
}

/**
 * Read and verify the manifest named by `uri`: parse the URI (`INVALID_REQUEST` at `uriPath`),
 * read its manifest with `read(digest, limits.maxManifestBytes)`, then {@link verifyManifestRead}.
 */
export async function readVerifiedManifest(
  uri: string,
  uriPath: JsonPath,
  limits: ArtifactStoreLimits,
  read: BoundedReader,
): Promise<StoredArtifact> {
  const { digest } = parseArtifactUri(uri, uriPath);
  return verifyManifestRead(await read(digest, limits.maxManifestBytes), uri, digest, uriPath, limits.maxManifestBytes);
}

/**
 * Read and verify the payload of `stored`. A payload declared larger than
 * `limits.maxPayloadBytes` is refused (`SIZE_LIMIT_EXCEEDED`) before reading; otherwise it is
 * read with `read(payload hex, manifest.payload_bytes)`, so an object longer than declared is
 * never read whole, then {@link verifyPayloadRead}.
 */
export async function readVerifiedPayload(
  stored: StoredArtifact,
  limits: ArtifactStoreLimits,
  read: BoundedReader,
): Promise<JsonValue> {
  const { uri, manifest } = stored;
  if (manifest.payload_bytes > limits.maxPayloadBytes) {
    throw new JacobianError(
      'SIZE_LIMIT_EXCEEDED',
      `payload of ${uri} is ${manifest.payload_bytes} bytes, more than this store's limits.maxPayloadBytes of ${limits.maxPayloadBytes}`,
      { path: ['uri'], data: { uri, maxPayloadBytes: limits.maxPayloadBytes } },
    );
  }
  const hex = manifest.payload_digest.slice('sha256:'.length);
  return verifyPayloadRead(await read(hex, manifest.payload_bytes), stored);
}

/**
 * Before a put writes anything, read and verify every parent, in order, with `readManifest`
 * (the adapter's manifest read at `['parents', index]`), checking `signal` before each.
 *
 * @throws JacobianError `ARTIFACT_NOT_FOUND` at `['parents', index]` naming the missing parent;
 *   any other error from `readManifest` (e.g. `ARTIFACT_INTEGRITY`) as it is.
 */
export async function verifyParents(
  parents: readonly string[],
  readManifest: (uri: string, uriPath: JsonPath) => Promise<StoredArtifact>,
  signal: AbortSignal | undefined,
): Promise<void> {
  for (const [index, parent] of parents.entries()) {
    throwIfAborted(signal, 'put', `checking parents[${index}]`);
    try {
      await readManifest(parent, ['parents', index]);
    } catch (error) {
      if (error instanceof JacobianError && error.code === 'ARTIFACT_NOT_FOUND') {
        throw new JacobianError(
          'ARTIFACT_NOT_FOUND',
          `parents[${index}]: parent ${parent} is not in this store; parents must be stored before their children`,
          { path: ['parents', index], data: { uri: parent } },
        );
      }
      throw error;
    }
  }
}

import type { z } from 'zod';

import { canonicalBytes, canonicalize, formatJsonPath, sha256Hex, type JsonValue } from '../canonical-json.js';
import { JacobianError, type ErrorCode, type JsonPath } from '../errors.js';
import {
  ArtifactDraftSchema,
  ArtifactManifestSchema,
  type ArtifactDraft,
  type ArtifactManifest,
} from './manifest.js';

/** An artifact as identified by the store: its URI and manifest. */
export interface StoredArtifact {
  uri: string;
  manifest: ArtifactManifest;
}

/** An artifact with its payload, read back and verified. */
export interface LoadedArtifact extends StoredArtifact {
  payload: JsonValue;
}

/** Per-store size limits, in UTF-8 bytes of canonical JSON. */
export interface ArtifactStoreLimits {
  maxPayloadBytes: number;
  maxManifestBytes: number;
}

/**
 * The port every artifact store adapter implements. Artifacts are content-addressed and
 * immutable: the URI is the sha256 of the canonical manifest, which pins the payload by digest.
 *
 * Errors are `JacobianError`s: `INVALID_REQUEST` (malformed URI or draft),
 * `CANONICAL_JSON_INVALID`, `SIZE_LIMIT_EXCEEDED`, `ARTIFACT_NOT_FOUND`,
 * `ARTIFACT_INTEGRITY` (stored bytes do not hash to what they claim),
 * `ARTIFACT_STORE_UNAVAILABLE` (I/O failure or closed store) and `EXECUTION_CANCELLED`.
 */
export interface ArtifactStore {
  readonly limits: ArtifactStoreLimits;
  /**
   * The most bytes of canonical JSON, payload and manifest together, that a put stores by the
   * store's quick path; larger artifacts are stored by a slower one. Absent when every put goes
   * the same way (or the store does not say). A writer that chooses how large its artifacts are
   * (the pages of a listing) keeps under it. The local folder store with a journal: what one
   * journal record holds (larger artifacts are stored synced, file by file, each waiting for
   * commits of the file system's journal; see local-journal.ts).
   */
  readonly quickPutBytes?: number;
  /** Store a draft; idempotent. Every parent must already be in this store. */
  put(draft: ArtifactDraft, options?: PutOptions): Promise<StoredArtifact>;
  /** Read and verify manifest and payload. */
  get(uri: string, options?: { signal?: AbortSignal }): Promise<LoadedArtifact>;
  /** Read and verify the manifest only. */
  getManifest(uri: string, options?: { signal?: AbortSignal }): Promise<StoredArtifact>;
  /** Whether a manifest with this URI is stored (without verifying its bytes). */
  has(uri: string): Promise<boolean>;
  /**
   * Resolves once the artifacts named are durable: a put made with {@link PutOptions.deferSync}
   * may have returned before. At once for artifacts stored otherwise (or not by this store).
   * Rejects with `ARTIFACT_STORE_UNAVAILABLE` when a deferred put failed to make one durable
   * (and no later put of it did).
   */
  sync(uris: readonly string[]): Promise<void>;
  /** Release resources (what is stored is durable); further calls fail with `ARTIFACT_STORE_UNAVAILABLE`. */
  close(): Promise<void>;
}

/** How a put is made. */
export interface PutOptions {
  signal?: AbortSignal;
  /**
   * The put may return before the artifact is durable (a crash could lose it until then); it is
   * durable once {@link ArtifactStore.sync} of its URI resolves, and can be read through this
   * store at once. Stores whose puts are durable when they return ignore this. The capability
   * host syncs the artifacts an outcome lists (`artifact_uris`) before it returns the result, so
   * a capability may defer the puts of those; nothing outside this process should be told of a
   * deferred artifact before that.
   */
  deferSync?: boolean;
}

/** Defaults: payload 16 MiB, manifest 64 KiB. */
export const DEFAULT_ARTIFACT_STORE_LIMITS: Readonly<ArtifactStoreLimits> = Object.freeze({
  maxPayloadBytes: 16 * 1024 * 1024,
  maxManifestBytes: 64 * 1024,
});

/**
 * Fill in defaults and validate limits given to an adapter.
 *
 * @throws JacobianError `CONFIG_INVALID` if a limit is not a positive safe integer.
 */
export function resolveArtifactStoreLimits(limits: Partial<ArtifactStoreLimits> = {}): ArtifactStoreLimits {
  const resolved = { ...DEFAULT_ARTIFACT_STORE_LIMITS, ...limits };
  for (const name of ['maxPayloadBytes', 'maxManifestBytes'] as const) {
    const value: unknown = resolved[name];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new JacobianError(
        'CONFIG_INVALID',
        `limits.${name} must be a positive integer number of bytes, got ${String(value)}`,
        { path: ['limits', name] },
      );
    }
  }
  return { maxPayloadBytes: resolved.maxPayloadBytes, maxManifestBytes: resolved.maxManifestBytes };
}

/**
 * Throw `EXECUTION_CANCELLED` if `signal` is aborted. Adapters call this before each step so
 * an aborted operation stops at a step boundary and never leaves a half-written artifact.
 */
export function throwIfAborted(signal: AbortSignal | undefined, operation: string, step: string): void {
  if (signal?.aborted === true) {
    throw new JacobianError(
      'EXECUTION_CANCELLED',
      `artifact store ${operation} was cancelled by options.signal before ${step}`,
      { path: ['options', 'signal'], cause: signal.reason },
    );
  }
}

/** Throw `ARTIFACT_STORE_UNAVAILABLE` if the store is `closed`, as the port requires after `close()`. */
export function throwIfClosed(closed: boolean, operation: string): void {
  if (closed) {
    throw new JacobianError('ARTIFACT_STORE_UNAVAILABLE', `artifact store ${operation} called after close(); the store is closed`, {
      path: [],
    });
  }
}

/** Everything an adapter needs to write an artifact, computed without touching storage. */
export interface PreparedArtifact {
  uri: string;
  manifest: ArtifactManifest;
  /** Canonical UTF-8 manifest bytes; their sha256 is the URI's digest. */
  manifestBytes: Uint8Array;
  /** Canonical UTF-8 payload bytes. */
  payloadBytes: Uint8Array;
  /** Lowercase hex sha256 of `payloadBytes` (`manifest.payload_digest` without `sha256:`). */
  payloadDigest: string;
  /** Lowercase hex sha256 of `manifestBytes` (the URI without `artifact://sha256/`). */
  manifestDigest: string;
}

function issueToError(issue: z.core.$ZodIssue, prefix: JsonPath): JacobianError {
  const path: JsonPath = [...prefix, ...issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment))];
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return new JacobianError(
      'INVALID_REQUEST',
      `${formatJsonPath([...path, key])} is not an allowed field (unknown keys: ${issue.keys.join(', ')})`,
      { path: [...path, key] },
    );
  }
  // Summary refinements carry the canonicalization error code (e.g. SIZE_LIMIT_EXCEEDED).
  const carried: unknown = issue.code === 'custom' ? issue.params?.['jacobianCode'] : undefined;
  const code: ErrorCode =
    carried === 'SIZE_LIMIT_EXCEEDED' || carried === 'CANONICAL_JSON_INVALID' ? carried : 'INVALID_REQUEST';
  return new JacobianError(code, `${formatJsonPath(path)}: ${issue.message}`, { path });
}

function rethrowSizeAs(error: unknown, limitName: string, limit: number, path: JsonPath, what: string): never {
  // Only the byte limit is rephrased; depth errors keep their own message and path.
  if (error instanceof JacobianError && error.code === 'SIZE_LIMIT_EXCEEDED' && error.data?.['maxBytes'] !== undefined) {
    throw new JacobianError(
      'SIZE_LIMIT_EXCEEDED',
      `${what} is larger than this store's limits.${limitName} of ${limit} UTF-8 bytes`,
      { path, data: { [limitName]: limit }, cause: error, hint: 'Split the data into several artifacts linked by parents.' },
    );
  }
  throw error;
}

/** Drafts prepared already (see {@link preparedDraft}), with the limits they were prepared under. */
const preparedDrafts = new WeakMap<ArtifactDraft, { limits: ArtifactStoreLimits; prepared: PreparedArtifact }>();

/**
 * A draft of `draft`'s own (a new object) whose preparation under `limits` is `prepared`, so
 * that {@link prepareArtifact} of it under the same limits returns that at once instead of
 * computing its canonical bytes and digests again. For staged artifacts (staged.ts), which are
 * prepared when a run puts them and written when it commits: the new object is the stager's
 * alone, so what was prepared is what is written, whatever the caller does with its draft.
 */
export function preparedDraft(draft: ArtifactDraft, limits: ArtifactStoreLimits): { draft: ArtifactDraft; prepared: PreparedArtifact } {
  const prepared = prepareArtifact(draft, limits);
  // Copied by descriptors, so that the lazy payload of an adopted draft is not read here.
  const own = Object.defineProperties({}, Object.getOwnPropertyDescriptors(draft)) as ArtifactDraft;
  preparedDrafts.set(own, { limits: { maxPayloadBytes: limits.maxPayloadBytes, maxManifestBytes: limits.maxManifestBytes }, prepared });
  return { draft: own, prepared };
}

/**
 * A draft whose preparation was computed elsewhere (an isolated kernel, so that the canonical
 * bytes of a large payload are not made on this thread), for any store's put under `limits`.
 * What it was given is checked first, asynchronously: the manifest must parse as one, its
 * sha256 must be the URI's digest, and the payload's sha256 and length must be those the manifest
 * pins (the payload is hashed off the event loop, by WebCrypto). The payload itself is parsed
 * only if someone reads `draft.payload`.
 *
 * @throws JacobianError `ARTIFACT_INTEGRITY` when the bytes are not what they claim to be.
 */
export async function adoptPreparedArtifact(uri: string, manifestBytes: Uint8Array, payloadBytes: Uint8Array, limits: ArtifactStoreLimits): Promise<ArtifactDraft> {
  const fail = (what: string): JacobianError => new JacobianError('ARTIFACT_INTEGRITY', `a prepared artifact ${uri} was refused: ${what}`, { path: [] });
  const manifestDigest = sha256Hex(manifestBytes);
  if (uri !== `artifact://sha256/${manifestDigest}`) throw fail('its manifest does not hash to its URI');
  let manifestJson: unknown;
  try {
    manifestJson = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(manifestBytes));
  } catch {
    throw fail('its manifest is not UTF-8 JSON');
  }
  const parsed = ArtifactManifestSchema.safeParse(manifestJson);
  if (!parsed.success) throw fail(`its manifest is malformed: ${parsed.error.issues[0]?.message ?? ''}`);
  const manifest = parsed.data;
  if (canonicalize(manifest) !== new TextDecoder().decode(manifestBytes)) throw fail('its manifest is not in canonical form');
  if (manifestBytes.byteLength > limits.maxManifestBytes || payloadBytes.byteLength > limits.maxPayloadBytes) throw fail('it is larger than the store\'s limits');
  const payloadDigest = Buffer.from(await crypto.subtle.digest('SHA-256', payloadBytes as Uint8Array<ArrayBuffer>)).toString('hex');
  if (manifest.payload_digest !== `sha256:${payloadDigest}` || manifest.payload_bytes !== payloadBytes.byteLength) throw fail('its payload is not the one its manifest pins');
  const prepared: PreparedArtifact = { uri, manifest, manifestBytes, payloadBytes, payloadDigest, manifestDigest };
  let payload: JsonValue | undefined;
  const draft = {
    schema_uri: manifest.schema_uri,
    semantics_uri: manifest.semantics_uri,
    parents: manifest.parents,
    summary: manifest.summary,
  } as ArtifactDraft;
  Object.defineProperty(draft, 'payload', {
    enumerable: true,
    configurable: true,
    get: () => (payload ??= JSON.parse(new TextDecoder().decode(payloadBytes)) as JsonValue),
  });
  preparedDrafts.set(draft, { limits: { maxPayloadBytes: limits.maxPayloadBytes, maxManifestBytes: limits.maxManifestBytes }, prepared });
  return draft;
}

/**
 * Validate a draft against the manifest rules and the store's limits, and compute its
 * canonical bytes, digests and URI. Pure: adapters call it before writing anything, so a
 * rejected draft never leaves partial state behind.
 *
 * @throws JacobianError `INVALID_REQUEST`, `CANONICAL_JSON_INVALID` or `SIZE_LIMIT_EXCEEDED`,
 *   with `path` into the draft.
 */
export function prepareArtifact(draft: ArtifactDraft, limits: ArtifactStoreLimits): PreparedArtifact {
  const known = preparedDrafts.get(draft);
  if (known !== undefined && known.limits.maxPayloadBytes === limits.maxPayloadBytes && known.limits.maxManifestBytes === limits.maxManifestBytes) return known.prepared;
  const parsed = ArtifactDraftSchema.safeParse(draft);
  if (!parsed.success) throw issueToError(parsed.error.issues[0]!, []);
  const valid = parsed.data;

  let payloadBytes: Uint8Array;
  try {
    payloadBytes = canonicalBytes(valid.payload, { maxBytes: limits.maxPayloadBytes, path: ['payload'] });
  } catch (error) {
    rethrowSizeAs(error, 'maxPayloadBytes', limits.maxPayloadBytes, ['payload'], 'payload (canonical JSON)');
  }
  const payloadDigest = sha256Hex(payloadBytes);

  const candidate = {
    schema_uri: valid.schema_uri,
    semantics_uri: valid.semantics_uri,
    payload_digest: `sha256:${payloadDigest}`,
    payload_bytes: payloadBytes.byteLength,
    parents: valid.parents ?? [],
    summary: valid.summary ?? {},
  };
  let manifestText: string;
  try {
    manifestText = canonicalize(candidate, { maxBytes: limits.maxManifestBytes });
  } catch (error) {
    rethrowSizeAs(
      error,
      'maxManifestBytes',
      limits.maxManifestBytes,
      [],
      'the manifest derived from schema_uri, semantics_uri, parents and summary',
    );
  }
  // Re-validate what will actually be stored: NFC normalization can lengthen strings.
  const checked = ArtifactManifestSchema.safeParse(JSON.parse(manifestText));
  if (!checked.success) throw issueToError(checked.error.issues[0]!, []);

  const manifestBytes = new TextEncoder().encode(manifestText);
  const manifestDigest = sha256Hex(manifestBytes);
  return {
    uri: `artifact://sha256/${manifestDigest}`,
    manifest: checked.data,
    manifestBytes,
    payloadBytes,
    payloadDigest,
    manifestDigest,
  };
}

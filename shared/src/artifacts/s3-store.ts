import type { Span } from '@opentelemetry/api';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';

import { formatJsonPath, type JsonValue } from '../canonical-json.js';
import { JacobianError, type JsonPath } from '../errors.js';
import { countPut, observePut } from '../telemetry/artifacts.js';
import { parseArtifactUri, type ArtifactDraft } from './manifest.js';
import {
  prepareArtifact,
  resolveArtifactStoreLimits,
  throwIfAborted,
  throwIfClosed,
  type ArtifactStore,
  type ArtifactStoreLimits,
  type LoadedArtifact,
  type StoredArtifact,
} from './store.js';
import {
  compareExisting,
  readVerifiedManifest,
  readVerifiedPayload,
  verifyParents,
  type BoundedRead,
  type ExistingCopy,
} from './verify.js';

/** Static S3 credentials. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The two key areas of a bucket and prefix: see {@link S3ArtifactStoreOptions.area}. */
export type S3StoreArea = 'main' | 'records';
const AREA_PREFIX: Record<S3StoreArea, string> = { main: '', records: 'records/' };
/** Where a store of each area looks first: its own area, then the other. */
const READ_ORDER: Record<S3StoreArea, readonly S3StoreArea[]> = { main: ['main', 'records'], records: ['records', 'main'] };

/** Options for {@link createS3ArtifactStore} and {@link verifyS3Access}. */
export interface S3ArtifactStoreOptions {
  /** S3 endpoint URL, e.g. `http://127.0.0.1:7480` for Ceph RGW; omitted → AWS S3 for `region`. */
  endpoint?: string;
  /** Region to sign requests for (any non-empty name for most S3-compatible servers). */
  region: string;
  /** Existing bucket holding the artifacts; the store never creates it. */
  bucket: string;
  /** Key prefix in front of `blobs/` and `manifests/`; a `/` is added if it does not end in one. */
  prefix?: string;
  /**
   * Where this store writes: `main` (default; `<prefix>blobs/`, `<prefix>manifests/`) or
   * `records` (`<prefix>records/blobs/`, `<prefix>records/manifests/`), the checker's area, so
   * that bucket permissions can let the checker alone write verification records. Reads look in
   * both areas, this store's own first; an artifact is the same wherever it is stored.
   */
  area?: S3StoreArea;
  /** Path-style URLs (`endpoint/bucket/key`). Default: true when `endpoint` is given, else false. */
  forcePathStyle?: boolean;
  /** Static credentials; omitted → the AWS SDK default provider chain (env, profile, IMDS, ...). */
  credentials?: S3Credentials;
  /** Objects larger than this many bytes are uploaded in parts. Default 8 MiB. */
  multipartThresholdBytes?: number;
  /** Size of each uploaded part (S3 requires at least 5 MiB for all but the last). Default 8 MiB. */
  partSizeBytes?: number;
  /** Defaults: payload 16 MiB, manifest 64 KiB. */
  limits?: Partial<ArtifactStoreLimits>;
  /**
   * A ready client (tests, custom middleware). The store then uses it as is and does not destroy
   * it on `close()`. Configure it with `requestChecksumCalculation: 'WHEN_REQUIRED'` and
   * `responseChecksumValidation: 'WHEN_REQUIRED'` for servers that lack the newer checksum headers.
   */
  client?: S3Client;
}

const MIB = 1024 * 1024;
const DEFAULT_MULTIPART_THRESHOLD_BYTES = 8 * MIB;
const DEFAULT_PART_SIZE_BYTES = 8 * MIB;
/** S3's rules for multipart uploads. */
const MIN_PART_SIZE_BYTES = 5 * MIB;
const MAX_PART_SIZE_BYTES = 5 * 1024 * MIB;
const MAX_PARTS = 10_000;
/** Give up connecting after this long; abandon a socket idle for this long. */
const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_IDLE_TIMEOUT_MS = 60_000;
const CONTENT_TYPE = 'application/json';

type Signal = { signal?: AbortSignal } | undefined;

/** Options after validation, with defaults filled in. */
interface ResolvedOptions {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  prefix: string;
  forcePathStyle: boolean;
  credentials: S3Credentials | undefined;
  multipartThresholdBytes: number;
  partSizeBytes: number;
  area: S3StoreArea;
}

function configError(path: JsonPath, message: string): JacobianError {
  return new JacobianError('CONFIG_INVALID', `S3 artifact store option ${formatJsonPath(path)} ${message}`, { path });
}

function positiveInteger(value: unknown, path: JsonPath, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    const shown = typeof value === 'number' ? String(value) : typeof value;
    throw configError(path, `must be an integer number of bytes between ${min} and ${max}, got ${shown}`);
  }
  return value;
}

function nonEmptyString(value: unknown, path: JsonPath): string {
  if (typeof value !== 'string' || value.trim() === '') throw configError(path, 'must be a non-empty string');
  return value;
}

function resolveOptions(options: S3ArtifactStoreOptions): ResolvedOptions {
  const region = nonEmptyString(options.region, ['region']);
  const bucket = nonEmptyString(options.bucket, ['bucket']);
  if (bucket.includes('/')) throw configError(['bucket'], `must be a bucket name without "/", got ${JSON.stringify(bucket)}`);

  let endpoint: string | undefined;
  if (options.endpoint !== undefined) {
    const raw = nonEmptyString(options.endpoint, ['endpoint']);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw configError(['endpoint'], `must be an http(s) URL such as http://127.0.0.1:7480, got ${JSON.stringify(raw)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw configError(['endpoint'], `must use http or https, got ${JSON.stringify(url.protocol)}`);
    }
    if (url.username !== '' || url.password !== '') {
      throw configError(['endpoint'], 'must not carry credentials in the URL; use options.credentials');
    }
    endpoint = raw;
  }

  let prefix = options.prefix ?? '';
  if (typeof prefix !== 'string') throw configError(['prefix'], 'must be a string');
  if (prefix.startsWith('/')) throw configError(['prefix'], `must not start with "/", got ${JSON.stringify(prefix)}`);
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';

  const area = options.area ?? 'main';
  if (area !== 'main' && area !== 'records') throw configError(['area'], `must be "main" or "records", got ${JSON.stringify(area)}`);

  const credentials = options.credentials;
  if (credentials !== undefined) {
    nonEmptyString(credentials.accessKeyId, ['credentials', 'accessKeyId']);
    nonEmptyString(credentials.secretAccessKey, ['credentials', 'secretAccessKey']);
    if (credentials.sessionToken !== undefined) nonEmptyString(credentials.sessionToken, ['credentials', 'sessionToken']);
  }

  return {
    endpoint,
    region,
    bucket,
    prefix,
    forcePathStyle: options.forcePathStyle ?? endpoint !== undefined,
    credentials,
    area,
    multipartThresholdBytes: positiveInteger(
      options.multipartThresholdBytes,
      ['multipartThresholdBytes'],
      DEFAULT_MULTIPART_THRESHOLD_BYTES,
    ),
    partSizeBytes: positiveInteger(
      options.partSizeBytes,
      ['partSizeBytes'],
      DEFAULT_PART_SIZE_BYTES,
      MIN_PART_SIZE_BYTES,
      MAX_PART_SIZE_BYTES,
    ),
  };
}

function createClient(options: ResolvedOptions): S3Client {
  return new S3Client({
    region: options.region,
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    forcePathStyle: options.forcePathStyle,
    ...(options.credentials === undefined ? {} : { credentials: { ...options.credentials } }),
    // Checksums are ours to compute (sha256 of what we read); S3-compatible servers such as
    // Ceph RGW 16 and s3rver reject or ignore the SDK's newer CRC headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: SOCKET_IDLE_TIMEOUT_MS },
  });
}

/** What an S3 call's failure was, in terms safe to show (never request headers or credentials). */
interface FailureFacts {
  /** S3 error code (`NoSuchBucket`), a network code (`ECONNREFUSED`) or an error name. */
  code: string;
  /** HTTP status when the server answered. */
  status: number | undefined;
  /** The server's own message, when it sent a useful one. */
  serverMessage: string | undefined;
  /** The server answered with a bare status and no error body (typical of HEAD requests). */
  bare: boolean;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function failureFacts(error: unknown): FailureFacts {
  const metadata = field(error, '$metadata');
  const status = field(metadata, 'httpStatusCode');
  const name = field(error, 'name');
  const s3Code = field(error, 'Code');
  const nodeCode = field(error, 'code');
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status === 'number') {
    // The SDK names a body-less error after the status (NotFound, Unknown, ...) and has no Code.
    const bare = typeof s3Code !== 'string';
    const code = typeof s3Code === 'string' ? s3Code : bareStatusCode(status, typeof name === 'string' ? name : 'Unknown');
    const useful = message !== '' && message !== 'UnknownError' && message !== code;
    return { code, status, serverMessage: useful ? message : undefined, bare };
  }
  const code = typeof nodeCode === 'string' ? nodeCode : typeof name === 'string' && name !== 'Error' ? name : 'Error';
  return { code, status: undefined, serverMessage: message, bare: false };
}

function bareStatusCode(status: number, name: string): string {
  if (status === 404) return 'NotFound';
  if (status === 403) return 'Forbidden';
  if (status === 412) return 'PreconditionFailed';
  return name === 'Unknown' ? `HTTP${status}` : name;
}

const CREDENTIAL_CODES = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
  'CredentialsProviderError',
  'AuthorizationHeaderMalformed',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'TimeoutError',
  'RequestTimeout',
]);

/** A sentence explaining a failure, naming the likely fix. */
function explain(facts: FailureFacts): string {
  const { code, status } = facts;
  if (code === 'NoSuchBucket') return 'the bucket does not exist (create it, or fix the bucket option)';
  if (code === 'InvalidAccessKeyId') return 'the server does not know the access key ID (check the credentials)';
  if (code === 'SignatureDoesNotMatch') return 'the request signature was rejected: the secret access key does not match the access key ID (check the credentials)';
  if (code === 'ExpiredToken' || code === 'TokenRefreshRequired') return 'the session token has expired (refresh the credentials)';
  if (code === 'InvalidToken') return 'the session token is malformed or invalid (check the credentials)';
  if (code === 'CredentialsProviderError') return 'the AWS SDK found no credentials in its default provider chain (pass credentials or set them in the environment)';
  if (code === 'AuthorizationHeaderMalformed' || code === 'PermanentRedirect' || status === 301) {
    return 'the bucket or credentials belong to another region (check the region option)';
  }
  if (code === 'AccessDenied' || code === 'Forbidden') {
    return 'the credentials are not allowed to do this (they need s3:GetObject, s3:PutObject, s3:ListBucket and s3:AbortMultipartUpload on the bucket and prefix), or they are wrong';
  }
  if (code === 'ECONNREFUSED') return 'nothing accepts connections at the endpoint (is the S3 server running, and is the endpoint right?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return "the endpoint's host name does not resolve (check the endpoint)";
  if (NETWORK_CODES.has(code)) return 'the endpoint could not be reached or stopped answering';
  if (status !== undefined && status >= 500) return 'the S3 server reported an internal failure';
  return 'the S3 request failed';
}

function describeFailure(facts: FailureFacts): string {
  const head = facts.status === undefined ? `error ${facts.code}` : `S3 error ${facts.code} (HTTP ${facts.status})`;
  const server = facts.serverMessage === undefined ? '' : `; server said: ${facts.serverMessage}`;
  return `${head}: ${explain(facts)}${server}`;
}

/** Redact anything that looks like a credential from text that may end up in logs. */
function scrub(text: string, credentials: S3Credentials | undefined): string {
  let out = text;
  for (const secret of [credentials?.secretAccessKey, credentials?.sessionToken, credentials?.accessKeyId]) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.replace(/\b(AKIA|ASIA)[0-9A-Z]{16}\b/g, '[redacted]');
}

/** Did this failure come from the caller's signal (checked after the fact, so the signal decides)? */
function wasAborted(signal: AbortSignal | undefined, error: unknown): boolean {
  return signal?.aborted === true || field(error, 'name') === 'AbortError';
}

function isNotFound(error: unknown): boolean {
  const facts = failureFacts(error);
  return facts.code === 'NoSuchKey' || (facts.status === 404 && facts.bare);
}

/** The server refused a conditional create because the key exists (or a concurrent one is in flight). */
function isConditionFailure(error: unknown): boolean {
  const { code, status } = failureFacts(error);
  return status === 412 || code === 'PreconditionFailed' || code === 'ConditionalRequestConflict';
}

/** The server does not implement `If-None-Match` on writes at all. */
function isConditionUnsupported(error: unknown): boolean {
  const { code, status } = failureFacts(error);
  return status === 501 || code === 'NotImplemented';
}

function destroyBody(body: unknown): void {
  const destroy = field(body, 'destroy');
  if (typeof destroy === 'function') (destroy as (this: unknown) => void).call(body);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * Collect a response body, stopping (and dropping the connection) once it exceeds `maxBytes`.
 * A too-large read carries no size: a streamed body is cut off just past `maxBytes`, and a
 * declared length is only the server's word, so errors say just that the object is over the bound.
 */
async function readBody(body: unknown, declared: number | undefined, maxBytes: number, signal: AbortSignal | undefined): Promise<BoundedRead> {
  if (declared !== undefined && declared > maxBytes) {
    destroyBody(body);
    return { kind: 'too-large' };
  }
  if (body === undefined || body === null) return { kind: 'read', bytes: Buffer.alloc(0) };
  if (!isAsyncIterable(body)) throw new Error('the S3 response body is not a readable stream');
  const onAbort = (): void => destroyBody(body);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of body) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
      total += bytes.byteLength;
      // Leaving the loop early destroys the stream, so the rest is never downloaded.
      if (total > maxBytes) return { kind: 'too-large' };
      chunks.push(bytes);
    }
    return { kind: 'read', bytes: Buffer.concat(chunks, total) };
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * An artifact store in an S3 bucket (AWS S3, Ceph RGW, MinIO, ...):
 * `<prefix>blobs/sha256/<2 hex>/<hex>` holds canonical payload bytes and
 * `<prefix>manifests/sha256/<2 hex>/<hex>` holds canonical manifest bytes; a store of the
 * `records` area (the checker's) writes the same under `<prefix>records/`, and every store
 * reads both areas.
 *
 * A put validates the whole draft and verifies every parent before writing anything, then
 * writes the payload before the manifest, so a visible manifest always has its payload.
 * Objects are created with `If-None-Match: *`. When the key already exists (412) the stored
 * object is read back and re-hashed: the right bytes make the put an idempotent no-op; wrong
 * bytes (corruption) are overwritten without condition, which is always safe because a key
 * has exactly one correct content. Servers that ignore the condition (s3rver) simply overwrite
 * with identical bytes. Payloads above `multipartThresholdBytes` go up as a multipart upload
 * (aborted on failure) after checking whether a correct copy is already stored, since not every
 * server honours the condition on CompleteMultipartUpload (Ceph RGW 16 does not).
 *
 * Every read is re-hashed (S3 servers do not return SHA-256 checksums) and never buffers more
 * than the size the manifest or the store's limit allows. S3 failures become
 * `ARTIFACT_STORE_UNAVAILABLE` with the endpoint, bucket, key and S3 error code in the message;
 * credentials never appear in errors.
 *
 * @throws JacobianError `CONFIG_INVALID` for invalid options or limits.
 */
export function createS3ArtifactStore(options: S3ArtifactStoreOptions): ArtifactStore {
  const resolved = resolveOptions(options);
  const limits = Object.freeze(resolveArtifactStoreLimits(options.limits));
  const ownsClient = options.client === undefined;
  const client = options.client ?? createClient(resolved);
  const { bucket, prefix, multipartThresholdBytes, partSizeBytes } = resolved;
  const where = resolved.endpoint ?? (ownsClient ? `AWS S3 (${resolved.region})` : "the given client's endpoint");
  let closed = false;

  // This store writes in its own area and reads its own area first, then the other one.
  const areas = READ_ORDER[resolved.area];
  const blobKey = (hex: string, area: S3StoreArea = resolved.area): string => `${prefix}${AREA_PREFIX[area]}blobs/sha256/${hex.slice(0, 2)}/${hex}`;
  const manifestKey = (hex: string, area: S3StoreArea = resolved.area): string => `${prefix}${AREA_PREFIX[area]}manifests/sha256/${hex.slice(0, 2)}/${hex}`;
  const sendOptions = (signal: AbortSignal | undefined): { abortSignal?: AbortSignal } =>
    signal === undefined ? {} : { abortSignal: signal };

  /**
   * Turn whatever an S3 step threw into the store's error: our own errors pass through, an
   * aborted signal becomes `EXECUTION_CANCELLED`, anything else `ARTIFACT_STORE_UNAVAILABLE`.
   */
  function failure(operation: string, key: string, path: JsonPath, error: unknown, signal: AbortSignal | undefined): JacobianError {
    if (error instanceof JacobianError) return error;
    if (wasAborted(signal, error)) {
      return new JacobianError('EXECUTION_CANCELLED', `artifact store ${operation} was cancelled by options.signal while accessing s3://${bucket}/${key}`, {
        path: ['options', 'signal'],
        cause: signal?.reason,
      });
    }
    return unavailable(operation, key, path, failureFacts(error));
  }

  function unavailable(operation: string, key: string, path: JsonPath, facts: FailureFacts): JacobianError {
    const message = scrub(
      `artifact store ${operation} of ${formatJsonPath(path)} failed on s3://${bucket}/${key} at ${where}: ${describeFailure(facts)}`,
      resolved.credentials,
    );
    return new JacobianError('ARTIFACT_STORE_UNAVAILABLE', message, {
      path,
      data: {
        endpoint: where,
        bucket,
        key,
        s3Code: facts.code,
        ...(facts.status === undefined ? {} : { httpStatus: facts.status }),
      },
    });
  }

  async function readObject(key: string, maxBytes: number, signal: AbortSignal | undefined): Promise<BoundedRead> {
    let response;
    try {
      response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), sendOptions(signal));
    } catch (error) {
      // Unlike `has`, no HeadBucket follow-up: a GET's 404 has a body, and a missing bucket
      // answers NoSuchBucket, which isNotFound does not count as a missing key.
      if (isNotFound(error)) return { kind: 'missing' };
      throw error;
    }
    return readBody(response.Body, response.ContentLength, maxBytes, signal);
  }

  /** Is `key` absent, holding exactly `bytes` (hashing to `hex`), or holding something else? */
  async function inspect(key: string, hex: string, size: number, signal: AbortSignal | undefined): Promise<ExistingCopy> {
    return compareExisting(await readObject(key, size, signal), hex, size);
  }

  async function putSingle(key: string, bytes: Uint8Array, conditional: boolean, signal: AbortSignal | undefined): Promise<void> {
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: CONTENT_TYPE,
        ...(conditional ? { IfNoneMatch: '*' } : {}),
      }),
      sendOptions(signal),
    );
  }

  /** Upload in parts; on any failure the upload is aborted so no parts are left behind. */
  async function putMultipart(key: string, bytes: Uint8Array, conditional: boolean, signal: AbortSignal | undefined): Promise<void> {
    const created = await client.send(
      new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: CONTENT_TYPE }),
      sendOptions(signal),
    );
    const uploadId = created.UploadId;
    if (uploadId === undefined || uploadId === '') throw new Error('CreateMultipartUpload returned no UploadId');
    try {
      const partSize = Math.max(partSizeBytes, Math.ceil(bytes.byteLength / MAX_PARTS));
      const parts: CompletedPart[] = [];
      for (let offset = 0, partNumber = 1; offset < bytes.byteLength; offset += partSize, partNumber += 1) {
        const body = bytes.subarray(offset, offset + partSize);
        const uploaded = await client.send(
          new UploadPartCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber: partNumber,
            Body: body,
            ContentLength: body.byteLength,
          }),
          sendOptions(signal),
        );
        if (uploaded.ETag === undefined) throw new Error(`UploadPart ${partNumber} returned no ETag`);
        parts.push({ PartNumber: partNumber, ETag: uploaded.ETag });
      }
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
          ...(conditional ? { IfNoneMatch: '*' } : {}),
        }),
        sendOptions(signal),
      );
    } catch (error) {
      // Not under the caller's signal: the cleanup must happen even when it was aborted.
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Make `key` hold `bytes` (whose sha256 is `hex`): create it if absent, accept a correct
   * existing copy, and overwrite (repair) a wrong one.
   */
  async function writeObject(key: string, bytes: Uint8Array, hex: string, signal: AbortSignal | undefined): Promise<void> {
    const size = bytes.byteLength;
    const write = size > multipartThresholdBytes ? putMultipart : putSingle;
    if (size > multipartThresholdBytes) {
      // Uploading megabytes to learn the object exists is wasteful, so look first; and servers
      // that ignore If-None-Match on CompleteMultipartUpload (Ceph RGW 16) never answer 412,
      // so without this look every repeated put would upload the whole payload again.
      const existing = await inspect(key, hex, size, signal);
      if (existing === 'match') return;
      if (existing === 'mismatch') return write(key, bytes, false, signal);
    }
    try {
      await write(key, bytes, true, signal);
      return;
    } catch (error) {
      if (!isConditionFailure(error) && !isConditionUnsupported(error)) throw error;
    }
    // The key exists (or the server cannot say): keep a correct copy, repair a corrupt one.
    if ((await inspect(key, hex, size, signal)) === 'match') return;
    await write(key, bytes, false, signal);
  }

  /** Read `key` (at most `maxBytes`), reporting a failure as {@link failure} at `uriPath`. */
  async function readStored(
    key: string,
    maxBytes: number,
    operation: string,
    uriPath: JsonPath,
    signal: AbortSignal | undefined,
  ): Promise<BoundedRead> {
    try {
      return await readObject(key, maxBytes, signal);
    } catch (error) {
      throw failure(operation, key, uriPath, error, signal);
    }
  }

  /** Read `key(hex, area)` in each of `order` until one is there; the last answer otherwise. */
  async function readInAreas(
    order: readonly S3StoreArea[],
    key: (hex: string, area: S3StoreArea) => string,
    hex: string,
    maxBytes: number,
    operation: string,
    uriPath: JsonPath,
    signal: AbortSignal | undefined,
    onFound?: (area: S3StoreArea) => void,
  ): Promise<BoundedRead> {
    let read: BoundedRead = { kind: 'missing' };
    for (const area of order) {
      read = await readStored(key(hex, area), maxBytes, operation, uriPath, signal);
      if (read.kind !== 'missing') {
        onFound?.(area);
        return read;
      }
    }
    return read;
  }

  /** Read, hash-check and parse the manifest named by `uri`, from either area; also says which area held it. */
  async function readManifest(uri: string, uriPath: JsonPath, operation: string, signal: AbortSignal | undefined): Promise<{ stored: StoredArtifact; area: S3StoreArea }> {
    let area: S3StoreArea = resolved.area;
    const stored = await readVerifiedManifest(uri, uriPath, limits, (hex, maxBytes) =>
      readInAreas(areas, manifestKey, hex, maxBytes, operation, uriPath, signal, (found) => {
        area = found;
      }),
    );
    return { stored, area };
  }

  /** The payload is where its manifest was (a put writes both in one area), else in the other area. */
  function readPayload(stored: StoredArtifact, area: S3StoreArea, signal: AbortSignal | undefined): Promise<JsonValue> {
    // An object longer than declared is cut off as soon as it passes the declared size.
    return readVerifiedPayload(stored, limits, (hex, maxBytes) => readInAreas(READ_ORDER[area], blobKey, hex, maxBytes, 'get', ['uri'], signal));
  }

  /** Store a draft (see ArtifactStore.put); `span` is the put's span when tracing is on. */
  async function putDraft(draft: ArtifactDraft, signal: AbortSignal | undefined, span: Span | undefined): Promise<StoredArtifact> {
    throwIfClosed(closed, 'put');
    throwIfAborted(signal, 'put', 'validation');
    const prepared = prepareArtifact(draft, limits);

    // All parents are read and verified before anything is written.
    await verifyParents(prepared.manifest.parents, async (parent, parentPath) => (await readManifest(parent, parentPath, 'put', signal)).stored, signal);

    throwIfAborted(signal, 'put', 'writing the payload');
    const blob = blobKey(prepared.payloadDigest);
    try {
      await writeObject(blob, prepared.payloadBytes, prepared.payloadDigest, signal);
    } catch (error) {
      throw failure('put', blob, ['payload'], error, signal);
    }
    throwIfAborted(signal, 'put', 'writing the manifest');
    const manifest = manifestKey(prepared.manifestDigest);
    try {
      await writeObject(manifest, prepared.manifestBytes, prepared.manifestDigest, signal);
    } catch (error) {
      throw failure('put', manifest, [], error, signal);
    }
    countPut('s3', prepared, span);
    return { uri: prepared.uri, manifest: prepared.manifest };
  }

  return {
    limits,

    put(draft: ArtifactDraft, options?: Signal): Promise<StoredArtifact> {
      return observePut('s3', (span) => putDraft(draft, options?.signal, span));
    },

    /** Every put is durable when it returns (deferSync is not taken up): only the URIs are checked. */
    sync(uris: readonly string[]): Promise<void> {
      // Rejects (through the executor's throw) once the store is closed, or for a malformed URI.
      return new Promise((resolve) => {
        throwIfClosed(closed, 'sync');
        for (const [index, uri] of uris.entries()) parseArtifactUri(uri, ['uris', index]);
        resolve();
      });
    },

    async get(uri: string, options?: Signal): Promise<LoadedArtifact> {
      const signal = options?.signal;
      throwIfClosed(closed, 'get');
      throwIfAborted(signal, 'get', 'reading the manifest');
      const { stored, area } = await readManifest(uri, ['uri'], 'get', signal);
      throwIfAborted(signal, 'get', 'reading the payload');
      const payload = await readPayload(stored, area, signal);
      return { ...stored, payload };
    },

    async getManifest(uri: string, options?: Signal): Promise<StoredArtifact> {
      const signal = options?.signal;
      throwIfClosed(closed, 'getManifest');
      throwIfAborted(signal, 'getManifest', 'reading the manifest');
      return (await readManifest(uri, ['uri'], 'getManifest', signal)).stored;
    },

    async has(uri: string): Promise<boolean> {
      throwIfClosed(closed, 'has');
      const { digest } = parseArtifactUri(uri, ['uri']);
      const key = manifestKey(digest);
      for (const area of areas) {
        const areaKey = manifestKey(digest, area);
        try {
          await client.send(new HeadObjectCommand({ Bucket: bucket, Key: areaKey }));
          return true;
        } catch (error) {
          if (!isNotFound(error)) throw failure('has', areaKey, ['uri'], error, undefined);
        }
      }
      // A HEAD answers a bare 404 for a missing bucket too; only a present bucket means "absent".
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        const facts = failureFacts(error);
        throw unavailable('has', key, ['uri'], isNotFound(error) ? { ...facts, code: 'NoSuchBucket' } : facts);
      }
      return false;
    },

    close(): Promise<void> {
      if (!closed) {
        closed = true;
        if (ownsClient) client.destroy();
      }
      return Promise.resolve();
    },
  };
}

/**
 * Check at start-up that the configured bucket is reachable with the configured credentials
 * (an S3 HeadBucket, plus a ListObjectsV2 to learn the precise error code when HEAD only gives
 * a status), so a misconfigured role fails fast with a clear message instead of on first use.
 *
 * @throws JacobianError `CONFIG_INVALID` naming the problem (missing bucket, rejected
 *   credentials, missing permission, unreachable endpoint, wrong region), the endpoint, the
 *   bucket and the S3 error code; never the credentials. `EXECUTION_CANCELLED` if `signal` aborts.
 */
export async function verifyS3Access(options: S3ArtifactStoreOptions, config: { signal?: AbortSignal } = {}): Promise<void> {
  const resolved = resolveOptions(options);
  const { bucket } = resolved;
  const signal = config.signal;
  const client = options.client ?? createClient(resolved);
  const where = resolved.endpoint ?? (options.client === undefined ? `AWS S3 (${resolved.region})` : "the given client's endpoint");
  const sendOptions = signal === undefined ? {} : { abortSignal: signal };
  try {
    throwIfAborted(signal, 'access check', 'HeadBucket');
    try {
      await client.send(new HeadBucketCommand({ Bucket: bucket }), sendOptions);
      return;
    } catch (error) {
      if (wasAborted(signal, error)) throw cancelledCheck(signal, error);
      let facts = failureFacts(error);
      if (facts.bare) {
        // HEAD responses carry no error body; a listing names the precise S3 error code.
        try {
          await client.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1, Prefix: resolved.prefix }), sendOptions);
        } catch (listError) {
          if (wasAborted(signal, listError)) throw cancelledCheck(signal, listError);
          const listed = failureFacts(listError);
          if (!listed.bare) facts = listed;
        }
      }
      if (facts.bare && facts.code === 'NotFound') facts = { ...facts, code: 'NoSuchBucket' };
      const path = problemPath(facts);
      const message = scrub(
        `S3 artifact store cannot use bucket ${JSON.stringify(bucket)} at ${where}: ${describeFailure(facts)}`,
        resolved.credentials,
      );
      throw new JacobianError('CONFIG_INVALID', message, {
        path,
        data: { endpoint: where, bucket, s3Code: facts.code, ...(facts.status === undefined ? {} : { httpStatus: facts.status }) },
      });
    }
  } finally {
    if (options.client === undefined) client.destroy();
  }
}

function cancelledCheck(signal: AbortSignal | undefined, error: unknown): JacobianError {
  return new JacobianError('EXECUTION_CANCELLED', 'S3 access check was cancelled by options.signal', {
    path: ['options', 'signal'],
    cause: signal?.reason ?? error,
  });
}

/** Which option a failed access check points at. */
function problemPath(facts: FailureFacts): JsonPath {
  if (facts.code === 'NoSuchBucket') return ['bucket'];
  if (CREDENTIAL_CODES.has(facts.code) || facts.code === 'AccessDenied' || facts.code === 'Forbidden') return ['credentials'];
  if (facts.code === 'PermanentRedirect' || facts.status === 301) return ['region'];
  if (NETWORK_CODES.has(facts.code)) return ['endpoint'];
  return [];
}

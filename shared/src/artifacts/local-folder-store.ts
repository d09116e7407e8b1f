import type { Span } from '@opentelemetry/api';
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

import { formatJsonPath, type JsonValue } from '../canonical-json.js';
import { JacobianError, type JsonPath } from '../errors.js';
import { countPut, observePut } from '../telemetry/artifacts.js';
import { syncDirectory } from '../fs-durable.js';
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
import { compareExisting, readVerifiedManifest, readVerifiedPayload, verifyParents, type BoundedRead } from './verify.js';

/** Options for {@link createLocalFolderArtifactStore}. */
export interface LocalFolderArtifactStoreOptions {
  /** Folder holding `blobs/` and `manifests/`; created on first write. */
  root: string;
  /** Defaults: payload 16 MiB, manifest 64 KiB. */
  limits?: Partial<ArtifactStoreLimits>;
}

type Signal = { signal?: AbortSignal } | undefined;

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** An I/O failure; `path` names the request field whose object was being accessed. */
function unavailable(operation: string, target: string, error: unknown, path: JsonPath): JacobianError {
  return new JacobianError(
    'ARTIFACT_STORE_UNAVAILABLE',
    `artifact store ${operation} of ${formatJsonPath(path)} failed on ${target}: ${error instanceof Error ? error.message : String(error)}`,
    { path, cause: error },
  );
}

/** Read a whole file, refusing (without reading it) a file larger than `maxBytes`. */
async function readBounded(file: string, maxBytes: number): Promise<BoundedRead> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  try {
    // fstat on the open handle, so the size we check (and report) is the size of the file we read.
    const { size } = await handle.stat();
    if (size > maxBytes) return { kind: 'too-large', size };
    return { kind: 'read', bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

/**
 * An artifact store in a local folder:
 * `root/blobs/sha256/<2 hex>/<hex>` holds canonical payload bytes and
 * `root/manifests/sha256/<2 hex>/<hex>` holds canonical manifest bytes.
 *
 * Writes go to a temp file in the target folder, are fsynced and renamed into place, so a
 * reader never sees a partial file. Every read is re-hashed. The payload is written before
 * the manifest, so a visible manifest always has its payload.
 *
 * @throws JacobianError `CONFIG_INVALID` for an empty root or bad limits.
 */
export function createLocalFolderArtifactStore(options: LocalFolderArtifactStoreOptions): ArtifactStore {
  if (typeof options.root !== 'string' || options.root.trim() === '') {
    throw new JacobianError('CONFIG_INVALID', 'root must be a non-empty folder path for the local artifact store', {
      path: ['root'],
    });
  }
  const root = path.resolve(options.root);
  const limits = Object.freeze(resolveArtifactStoreLimits(options.limits));
  let closed = false;

  const blobPath = (hex: string): string => path.join(root, 'blobs', 'sha256', hex.slice(0, 2), hex);
  const manifestPath = (hex: string): string => path.join(root, 'manifests', 'sha256', hex.slice(0, 2), hex);

  /** Does `file` exist with exactly `size` bytes hashing to `hex`? */
  async function holdsExactly(file: string, hex: string, size: number): Promise<boolean> {
    return compareExisting(await readBounded(file, size), hex, size) === 'match';
  }

  /**
   * Make `file` contain `bytes` (whose sha256 is `hex`): a no-op when it already does,
   * otherwise an atomic write that also repairs a corrupt copy.
   */
  async function writeObject(file: string, bytes: Uint8Array, hex: string): Promise<void> {
    if (await holdsExactly(file, hex, bytes.byteLength)) return;
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true });
    const temp = path.join(dir, `.${hex}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    let handle: FileHandle | undefined;
    try {
      handle = await open(temp, 'wx');
      await handle.writeFile(bytes);
      await handle.sync();
      await handle.close();
      handle = undefined;
      await rename(temp, file);
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      // A concurrent writer may have won a race the OS reported as an error (e.g. on Windows);
      // what matters is that the right bytes are now in place.
      if (await holdsExactly(file, hex, bytes.byteLength)) return;
      throw error;
    }
    await syncDirectory(dir);
  }

  /** Read `file` (at most `maxBytes`), reporting an I/O failure as `unavailable` at `uriPath`. */
  async function readStored(file: string, maxBytes: number, uriPath: JsonPath): Promise<BoundedRead> {
    try {
      return await readBounded(file, maxBytes);
    } catch (error) {
      throw unavailable('read', file, error, uriPath);
    }
  }

  /** Read, hash-check and parse the manifest named by `uri`. */
  function readManifest(uri: string, uriPath: JsonPath): Promise<StoredArtifact> {
    return readVerifiedManifest(uri, uriPath, limits, (hex, maxBytes) => readStored(manifestPath(hex), maxBytes, uriPath));
  }

  function readPayload(stored: StoredArtifact): Promise<JsonValue> {
    // A file longer than declared is rejected without reading it into memory.
    return readVerifiedPayload(stored, limits, (hex, maxBytes) => readStored(blobPath(hex), maxBytes, ['uri']));
  }

  /** Store a draft (see ArtifactStore.put); `span` is the put's span when tracing is on. */
  async function putDraft(draft: ArtifactDraft, signal: AbortSignal | undefined, span: Span | undefined): Promise<StoredArtifact> {
    throwIfClosed(closed, 'put');
    throwIfAborted(signal, 'put', 'validation');
    const prepared = prepareArtifact(draft, limits);

    // All parents are checked (and verified) before anything is written.
    await verifyParents(prepared.manifest.parents, readManifest, signal);

    throwIfAborted(signal, 'put', 'writing the payload');
    const blob = blobPath(prepared.payloadDigest);
    try {
      await writeObject(blob, prepared.payloadBytes, prepared.payloadDigest);
    } catch (error) {
      throw unavailable('put', blob, error, ['payload']);
    }
    throwIfAborted(signal, 'put', 'writing the manifest');
    const manifestFile = manifestPath(prepared.manifestDigest);
    try {
      await writeObject(manifestFile, prepared.manifestBytes, prepared.manifestDigest);
    } catch (error) {
      throw unavailable('put', manifestFile, error, []);
    }
    countPut('local', prepared, span);
    return { uri: prepared.uri, manifest: prepared.manifest };
  }

  return {
    limits,

    put(draft: ArtifactDraft, options?: Signal): Promise<StoredArtifact> {
      return observePut('local', (span) => putDraft(draft, options?.signal, span));
    },

    async get(uri: string, options?: Signal): Promise<LoadedArtifact> {
      const signal = options?.signal;
      throwIfClosed(closed, 'get');
      throwIfAborted(signal, 'get', 'reading the manifest');
      const stored = await readManifest(uri, ['uri']);
      throwIfAborted(signal, 'get', 'reading the payload');
      const payload = await readPayload(stored);
      return { ...stored, payload };
    },

    async getManifest(uri: string, options?: Signal): Promise<StoredArtifact> {
      throwIfClosed(closed, 'getManifest');
      throwIfAborted(options?.signal, 'getManifest', 'reading the manifest');
      return readManifest(uri, ['uri']);
    },

    async has(uri: string): Promise<boolean> {
      throwIfClosed(closed, 'has');
      const { digest } = parseArtifactUri(uri, ['uri']);
      const file = manifestPath(digest);
      try {
        return (await stat(file)).isFile();
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') return false;
        throw unavailable('has', file, error, ['uri']);
      }
    },

    close(): Promise<void> {
      closed = true;
      return Promise.resolve();
    },
  };
}

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
 * reader never sees a partial file. Every read is re-hashed. The payload is renamed into place
 * and its folder fsynced before the manifest is renamed, so a visible manifest always has its
 * payload, after a crash too; a put returns only once the manifest's folder is fsynced as well.
 * A half already stored intact is not written again. The two temp files are written and
 * fsynced side by side (neither is visible before its rename), which leaves three syncs on the
 * path of a new artifact instead of four; a folder the store creates is fsynced into its parent.
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
   * Folders this store made sure of (it never removes one): `made` settles once the folder
   * exists, `synced` once the folders that call created are synced into their parents, so that
   * files later synced into them survive a crash with them. A failure is forgotten, so the next
   * put tries again; so is a folder removed behind the store's back (see {@link writeTemp}).
   */
  const folders = new Map<string, { made: Promise<void>; synced: Promise<void> }>();

  function folder(dir: string): { made: Promise<void>; synced: Promise<void> } {
    const known = folders.get(dir);
    if (known !== undefined) return known;
    const created = mkdir(dir, { recursive: true });
    const synced = created.then(async (first) => {
      if (first === undefined) return;
      const syncs: Promise<void>[] = [];
      for (let at = dir; at.length >= first.length; at = path.dirname(at)) syncs.push(syncDirectory(path.dirname(at)));
      await Promise.all(syncs);
    });
    const entry = { made: created.then(() => undefined), synced };
    synced.catch(() => folders.delete(dir));
    folders.set(dir, entry);
    return entry;
  }

  /** A synced temp file, and its folder opened for the sync after the rename (null where a folder cannot be opened). */
  interface Written {
    temp: string;
    folder: Promise<FileHandle | null>;
  }

  /**
   * Write `bytes` to a new temp file next to `file` and sync it. The folder is opened meanwhile
   * for {@link publish}, and its own sync into its parent (when this store just created it) is
   * awaited too.
   */
  async function writeTemp(file: string, bytes: Uint8Array, hex: string): Promise<Written> {
    const dir = path.dirname(file);
    const temp = path.join(dir, `.${hex}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    let place = folder(dir);
    await place.made;
    let handle: FileHandle | undefined;
    try {
      try {
        handle = await open(temp, 'wx');
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw error;
        // The folder was removed since this store made it.
        folders.delete(dir);
        place = folder(dir);
        await place.made;
        handle = await open(temp, 'wx');
      }
      // Not every platform can open (and sync) a folder: that sync is best effort, as in syncDirectory.
      const opened = open(dir, 'r').catch(() => null);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
        await handle.close();
        handle = undefined;
        await place.synced;
      } catch (error) {
        void opened.then((folderHandle) => folderHandle?.close().catch(() => undefined));
        throw error;
      }
      return { temp, folder: opened };
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Rename a synced temp file to `file` and sync the folder, so the name survives a crash. A
   * failed rename is forgiven when the right bytes are in place anyway (a concurrent writer may
   * have won a race the OS reported as an error, e.g. on Windows). The folder is closed after
   * its sync without waiting: nothing depends on that.
   */
  async function publish(written: Written, file: string, bytes: Uint8Array, hex: string): Promise<void> {
    const folderHandle = await written.folder;
    try {
      try {
        await rename(written.temp, file);
      } catch (error) {
        await unlink(written.temp).catch(() => undefined);
        if (await holdsExactly(file, hex, bytes.byteLength)) return;
        throw error;
      }
      await folderHandle?.sync().catch(() => undefined);
    } finally {
      void folderHandle?.close().catch(() => undefined);
    }
  }

  /** Give up a temp file that will not be published. */
  async function discard(written: Written): Promise<void> {
    void written.folder.then((folderHandle) => folderHandle?.close().catch(() => undefined));
    await unlink(written.temp).catch(() => undefined);
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

    // What is already stored intact is not written again (content addressing makes it the same
    // bytes); a missing or corrupt copy is written. The two temp files are written and synced
    // side by side; then the payload is renamed into place and its folder synced before the
    // manifest is, so that a visible manifest always has its payload, after a crash too.
    const payload = { file: blobPath(prepared.payloadDigest), bytes: prepared.payloadBytes, hex: prepared.payloadDigest, at: ['payload'] as JsonPath };
    const manifest = { file: manifestPath(prepared.manifestDigest), bytes: prepared.manifestBytes, hex: prepared.manifestDigest, at: [] as JsonPath };
    const step = async <T>(object: typeof payload, work: (file: string, bytes: Uint8Array, hex: string) => Promise<T>): Promise<T> => {
      try {
        return await work(object.file, object.bytes, object.hex);
      } catch (error) {
        throw unavailable('put', object.file, error, object.at);
      }
    };
    const missing = async (object: typeof payload): Promise<typeof payload | null> =>
      (await step(object, (file, bytes, hex) => holdsExactly(file, hex, bytes.byteLength))) ? null : object;
    const toWrite = (await Promise.all([missing(payload), missing(manifest)])).filter((object) => object !== null);
    if (toWrite.length > 0) {
      throwIfAborted(signal, 'put', 'writing the payload');
      const outcomes = await Promise.allSettled(toWrite.map((object) => step(object, writeTemp)));
      const temps = new Map<typeof payload, Written>();
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled') temps.set(toWrite[i]!, outcome.value);
      });
      try {
        for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
        for (const object of [payload, manifest]) {
          const written = temps.get(object);
          if (written === undefined) continue;
          if (object === manifest) {
            throwIfAborted(signal, 'put', 'writing the manifest');
            // A payload found in place may have been renamed by a concurrent put whose folder
            // sync has not happened yet: sync it here too before the manifest becomes visible.
            if (!toWrite.includes(payload)) await step(payload, (file) => syncDirectory(path.dirname(file)));
          }
          temps.delete(object);
          await step(object, (file, bytes, hex) => publish(written, file, bytes, hex));
        }
      } finally {
        await Promise.all([...temps.values()].map(discard));
      }
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

import type { Span } from '@opentelemetry/api';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsync, open as openCallback, write } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';

import { formatJsonPath, type JsonValue } from '../canonical-json.js';
import { JacobianError, type JsonPath } from '../errors.js';
import { countPut, observePut } from '../telemetry/artifacts.js';
import { openDirectory, syncDirectory, syncOpenedDirectory } from '../fs-durable.js';
import { parseArtifactUri, type ArtifactDraft } from './manifest.js';
import {
  prepareArtifact,
  resolveArtifactStoreLimits,
  throwIfAborted,
  throwIfClosed,
  type ArtifactStore,
  type ArtifactStoreLimits,
  type LoadedArtifact,
  type PreparedArtifact,
  type StoredArtifact,
} from './store.js';
import { compareExisting, readVerifiedManifest, readVerifiedPayload, verifyParents, type BoundedRead } from './verify.js';

/** Options for {@link createLocalFolderArtifactStore}. */
export interface LocalFolderArtifactStoreOptions {
  /** Folder holding `blobs/` and `manifests/`; created on first write. */
  root: string;
  /** Defaults: payload 16 MiB, manifest 64 KiB. */
  limits?: Partial<ArtifactStoreLimits>;
  /**
   * Create all 2 × 256 shard folders (`blobs/sha256/00` … `manifests/sha256/ff`) when the store
   * is created, in the background, and sync them into their parents once; the first put waits
   * for it. Without this a folder is created (and synced) by the first put that needs it, and a
   * young store's put is slower by that: about 1.5 ms of a 3.5 ms put on this project's test
   * machine, for roughly its first thousand artifacts. For long-lived stores (what `jacobian
   * serve` keeps); default false, so that a short-lived store makes only the folders it uses.
   */
  prepareShardFolders?: boolean;
}

/** The shard folder names under `blobs/sha256/` and `manifests/sha256/`: the first two hex digits of a digest. */
const SHARD_NAMES: readonly string[] = Array.from({ length: 256 }, (_, index) => index.toString(16).padStart(2, '0'));

type Signal = { signal?: AbortSignal } | undefined;

/*
 * Files are handled by descriptor, so that closing one is a plain call rather than a trip
 * through the thread pool; looking up whether a name exists is one too. Everything that can wait
 * for the disk or the file system's journal (creating, writing, renaming, syncing) runs in the
 * thread pool, off the event loop.
 */
const openAsync = promisify(openCallback);
const fsyncAsync = promisify(fsync);
const writeAsync = promisify(write);

function closeQuietly(fd: number | null): void {
  if (fd === null) return;
  try {
    closeSync(fd);
  } catch {
    // nothing to do: the descriptor is gone either way
  }
}

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
 * A manifest is what makes an artifact visible (get, getManifest and has go through it), and
 * it goes to a temp file in its folder, is fsynced and renamed into place, so a reader never
 * sees a partial manifest. A new payload is written in place instead (created exclusively, then
 * fsynced): nothing reads a payload but through its manifest, and the manifest is renamed into
 * place only once the payload's bytes and its folder are fsynced, so a visible manifest always
 * has its whole payload, after a crash too. A payload left partial (a crash, a failed write) is
 * found corrupt by the next put of it, which replaces it by a synced temp file and a rename.
 * Every read is re-hashed. A put returns only once the manifest's folder is fsynced as well.
 * A half already stored intact is not written again. The payload and the manifest's temp file
 * are written and fsynced side by side, and the payload's own file needs no rename, so a new
 * artifact waits for two journal commits in a row (the files, then the manifest's rename) where
 * a rename of the payload took a third; a folder the store creates is fsynced into its parent.
 * Puts of the same payload in one store take turns writing it.
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
    // A missing file (a new artifact's) is found so without a trip through the thread pool.
    if (!existsSync(file)) return false;
    return compareExisting(await readBounded(file, size), hex, size) === 'match';
  }

  /**
   * Folders this store made sure of (it never removes one): `made` settles once the folder
   * exists, `synced` once the folders that call created are synced into their parents, so that
   * files later synced into them survive a crash with them. A failure is forgotten, so the next
   * put tries again; so is a folder removed behind the store's back (see {@link createFile}).
   */
  const folders = new Map<string, { made: Promise<void>; synced: Promise<void> }>();

  /**
   * Make every shard folder of `kind` that is missing, then sync `kind/sha256` (and the folders
   * above it that this call created) into their parents, so that files later synced into a
   * shard folder survive a crash with it.
   */
  async function prepareShards(kind: 'blobs' | 'manifests'): Promise<void> {
    const base = path.join(root, kind, 'sha256');
    const first = await mkdir(base, { recursive: true });
    const present = new Set(first === undefined ? await readdir(base) : []);
    const missing = SHARD_NAMES.filter((name) => !present.has(name));
    await Promise.all(
      missing.map((name) =>
        mkdir(path.join(base, name)).catch((error: unknown) => {
          if (errnoCode(error) !== 'EEXIST') throw error;
        }),
      ),
    );
    await Promise.all([...(missing.length > 0 ? [syncDirectory(base)] : []), syncCreated(base, first)]);
  }

  /** Sync `dir` and the folders above it that a recursive mkdir created (`first`, the topmost; none when undefined) into their parents. */
  async function syncCreated(dir: string, first: string | undefined): Promise<void> {
    if (first === undefined) return;
    const syncs: Promise<void>[] = [];
    for (let at = dir; at.length >= first.length; at = path.dirname(at)) syncs.push(syncDirectory(path.dirname(at)));
    await Promise.all(syncs);
  }

  /**
   * With {@link LocalFolderArtifactStoreOptions.prepareShardFolders}: the shard folders being
   * made up front, and those whose first put has not asked for them yet (see {@link folder}).
   */
  const preparation: Promise<void> | null = options.prepareShardFolders === true ? Promise.all([prepareShards('blobs'), prepareShards('manifests')]).then(() => undefined) : null;
  // A failure is the concern of the puts that wait for it (see folder), if any.
  preparation?.catch(() => undefined);
  const unclaimed = new Set(preparation === null ? [] : SHARD_NAMES.flatMap((name) => [path.join(root, 'blobs', 'sha256', name), path.join(root, 'manifests', 'sha256', name)]));

  function folder(dir: string): { made: Promise<void>; synced: Promise<void> } {
    const known = folders.get(dir);
    if (known !== undefined) return known;
    if (preparation !== null && unclaimed.delete(dir)) {
      // A shard folder made up front: ready when the preparation is. Should that fail, the folder
      // is made as without it (and a failure of that is the put's).
      const ready = preparation.then(
        () => undefined,
        async () => {
          if (folders.get(dir) === entry) folders.delete(dir);
          const own = folder(dir);
          await own.made;
          await own.synced;
        },
      );
      const entry = { made: ready, synced: ready };
      folders.set(dir, entry);
      return entry;
    }
    const created = mkdir(dir, { recursive: true });
    const synced = created.then((first) => syncCreated(dir, first));
    const entry = { made: created.then(() => undefined), synced };
    synced.catch(() => folders.delete(dir));
    folders.set(dir, entry);
    return entry;
  }

  /**
   * Create `file` exclusively in its folder (made if need be) and open it for writing; null when
   * a file of that name exists already. The folder is opened too, for its sync.
   */
  async function createFile(file: string): Promise<{ fd: number; dir: Promise<number | null>; place: { made: Promise<void>; synced: Promise<void> } } | null> {
    const dir = path.dirname(file);
    let place = folder(dir);
    await place.made;
    let fd: number;
    try {
      try {
        fd = await openAsync(file, 'wx');
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw error;
        // The folder was removed since this store made it.
        folders.delete(dir);
        place = folder(dir);
        await place.made;
        fd = await openAsync(file, 'wx');
      }
    } catch (error) {
      if (errnoCode(error) === 'EEXIST') return null;
      throw error;
    }
    return { fd, dir: openDirectory(dir), place };
  }

  /** Write all of `bytes` to `fd` and sync them. */
  async function writeAndSync(fd: number, bytes: Uint8Array): Promise<void> {
    for (let offset = 0; offset < bytes.byteLength; ) offset += (await writeAsync(fd, bytes, offset, bytes.byteLength - offset)).bytesWritten;
    await fsyncAsync(fd);
  }

  /** A synced temp file, and its folder opened for the sync after the rename (null where a folder cannot be opened). */
  interface Written {
    temp: string;
    folder: Promise<number | null>;
  }

  /**
   * Write `bytes` to a new temp file next to `file` and sync it, and await the sync of its
   * folder into its parent when this store just created it. The folder stays open for
   * {@link publish}.
   */
  async function writeTemp(file: string, bytes: Uint8Array, hex: string): Promise<Written> {
    const temp = path.join(path.dirname(file), `.${hex}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const created = await createFile(temp);
    // A random name that exists already: as unlikely as a clash of 48 random bits.
    if (created === null) throw new Error(`the temp file ${temp} exists already`);
    try {
      await writeAndSync(created.fd, bytes);
    } catch (error) {
      closeQuietly(created.fd);
      void created.dir.then(closeQuietly);
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    // After a successful sync a failing close loses nothing.
    closeQuietly(created.fd);
    await created.place.synced;
    return { temp, folder: created.dir };
  }

  /**
   * Rename a synced temp file to `file` and sync the folder, so the name survives a crash. A
   * failed rename is forgiven when the right bytes are in place anyway (a concurrent writer may
   * have won a race the OS reported as an error, e.g. on Windows).
   */
  async function publish(written: Written, file: string, bytes: Uint8Array, hex: string): Promise<void> {
    try {
      await rename(written.temp, file);
    } catch (error) {
      void written.folder.then(closeQuietly);
      await unlink(written.temp).catch(() => undefined);
      if (await holdsExactly(file, hex, bytes.byteLength)) return;
      throw error;
    }
    await syncOpenedDirectory(written.folder);
  }

  /**
   * Create `file` itself (it must not exist yet), write `bytes` to it and sync it, its folder
   * and (when this store just created that folder) the folder's own entry. `present` when a
   * file is already there with exactly these bytes, `replaced` when a different (partial or
   * corrupt) one was there and has been replaced through a synced temp file. A write that fails
   * leaves its partial file: by then it may not be this put's to remove (a concurrent put may
   * have replaced it with a whole copy), and the next put of it finds it corrupt and replaces it.
   */
  async function writeInPlace(file: string, bytes: Uint8Array, hex: string): Promise<'written' | 'present' | 'replaced'> {
    const created = await createFile(file);
    if (created === null) {
      if (await holdsExactly(file, hex, bytes.byteLength)) return 'present';
      await publish(await writeTemp(file, bytes, hex), file, bytes, hex);
      return 'replaced';
    }
    // The file's bytes and its name in the folder are synced side by side: both are done before the put goes on.
    try {
      await Promise.all([writeAndSync(created.fd, bytes), syncOpenedDirectory(created.dir), created.place.synced]);
    } finally {
      closeQuietly(created.fd);
    }
    return 'written';
  }

  /** Sync a file found in place and its folder: another put may have written it and not synced it yet. */
  async function syncInPlace(file: string): Promise<void> {
    const fd = await openAsync(file, 'r');
    try {
      await Promise.all([fsyncAsync(fd), syncDirectory(path.dirname(file))]);
    } finally {
      closeQuietly(fd);
    }
  }

  /** Give up a temp file that will not be published. */
  async function discard(written: Written): Promise<void> {
    void written.folder.then(closeQuietly);
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

  /** The write of each payload being stored by this store now, by payload digest (see {@link putDraft}). */
  const writing = new Map<string, Promise<unknown>>();

  /** Store a draft (see ArtifactStore.put); `span` is the put's span when tracing is on. */
  async function putDraft(draft: ArtifactDraft, signal: AbortSignal | undefined, span: Span | undefined): Promise<StoredArtifact> {
    throwIfClosed(closed, 'put');
    throwIfAborted(signal, 'put', 'validation');
    const prepared = prepareArtifact(draft, limits);

    // All parents are checked (and verified) before anything is written.
    await verifyParents(prepared.manifest.parents, readManifest, signal);

    // A put of a payload this store is writing now waits for that write to end, and then finds
    // it in place, instead of reading a half-written file and writing it a second time.
    const key = prepared.payloadDigest;
    for (let earlier = writing.get(key); earlier !== undefined; earlier = writing.get(key)) await earlier.catch(() => undefined);
    const work = storeObjects(prepared, signal);
    writing.set(key, work);
    try {
      await work;
    } finally {
      if (writing.get(key) === work) writing.delete(key);
    }
    countPut('local', prepared, span);
    return { uri: prepared.uri, manifest: prepared.manifest };
  }

  /**
   * Write what is missing of a prepared artifact. What is already stored intact is not written
   * again (content addressing makes it the same bytes); a missing or corrupt copy is written.
   * The payload (in place, see {@link writeInPlace}) and the manifest's temp file are written
   * and synced side by side; the manifest is renamed into place (and its folder synced) only
   * once the payload and its folder are synced, so that a visible manifest always has its
   * payload, after a crash too.
   */
  async function storeObjects(prepared: PreparedArtifact, signal: AbortSignal | undefined): Promise<void> {
    const payload = { file: blobPath(prepared.payloadDigest), bytes: prepared.payloadBytes, hex: prepared.payloadDigest, at: ['payload'] as JsonPath };
    const manifest = { file: manifestPath(prepared.manifestDigest), bytes: prepared.manifestBytes, hex: prepared.manifestDigest, at: [] as JsonPath };
    const step = async <T>(object: typeof payload, work: (file: string, bytes: Uint8Array, hex: string) => Promise<T>): Promise<T> => {
      try {
        return await work(object.file, object.bytes, object.hex);
      } catch (error) {
        throw unavailable('put', object.file, error, object.at);
      }
    };
    throwIfAborted(signal, 'put', 'writing the payload');
    const manifestTemp = (async (): Promise<Written | null> => {
      if (await step(manifest, (file, bytes, hex) => holdsExactly(file, hex, bytes.byteLength))) return null;
      return step(manifest, writeTemp);
    })();
    const [payloadOutcome, manifestOutcome] = await Promise.allSettled([step(payload, writeInPlace), manifestTemp]);
    const written = manifestOutcome.status === 'fulfilled' ? manifestOutcome.value : null;
    let published = false;
    try {
      if (payloadOutcome.status === 'rejected') throw payloadOutcome.reason;
      if (manifestOutcome.status === 'rejected') throw manifestOutcome.reason;
      if (written === null) return;
      throwIfAborted(signal, 'put', 'writing the manifest');
      // A payload found in place may have been written by a concurrent put (of this store or
      // another) that has not synced it or its folder yet: sync both before the manifest is visible.
      if (payloadOutcome.value === 'present') await step(payload, syncInPlace);
      published = true;
      await step(manifest, (file, bytes, hex) => publish(written, file, bytes, hex));
    } finally {
      if (written !== null && !published) await discard(written);
    }
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

    async close(): Promise<void> {
      closed = true;
      // Nothing of the store's keeps working on its folder once it is closed.
      await preparation?.catch(() => undefined);
    },
  };
}

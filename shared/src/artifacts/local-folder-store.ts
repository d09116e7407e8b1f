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
  type PutOptions,
  type StoredArtifact,
} from './store.js';
import { compareExisting, readVerifiedManifest, readVerifiedPayload, verifyParents, type BoundedRead } from './verify.js';
import { DEFAULT_JOURNAL_BYTES, isJournalSize, JOURNAL_BLOCK, journalRecordRoom, MIN_JOURNAL_BYTES, openArtifactJournal, recoverJournals, type ArtifactJournal, type JournalEntry } from './local-journal.js';

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
  /**
   * Make new artifacts durable through a journal (local-journal.ts): one record appended and
   * `fdatasync`ed per put; the put returns then, and the artifact's files are written in the
   * background once puts pause (this store serves the artifact from memory meanwhile; see
   * {@link LocalFolderArtifactStore.written}) and synced later, at a checkpoint. A put of a small
   * artifact takes 0.35–0.5 ms less on this project's machines. Costs two files of `bytes`
   * (default 4 MiB) in `root/journal/` while the store is open, made when it opens (its first
   * puts wait for them). For long-lived stores (what `jacobian serve` keeps); default false.
   * Whatever the setting, a store restores the records of journals whose owner is gone before
   * it reads or writes anything. An artifact larger than a record holds (1 MiB less a header,
   * or less in smaller files; the store's `quickPutBytes`) is stored synced, as without a journal.
   */
  journal?: boolean | { bytes?: number };
}

/** A local folder store: an {@link ArtifactStore} whose journaled puts write their files in the background. */
export interface LocalFolderArtifactStore extends ArtifactStore {
  /**
   * Resolves once the files of every artifact put so far are written (a journaled put returns
   * before they are, and the store serves the artifact from memory meanwhile; this starts the
   * writes that wait for puts to pause), or failed to be
   * (those stay in memory until the checkpoint stores them synced): what a caller awaits before
   * another process, or another store on the same folder, reads them.
   */
  written(): Promise<void>;
}

/** The shard folder names under `blobs/sha256/` and `manifests/sha256/`: the first two hex digits of a digest. */
const SHARD_NAMES: readonly string[] = Array.from({ length: 256 }, (_, index) => index.toString(16).padStart(2, '0'));

type Signal = { signal?: AbortSignal } | undefined;

/**
 * A journaled artifact's files are written once the store has had no journaled put for this
 * long (or at once when {@link LocalFolderArtifactStore.written}, a checkpoint or `close` wants
 * them). The put is durable already, and the artifact is served from memory meanwhile. Writing
 * the files (creating two, a rename) takes about 0.3 ms of CPU in the thread pool per artifact:
 * done while a run is still putting pages, it competes with the tool the run waits for on a
 * 2-core machine. Measured on this project's test machine, graph.enumerate.nonisomorphic on
 * geng -t 10 (4 pages) against geng alone, three benchmark runs of 15 rounds each, alternating:
 * 1.18–1.23× with the files written at once, 1.11–1.13× with them written after a pause.
 */
const JOURNAL_WRITE_QUIET_MS = 20;
/** The longest a journaled artifact's files wait to be written, whatever puts keep coming. */
const JOURNAL_WRITE_MAX_WAIT_MS = 200;

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
 * @throws JacobianError `CONFIG_INVALID` for an empty root, bad limits or a bad journal size.
 */
export function createLocalFolderArtifactStore(options: LocalFolderArtifactStoreOptions): LocalFolderArtifactStore {
  if (typeof options.root !== 'string' || options.root.trim() === '') {
    throw new JacobianError('CONFIG_INVALID', 'root must be a non-empty folder path for the local artifact store', {
      path: ['root'],
    });
  }
  const root = path.resolve(options.root);
  const limits = Object.freeze(resolveArtifactStoreLimits(options.limits));
  let closed = false;
  const journalBytes = options.journal === undefined || options.journal === false ? null : options.journal === true ? DEFAULT_JOURNAL_BYTES : (options.journal.bytes ?? DEFAULT_JOURNAL_BYTES);
  if (journalBytes !== null && !isJournalSize(journalBytes)) {
    throw new JacobianError('CONFIG_INVALID', `journal.bytes must be a whole number of ${JOURNAL_BLOCK}-byte blocks, at least ${MIN_JOURNAL_BYTES}, not ${String(journalBytes)}`, { path: ['journal', 'bytes'] });
  }

  const journalDir = path.join(root, 'journal');
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
  async function createFile(file: string, openDir = true): Promise<{ fd: number; dir: Promise<number | null>; place: { made: Promise<void>; synced: Promise<void> } } | null> {
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
    return { fd, dir: openDir ? openDirectory(dir) : Promise.resolve(null), place };
  }

  /** Write all of `bytes` to `fd` and sync them (unless `sync` is false: a journaled put's files). */
  async function writeAndSync(fd: number, bytes: Uint8Array, sync = true): Promise<void> {
    for (let offset = 0; offset < bytes.byteLength; ) offset += (await writeAsync(fd, bytes, offset, bytes.byteLength - offset)).bytesWritten;
    if (sync) await fsyncAsync(fd);
  }

  /** A synced temp file, and its folder opened for the sync after the rename (null where a folder cannot be opened). */
  interface Written {
    temp: string;
    folder: Promise<number | null>;
  }

  /**
   * Write `bytes` to a new temp file next to `file` and sync it, and await the sync of its
   * folder into its parent when this store just created it. The folder stays open for
   * {@link publish}. Unsynced (`sync` false), for a journaled put: nothing is synced or waited for.
   */
  async function writeTemp(file: string, bytes: Uint8Array, hex: string, sync = true): Promise<Written> {
    const temp = path.join(path.dirname(file), `.${hex}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const created = await createFile(temp, sync);
    // A random name that exists already: as unlikely as a clash of 48 random bits.
    if (created === null) throw new Error(`the temp file ${temp} exists already`);
    try {
      await writeAndSync(created.fd, bytes, sync);
    } catch (error) {
      closeQuietly(created.fd);
      void created.dir.then(closeQuietly);
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    // After a successful sync a failing close loses nothing (unsynced, the journal's record has the bytes).
    closeQuietly(created.fd);
    if (sync) await created.place.synced;
    return { temp, folder: created.dir };
  }

  /**
   * Rename a synced temp file to `file` and sync the folder, so the name survives a crash. A
   * failed rename is forgiven when the right bytes are in place anyway (a concurrent writer may
   * have won a race the OS reported as an error, e.g. on Windows). Unsynced (`sync` false), for a
   * journaled put: the folder is not synced.
   */
  async function publish(written: Written, file: string, bytes: Uint8Array, hex: string, sync = true): Promise<void> {
    try {
      await rename(written.temp, file);
    } catch (error) {
      void written.folder.then(closeQuietly);
      await unlink(written.temp).catch(() => undefined);
      if (await holdsExactly(file, hex, bytes.byteLength)) return;
      throw error;
    }
    if (sync) await syncOpenedDirectory(written.folder);
    else void written.folder.then(closeQuietly);
  }

  /**
   * Create `file` itself (it must not exist yet), write `bytes` to it and sync it, its folder
   * and (when this store just created that folder) the folder's own entry. `present` when a
   * file is already there with exactly these bytes, `replaced` when a different (partial or
   * corrupt) one was there and has been replaced through a synced temp file. A write that fails
   * leaves its partial file: by then it may not be this put's to remove (a concurrent put may
   * have replaced it with a whole copy), and the next put of it finds it corrupt and replaces it.
   * Unsynced (`sync` false), for a journaled put: nothing is synced or waited for.
   */
  async function writeInPlace(file: string, bytes: Uint8Array, hex: string, sync = true): Promise<'written' | 'present' | 'replaced'> {
    const created = await createFile(file, sync);
    if (created === null) {
      if (await holdsExactly(file, hex, bytes.byteLength)) return 'present';
      await publish(await writeTemp(file, bytes, hex, sync), file, bytes, hex, sync);
      return 'replaced';
    }
    if (!sync) {
      try {
        await writeAndSync(created.fd, bytes, false);
      } finally {
        closeQuietly(created.fd);
      }
      return 'written';
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
    return readVerifiedManifest(uri, uriPath, limits, async (hex, maxBytes) => {
      const entry = held.get(hex);
      return entry === undefined ? readStored(manifestPath(hex), maxBytes, uriPath) : readHeld(entry.manifestBytes, maxBytes);
    });
  }

  function readPayload(stored: StoredArtifact): Promise<JsonValue> {
    // A file longer than declared is rejected without reading it into memory.
    return readVerifiedPayload(stored, limits, async (hex, maxBytes) => {
      const payload = heldPayloads.get(hex);
      return payload === undefined ? readStored(blobPath(hex), maxBytes, ['uri']) : readHeld(payload.bytes, maxBytes);
    });
  }

  /** The write of each payload being stored by this store now, by payload digest (see {@link putDraft}). */
  const writing = new Map<string, Promise<unknown>>();

  /** Store a draft (see ArtifactStore.put); `span` is the put's span when tracing is on. */
  async function putDraft(draft: ArtifactDraft, signal: AbortSignal | undefined, defer: boolean, span: Span | undefined): Promise<StoredArtifact> {
    throwIfClosed(closed, 'put');
    throwIfAborted(signal, 'put', 'validation');
    const prepared = prepareArtifact(draft, limits);
    await recovered([]);

    // All parents are checked (and verified) before anything is written.
    await verifyParents(prepared.manifest.parents, readManifest, signal);

    // A put of a payload this store is writing now waits for that write to end, and then finds
    // it in place, instead of reading a half-written file and writing it a second time.
    const key = prepared.payloadDigest;
    for (let earlier = writing.get(key); earlier !== undefined; earlier = writing.get(key)) await earlier.catch(() => undefined);
    const work = storeObjects(prepared, signal, defer);
    writing.set(key, work);
    try {
      await work;
    } finally {
      if (writing.get(key) === work) writing.delete(key);
    }
    // Durable now, unless deferred (see PutOptions.deferSync).
    if (!defer) undurable.delete(prepared.manifestDigest);
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
  async function storeObjects(prepared: PreparedArtifact, signal: AbortSignal | undefined, defer: boolean): Promise<void> {
    const payload: StoredObject = { file: blobPath(prepared.payloadDigest), bytes: prepared.payloadBytes, hex: prepared.payloadDigest, at: ['payload'] };
    const manifest: StoredObject = { file: manifestPath(prepared.manifestDigest), bytes: prepared.manifestBytes, hex: prepared.manifestDigest, at: [] };
    const step: Step = async (object, work) => {
      try {
        return await work(object.file, object.bytes, object.hex);
      } catch (error) {
        throw unavailable('put', object.file, error, object.at);
      }
    };
    throwIfAborted(signal, 'put', 'writing the payload');
    // Journaled already, and being written: once its record is durable (unless this put may
    // defer that too). When that record's sync failed, the artifact is no longer held, and is
    // stored below.
    if (held.has(manifest.hex) && (defer || (await whenDurable(manifest.hex)))) return;
    if (journal !== null && !(await step(manifest, (file, bytes, hex) => holdsExactly(file, hex, bytes.byteLength)))) {
      if (await storeJournaled(prepared, payload, manifest, defer)) return;
    }
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

  type StoredObject = { file: string; bytes: Uint8Array; hex: string; at: JsonPath };
  type Step = <T>(object: StoredObject, work: (file: string, bytes: Uint8Array, hex: string) => Promise<T>) => Promise<T>;

  /**
   * Journaled artifacts whose files are not written yet (or failed to be), by manifest digest,
   * and their payloads by payload digest (with how many of them hold each): reads find them
   * here. See {@link storeJournaled}.
   */
  const held = new Map<string, JournalEntry>();
  /** When each held artifact's record is durable (or its sync failed). */
  const durability = new WeakMap<JournalEntry, Promise<void>>();
  /**
   * Artifacts whose deferred put failed to make them durable (its record's sync failed), by
   * manifest digest, until a later put of theirs does: {@link ArtifactStore.sync} rejects for them.
   */
  const undurable = new Map<string, JacobianError>();
  const heldPayloads = new Map<string, { bytes: Uint8Array; holders: number }>();
  /** Held artifacts whose files could not be written; the next checkpoint stores them synced. */
  const unwritten = new Set<JournalEntry>();

  /**
   * Wait until the artifact held under manifest digest `hex` is durable, starting the sync its
   * record may wait for (a deferred one). False when it is not held (any more: its record's
   * sync failed, and the record is released).
   */
  async function whenDurable(hex: string): Promise<boolean> {
    for (let entry = held.get(hex); entry !== undefined; entry = held.get(hex)) {
      journal?.syncDeferred();
      if ((await durability.get(entry)?.then(() => true, () => false)) ?? true) return true;
    }
    return false;
  }

  function hold(entry: JournalEntry, durable: Promise<void>): void {
    durability.set(entry, durable);
    held.set(entry.manifestDigest, entry);
    const payload = heldPayloads.get(entry.payloadDigest);
    if (payload === undefined) heldPayloads.set(entry.payloadDigest, { bytes: entry.payloadBytes, holders: 1 });
    else payload.holders += 1;
  }

  function release(entry: JournalEntry): void {
    if (held.get(entry.manifestDigest) !== entry) return;
    held.delete(entry.manifestDigest);
    const payload = heldPayloads.get(entry.payloadDigest);
    if (payload !== undefined && --payload.holders === 0) heldPayloads.delete(entry.payloadDigest);
  }

  /** A held object's bytes, read as a file of them would be. */
  function readHeld(bytes: Uint8Array, maxBytes: number): BoundedRead {
    return bytes.byteLength > maxBytes ? { kind: 'too-large', size: bytes.byteLength } : { kind: 'read', bytes };
  }

  /**
   * Store a new artifact through the journal (see local-journal.ts): its record appended and
   * synced (or, with `defer`, synced later: see PutOptions.deferSync), and the put returns; the
   * artifact is served from memory while its files are written, unsynced, in the background once
   * the record is durable: the payload in place, then the manifest through a temp file and a
   * rename. False when the journal has no room (or is not usable): nothing was written, and the
   * caller stores the artifact synced.
   */
  async function storeJournaled(prepared: PreparedArtifact, payload: StoredObject, manifest: StoredObject, defer: boolean): Promise<boolean> {
    if (journal === null) return false;
    const entry: JournalEntry = { payloadDigest: prepared.payloadDigest, payloadBytes: prepared.payloadBytes, manifestDigest: prepared.manifestDigest, manifestBytes: prepared.manifestBytes };
    const recorded = (durable: Promise<void>): void => {
      // Served from memory from now on; no longer if the record's sync failed (a later put stores it synced).
      hold(entry, durable);
      durable.then(
        () => undurable.delete(entry.manifestDigest),
        (error: unknown) => {
          release(entry);
          if (defer) undurable.set(entry.manifestDigest, unavailable('put', journalDir, error, []));
        },
      );
    };
    const materialize = (): Promise<void> => {
      // Written after a quiet spell.
      const writing = new Promise<void>((done) => {
        waitingWrites.push({ since: Date.now(), start: () => done(materializeHeld(entry, payload, manifest)) });
      });
      scheduleWrites();
      materializing.add(writing);
      return writing.finally(() => materializing.delete(writing));
    };
    try {
      return await journal.put(entry, { recorded, materialize, files: [payload.file, manifest.file] }, { defer });
    } catch (error) {
      throw unavailable('put', journalDir, error, []);
    }
  }

  /** Journaled artifacts' files waiting to be written or being written. */
  const materializing = new Set<Promise<void>>();
  /** Journaled artifacts whose files wait for a quiet spell (see {@link JOURNAL_WRITE_QUIET_MS}), oldest first. */
  const waitingWrites: { since: number; start: () => void }[] = [];
  let writesTimer: ReturnType<typeof setTimeout> | null = null;

  /** Start writing the files of every journaled artifact that waits. */
  function startWrites(): void {
    if (writesTimer !== null) clearTimeout(writesTimer);
    writesTimer = null;
    for (const waiting of waitingWrites.splice(0)) waiting.start();
  }

  /** (Re)start the quiet spell after a journaled put, cut short for files that have waited long. */
  function scheduleWrites(): void {
    if (writesTimer !== null) clearTimeout(writesTimer);
    const oldest = waitingWrites[0];
    if (oldest === undefined) return;
    const wait = Math.max(0, Math.min(JOURNAL_WRITE_QUIET_MS, oldest.since + JOURNAL_WRITE_MAX_WAIT_MS - Date.now()));
    writesTimer = setTimeout(startWrites, wait);
    // The records are durable: a process that exits meanwhile leaves them to the next store's recovery.
    writesTimer.unref();
  }

  /** Write a held journaled artifact's files (see {@link storeJournaled}), then release it from memory; never rejects. */
  async function materializeHeld(entry: JournalEntry, payload: StoredObject, manifest: StoredObject): Promise<void> {
    let written: Written | null = null;
    try {
      await writeInPlace(payload.file, payload.bytes, payload.hex, false);
      written = await writeTemp(manifest.file, manifest.bytes, manifest.hex, false);
      await publish(written, manifest.file, manifest.bytes, manifest.hex, false);
      written = null;
      release(entry);
    } catch {
      // Served from memory still; the checkpoint stores it synced (or the journal's record, after a crash).
      if (written !== null) await discard(written);
      unwritten.add(entry);
    }
  }

  /** Sync files journaled puts wrote, and their folders, two at a time (a checkpoint; see local-journal.ts). */
  async function syncJournaled(files: readonly string[]): Promise<void> {
    for (const entry of [...unwritten]) {
      await restore(entry);
      unwritten.delete(entry);
      release(entry);
    }
    const dirs = [...new Set(files.map((file) => path.dirname(file)))];
    const work: (() => Promise<void>)[] = [
      ...files.map((file) => async () => {
        let fd: number;
        try {
          fd = await openAsync(file, 'r');
        } catch (error) {
          if (errnoCode(error) === 'ENOENT') return; // removed behind the store's back, or a failed put's
          throw error;
        }
        try {
          await fsyncAsync(fd);
        } finally {
          closeQuietly(fd);
        }
      }),
      ...dirs.map((dir) => async () => {
        const place = folders.get(dir);
        if (place !== undefined) await place.synced;
        await syncDirectory(dir);
      }),
    ];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < work.length) await work[next++]!();
    };
    await Promise.all([worker(), worker()]);
  }

  /** Store a journal record's payload and manifest durably (recovery), each unless intact already. */
  async function restore(entry: JournalEntry): Promise<void> {
    for (const [file, bytes, hex] of [
      [blobPath(entry.payloadDigest), entry.payloadBytes, entry.payloadDigest],
      [manifestPath(entry.manifestDigest), entry.manifestBytes, entry.manifestDigest],
    ] as const) {
      if (await holdsExactly(file, hex, bytes.byteLength)) await syncInPlace(file);
      else await publish(await writeTemp(file, bytes, hex), file, bytes, hex);
    }
  }

  /**
   * The recovery of journals left by processes that are gone (see local-journal.ts), which every
   * read and write waits for. A failed recovery fails the operation that waited for it, naming
   * the journal, and the next operation tries again.
   */
  let recovery: Promise<void> | null = recoverJournals(journalDir, restore);
  recovery.catch(() => undefined);
  const journal: ArtifactJournal | null = journalBytes === null ? null : openArtifactJournal({ dir: journalDir, bytes: journalBytes, syncFiles: syncJournaled, startWrites });
  async function recovered(uriPath: JsonPath): Promise<void> {
    recovery ??= recoverJournals(journalDir, restore);
    const attempt = recovery;
    try {
      await attempt;
    } catch (error) {
      if (recovery === attempt) recovery = null;
      throw unavailable('recovery', journalDir, error, uriPath);
    }
  }

  return {
    limits,
    ...(journalBytes === null ? {} : { quickPutBytes: journalRecordRoom(journalBytes) }),

    put(draft: ArtifactDraft, options?: PutOptions): Promise<StoredArtifact> {
      return observePut('local', (span) => putDraft(draft, options?.signal, options?.deferSync === true, span));
    },

    async sync(uris: readonly string[]): Promise<void> {
      throwIfClosed(closed, 'sync');
      const digests = uris.map((uri, index) => parseArtifactUri(uri, ['uris', index]).digest);
      for (const hex of digests) {
        await whenDurable(hex);
        const failure = undurable.get(hex);
        if (failure !== undefined) throw failure;
      }
    },

    async get(uri: string, options?: Signal): Promise<LoadedArtifact> {
      const signal = options?.signal;
      throwIfClosed(closed, 'get');
      throwIfAborted(signal, 'get', 'reading the manifest');
      await recovered(['uri']);
      const stored = await readManifest(uri, ['uri']);
      throwIfAborted(signal, 'get', 'reading the payload');
      const payload = await readPayload(stored);
      return { ...stored, payload };
    },

    async getManifest(uri: string, options?: Signal): Promise<StoredArtifact> {
      throwIfClosed(closed, 'getManifest');
      throwIfAborted(options?.signal, 'getManifest', 'reading the manifest');
      await recovered(['uri']);
      return readManifest(uri, ['uri']);
    },

    async has(uri: string): Promise<boolean> {
      throwIfClosed(closed, 'has');
      const { digest } = parseArtifactUri(uri, ['uri']);
      await recovered(['uri']);
      if (held.has(digest)) return true;
      const file = manifestPath(digest);
      try {
        return (await stat(file)).isFile();
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') return false;
        throw unavailable('has', file, error, ['uri']);
      }
    },

    async written(): Promise<void> {
      // Deferred puts are synced first: their files are written only once they are durable.
      journal?.syncDeferred();
      await Promise.allSettled([...held.values()].flatMap((entry) => durability.get(entry) ?? []));
      for (startWrites(); materializing.size > 0; startWrites()) await Promise.all([...materializing]);
    },

    async close(): Promise<void> {
      closed = true;
      // Nothing of the store's keeps working on its folder once it is closed.
      await Promise.all([preparation?.catch(() => undefined), recovery?.catch(() => undefined)]);
      // The journal's puts end, what they wrote is synced, and its files go.
      await journal?.close();
    },
  };
}

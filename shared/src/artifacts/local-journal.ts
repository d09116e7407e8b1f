/**
 * The local folder store's journal: what makes a new artifact durable with one `fdatasync` of a
 * file whose blocks already exist, instead of two journal commits of the file system.
 *
 * Why: on this project's machines a synced put of a small artifact (the payload and the
 * manifest's temp file synced, the manifest renamed, its folder synced) takes 1.0–2.0 ms, almost
 * all of it waiting for the file system's journal; rewriting blocks of a file that was filled
 * with zeros and synced once, then `fdatasync`, takes 0.15–0.7 ms (no metadata changes, so no
 * commit of the file system's journal).
 *
 * How a journaled put goes (see local-folder-store.ts): the artifact's payload and manifest are
 * appended to the journal as one record, which is synced; then the put returns, and the store
 * serves the artifact from memory while it writes its files (the payload in place, then the
 * manifest through a temp file and a rename, so a visible manifest has its whole payload),
 * unsynced, in the background. After a crash, the next store opened on the folder restores from
 * the records whatever the crash lost, before it reads or writes anything. The files are synced
 * at a checkpoint, after which their records are no longer needed.
 *
 * Layout: a store instance owns two files, `journal/<id>.0.log` and `journal/<id>.1.log`, each
 * `bytes` long (filled with zeros and synced when made). Block 0 is the header (owner, epoch);
 * records start at 4 KiB-aligned offsets and fill whole blocks, so writing one never reads a
 * block from the disk. Records go to the active file; when it is full, the other (checkpointed)
 * file becomes active and the full one is checkpointed in the background: its files synced,
 * then its epoch raised, which voids its old records. When neither has room, a put is synced as
 * without a journal. Closing the store checkpoints both files and removes them.
 *
 * A record is found again by scanning the file block by block for a header with the magic
 * number, a zero byte that canonical JSON (the only thing records hold) cannot contain, the
 * file's epoch and a checksum; its payload and manifest must hash to the digests it names.
 * Records are written side by side by concurrent puts, so a torn record is skipped, not taken as
 * the end. What is restored is content-addressed (a file named by the SHA-256 of its bytes), so
 * restoring a record twice, or one whose put failed, stores nothing wrong.
 *
 * Owners: the header names the owner's pid and, where /proc exists, its boot and start time; a
 * journal whose owner is alive is left to it. This assumes the processes sharing a folder see
 * each other's pids (one machine, one pid namespace), as `jacobian serve` does; a folder shared
 * between containers should be an S3 store instead. A store also checks before each append that
 * its journal file is still the one it made, and stops journaling if not.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fdatasync, fstatSync, open as openCallback, readFileSync, statSync, write, writevSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { sha256Hex } from '../canonical-json.js';
import { syncDirectory } from '../fs-durable.js';

const openAsync = promisify(openCallback);
const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);

/** Size of a block: the header's, and the unit records are aligned to and padded to. */
export const JOURNAL_BLOCK = 4096;
/** Smallest size of a journal file: 16 blocks. */
export const MIN_JOURNAL_BYTES = 16 * JOURNAL_BLOCK;
/** Default size of each of a store's two journal files. */
export const DEFAULT_JOURNAL_BYTES = 4 * 1024 * 1024;
/** Largest record (header, payload and manifest) a journal takes; larger artifacts are synced as without one. */
export const MAX_JOURNAL_RECORD = 1024 * 1024;

/**
 * The most bytes of payload and manifest one record holds in a journal of files of `bytes`
 * (each at most {@link MAX_JOURNAL_RECORD}, header included, and within a file after its header
 * block); a larger artifact is stored synced, as without a journal.
 */
export function journalRecordRoom(bytes: number): number {
  return Math.min(MAX_JOURNAL_RECORD, bytes - JOURNAL_BLOCK) - RECORD_HEADER;
}

/** Whether `bytes` can be the size of a journal file: whole blocks, at least {@link MIN_JOURNAL_BYTES}. */
export function isJournalSize(bytes: number): boolean {
  return Number.isInteger(bytes) && bytes >= MIN_JOURNAL_BYTES && bytes % JOURNAL_BLOCK === 0;
}

const FILE_MAGIC = Buffer.from('JCBJRNL1', 'latin1');
const RECORD_MAGIC = 0x4a524543; // 'JREC'
/** Record header: magic, epoch, payload length, manifest length, zero word, payload digest, manifest digest, checksum. */
const RECORD_HEADER = 4 + 4 + 4 + 4 + 4 + 32 + 32 + 32;
const CHECKED = RECORD_HEADER - 32;

/** One artifact's bytes, as a record holds them. */
export interface JournalEntry {
  payloadDigest: string;
  payloadBytes: Uint8Array;
  manifestDigest: string;
  manifestBytes: Uint8Array;
}

function roundUp(bytes: number): number {
  return Math.ceil(bytes / JOURNAL_BLOCK) * JOURNAL_BLOCK;
}

/** The bytes a record of `entry` takes in a journal file. */
export function recordSize(entry: Pick<JournalEntry, 'payloadBytes' | 'manifestBytes'>): number {
  return roundUp(RECORD_HEADER + entry.payloadBytes.byteLength + entry.manifestBytes.byteLength);
}

/** Zeros for the padding of records (less than a block each). */
const PADDING = new Uint8Array(JOURNAL_BLOCK);

/**
 * A record as the pieces it is written from: its header, the entry's payload and manifest bytes
 * themselves (not copied), and the padding to whole blocks. A page of a listing holds half a
 * mebibyte, whose copy into one record buffer cost an allocation of its size per put.
 */
export function recordParts(entry: JournalEntry, epoch: number): Uint8Array[] {
  const header = Buffer.alloc(RECORD_HEADER);
  header.writeUInt32LE(RECORD_MAGIC, 0);
  header.writeUInt32LE(epoch, 4);
  header.writeUInt32LE(entry.payloadBytes.byteLength, 8);
  header.writeUInt32LE(entry.manifestBytes.byteLength, 12);
  // bytes 16..19 stay zero: canonical JSON never holds a zero byte, so no record's data looks like a header
  header.write(entry.payloadDigest, 20, 32, 'hex');
  header.write(entry.manifestDigest, 52, 32, 'hex');
  createHash('sha256').update(header.subarray(0, CHECKED)).digest().copy(header, CHECKED);
  const padding = recordSize(entry) - RECORD_HEADER - entry.payloadBytes.byteLength - entry.manifestBytes.byteLength;
  return [header, entry.payloadBytes, entry.manifestBytes, PADDING.subarray(0, padding)];
}

/** Encode a record (padded to whole blocks) as one buffer. */
export function encodeRecord(entry: JournalEntry, epoch: number): Buffer {
  return Buffer.concat(recordParts(entry, epoch));
}

/**
 * Write all of `parts`, one after another, at `position` of the file `fd`: writev, and again for
 * what a short write left. (`writev` is fs.writevSync but in tests.)
 */
export function writePartsSync(fd: number, parts: readonly Uint8Array[], position: number, writev: (fd: number, buffers: Uint8Array[], position: number) => number = writevSync): void {
  let rest = parts.filter((part) => part.byteLength > 0);
  let at = position;
  while (rest.length > 0) {
    let written = writev(fd, rest, at);
    if (!(written > 0)) throw new Error(`writev wrote ${written} of ${rest.reduce((sum, part) => sum + part.byteLength, 0)} bytes at ${at}`);
    at += written;
    let skip = 0;
    while (skip < rest.length && written >= rest[skip]!.byteLength) written -= rest[skip++]!.byteLength;
    rest = rest.slice(skip);
    if (written > 0) rest[0] = rest[0]!.subarray(written);
  }
}

/**
 * Every intact record of `epoch` in a journal file's bytes, in file order: a block that does
 * not start a valid record (torn, voided by a later epoch, never written) is skipped.
 */
export function scanRecords(bytes: Buffer, epoch: number): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (let at = JOURNAL_BLOCK; at + RECORD_HEADER <= bytes.byteLength; ) {
    const entry = readRecord(bytes, at, epoch);
    if (entry === null) {
      at += JOURNAL_BLOCK;
      continue;
    }
    entries.push(entry);
    at += recordSize(entry);
  }
  return entries;
}

function readRecord(bytes: Buffer, at: number, epoch: number): JournalEntry | null {
  if (bytes.readUInt32LE(at) !== RECORD_MAGIC || bytes.readUInt32LE(at + 4) !== epoch || bytes.readUInt32LE(at + 16) !== 0) return null;
  const check = createHash('sha256').update(bytes.subarray(at, at + CHECKED)).digest();
  if (!check.equals(bytes.subarray(at + CHECKED, at + RECORD_HEADER))) return null;
  const payloadLength = bytes.readUInt32LE(at + 8);
  const manifestLength = bytes.readUInt32LE(at + 12);
  const end = at + RECORD_HEADER + payloadLength + manifestLength;
  if (end > bytes.byteLength) return null;
  const payloadBytes = bytes.subarray(at + RECORD_HEADER, at + RECORD_HEADER + payloadLength);
  const manifestBytes = bytes.subarray(at + RECORD_HEADER + payloadLength, end);
  const payloadDigest = bytes.toString('hex', at + 20, at + 52);
  const manifestDigest = bytes.toString('hex', at + 52, at + 84);
  if (sha256Hex(payloadBytes) !== payloadDigest || sha256Hex(manifestBytes) !== manifestDigest) return null;
  return { payloadDigest, payloadBytes, manifestDigest, manifestBytes };
}

/** Who owns a journal file, and its epoch: what block 0 holds. */
export interface JournalHeader {
  epoch: number;
  pid: number;
  /** The owner's boot and start time where /proc tells them, else null. */
  identity: string | null;
}

export function encodeHeader(header: JournalHeader): Buffer {
  const block = Buffer.alloc(JOURNAL_BLOCK);
  FILE_MAGIC.copy(block, 0);
  block.writeUInt32LE(header.epoch, 8);
  const json = Buffer.from(JSON.stringify({ pid: header.pid, identity: header.identity }), 'utf8');
  block.writeUInt32LE(json.byteLength, 12);
  json.copy(block, 16);
  createHash('sha256').update(block.subarray(0, 16 + json.byteLength)).digest().copy(block, 16 + json.byteLength);
  return block;
}

/** The header of a journal file's bytes; null when it is not one (not ours, or never finished). */
export function decodeHeader(bytes: Buffer): JournalHeader | null {
  if (bytes.byteLength < JOURNAL_BLOCK || !bytes.subarray(0, 8).equals(FILE_MAGIC)) return null;
  const length = bytes.readUInt32LE(12);
  if (16 + length + 32 > JOURNAL_BLOCK) return null;
  const check = createHash('sha256').update(bytes.subarray(0, 16 + length)).digest();
  if (!check.equals(bytes.subarray(16 + length, 16 + length + 32))) return null;
  try {
    const parsed = JSON.parse(bytes.toString('utf8', 16, 16 + length)) as { pid?: unknown; identity?: unknown };
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || (parsed.identity !== null && typeof parsed.identity !== 'string')) return null;
    return { epoch: bytes.readUInt32LE(8), pid: parsed.pid, identity: parsed.identity };
  } catch {
    return null;
  }
}

/** A process's boot and start time from /proc (null where there is none): tells a reused pid from its first owner. */
export function processIdentity(pid: number): string | null {
  try {
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const statLine = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const fields = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
    const start = fields[19]; // field 22, starttime
    return start === undefined ? null : `${bootId}:${start}`;
  } catch {
    return null;
  }
}

/** Is the owner a header names still running? */
export function ownerAlive(header: JournalHeader): boolean {
  try {
    process.kill(header.pid, 0);
  } catch (error) {
    if ((error as { code?: string }).code === 'ESRCH') return false;
  }
  if (header.identity === null) return true;
  const now = processIdentity(header.pid);
  return now === null || now === header.identity;
}

/** The first block of a file (fewer bytes when it is shorter). */
async function readHeaderBlock(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const block = Buffer.alloc(JOURNAL_BLOCK);
    const { bytesRead } = await handle.read(block, 0, JOURNAL_BLOCK, 0);
    return block.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Restore the records of every journal in `dir` whose owner is gone (`restore` must store an
 * entry durably), then remove it; one whose header is torn is removed too. Leftover temp files
 * of journals never finished are removed once they are a minute old. A journal that cannot be
 * read is left in place, and the error is thrown after the others were tried.
 */
export async function recoverJournals(dir: string, restore: (entry: JournalEntry) => Promise<void>): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return;
    throw error;
  }
  const failures: string[] = [];
  let removed = false;
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (name.endsWith('.tmp')) {
        if (Date.now() - (await stat(file)).mtimeMs > 60_000) {
          await unlink(file);
          removed = true;
        }
        continue;
      }
      if (!name.endsWith('.log')) continue;
      // The header first: a live owner's journal is not read (it may be megabytes).
      const header = decodeHeader(await readHeaderBlock(file));
      if (header !== null && ownerAlive(header)) continue;
      // A journal file is renamed into place whole, and its header is rewritten only once its
      // records are checkpointed: one whose header is torn holds nothing to restore.
      for (const entry of header === null ? [] : scanRecords(await readFile(file), header.epoch)) await restore(entry);
      await unlink(file);
      removed = true;
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') continue; // another process recovered it first
      failures.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (removed) await syncDirectory(dir);
  if (failures.length > 0) throw new Error(`journal recovery failed for ${failures.join('; ')}`);
}

/** One of a store's two journal files. */
interface JournalFile {
  readonly file: string;
  readonly fd: number;
  readonly ino: number;
  epoch: number;
  /** Next free offset. */
  end: number;
  /** Records being appended to this file, and their files being written. */
  readonly pending: Set<Promise<unknown>>;
  /** Files those puts wrote without syncing them, synced at the checkpoint. */
  readonly unsynced: Set<string>;
  /** Deferred records written to it since its last sync began, told when one covering them ends. */
  deferred: { durable(): void; failed(error: unknown): void }[];
  /** The checkpoint under way, if any. */
  checkpoint: Promise<void> | null;
}

/** How a record is appended. */
export interface JournalPutOptions {
  /**
   * Return once the record is written (into the page cache), without syncing it: it becomes
   * durable with the next sync of its file (another put's, {@link ArtifactJournal.syncDeferred},
   * a checkpoint, or at the latest {@link DEFERRED_SYNC_MAX_MS} later). The `durable` promise
   * given to {@link JournaledWrites.recorded} tells when (`materialize` waits for it too).
   */
  defer?: boolean;
}

/**
 * Longest a deferred record waits for a sync nobody asked for. Its writer is expected to ask
 * ({@link ArtifactJournal.syncDeferred}: the capability host does, through the store's sync,
 * before it returns a result); this bounds how long the record of a run that ended otherwise
 * stays undurable.
 */
export const DEFERRED_SYNC_MAX_MS = 100;

/** What a journaled put does besides its record; see {@link ArtifactJournal.put}. */
export interface JournaledWrites {
  /**
   * Called as soon as the record is written, before it is synced (and before `materialize`):
   * the store serves the artifact from memory from then on (its files are not written yet).
   * `durable` settles when the record is durable, or rejects when its sync failed.
   */
  recorded(durable: Promise<void>): void;
  /**
   * Write the artifact's files, unsynced (the store may hold the writing back for a while; see
   * {@link ArtifactJournalOptions.startWrites}); called once the record is durable (after
   * `recorded`). Must not reject (a failure is the store's to keep track of, and to repair at the
   * checkpoint, when {@link ArtifactJournalOptions.syncFiles} is called).
   */
  materialize(): Promise<void>;
  /** The files `materialize` writes, synced at the checkpoint. */
  files: readonly string[];
}

/** A store instance's journal (see the module comment). */
export interface ArtifactJournal {
  /**
   * Append `entry` to the journal and sync it (or, with `options.defer`, leave it to a later
   * sync); then start `writes.materialize`. `false` (nothing done) when the journal
   * has no room for the record, or is no longer usable; then the caller stores the artifact
   * synced. Rejects when the append fails (which also ends journaling).
   */
  put(entry: JournalEntry, writes: JournaledWrites, options?: JournalPutOptions): Promise<boolean>;
  /** Start syncing every file that holds deferred records (their `durable` promises tell when it is done). */
  syncDeferred(): void;
  /** Wait for the puts and writes under way, sync what they wrote, and remove the journal files. */
  close(): Promise<void>;
}

export interface ArtifactJournalOptions {
  /** The folder holding journal files (made when missing). */
  dir: string;
  /** Size of each of the two files (a multiple of {@link JOURNAL_BLOCK}, at least {@link MIN_JOURNAL_BYTES}). */
  bytes: number;
  /**
   * Make what journaled puts wrote durable: sync these files and the folders they are in
   * (missing files are skipped), and store synced whatever a `materialize` failed to write. Once
   * it returns, the records of those puts are voided.
   */
  syncFiles(files: readonly string[]): Promise<void>;
  /**
   * Start at once the `materialize` work the store holds back (a store may wait for a quiet
   * spell before it writes files): a checkpoint calls it before it waits for that work.
   */
  startWrites?(): void;
}

/** Make a new journal file filled with zeros, its header written, synced, and renamed into place. */
async function makeFile(dir: string, name: string, bytes: number, header: JournalHeader): Promise<JournalFile> {
  const file = path.join(dir, `${name}.log`);
  const temp = path.join(dir, `${name}.tmp`);
  const fd = await openAsync(temp, 'wx+');
  try {
    const zeros = Buffer.alloc(Math.min(bytes, 1024 * 1024));
    for (let at = JOURNAL_BLOCK; at < bytes; at += zeros.byteLength) await writeAll(fd, zeros.subarray(0, Math.min(zeros.byteLength, bytes - at)), at);
    await writeAll(fd, encodeHeader(header), 0);
    await fdatasyncAsync(fd);
    await rename(temp, file);
  } catch (error) {
    closeSync(fd);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return { file, fd, ino: fstatSync(fd).ino, epoch: header.epoch, end: JOURNAL_BLOCK, pending: new Set(), unsynced: new Set(), deferred: [], checkpoint: null };
}

async function writeAll(fd: number, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.byteLength; ) done += (await writeAsync(fd, bytes, done, bytes.byteLength - done, position + done)).bytesWritten;
}

/**
 * Make a store instance's journal: two new files in `dir`, made in the background; the first
 * puts wait for them. A journal that cannot be made is not used (puts are synced as without one).
 */
export function openArtifactJournal(options: ArtifactJournalOptions): ArtifactJournal {
  const { dir, bytes } = options;
  if (!isJournalSize(bytes)) throw new RangeError(`journal files must be a multiple of ${JOURNAL_BLOCK} bytes, at least ${MIN_JOURNAL_BYTES}, not ${bytes}`);
  const id = randomBytes(8).toString('hex');
  const header = { epoch: 1, pid: process.pid, identity: processIdentity(process.pid) };
  let files: [JournalFile, JournalFile] | null = null;
  let active = 0;
  let usable = true;
  let closing = false;
  const making: Promise<void> = (async () => {
    const first = await mkdir(dir, { recursive: true });
    const outcomes = await Promise.allSettled([makeFile(dir, `${id}.0`, bytes, header), makeFile(dir, `${id}.1`, bytes, header)]);
    const made = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    if (made.length < 2 || closing) {
      // Not used: a half-made journal, or a store closed meanwhile, leaves nothing behind.
      for (const file of made) closeSync(file.fd);
      await Promise.all(made.map((file) => unlink(file.file)));
      usable = false;
      return;
    }
    // The files' names, and the folders this made, survive a crash before the files are used.
    const syncs = [syncDirectory(dir)];
    if (first !== undefined) for (let at = dir; at.length >= first.length; at = path.dirname(at)) syncs.push(syncDirectory(path.dirname(at)));
    await Promise.all(syncs);
    files = [made[0]!, made[1]!];
  })().catch(() => {
    usable = false;
  });

  /** Is `file` still the file this journal made (not removed or replaced behind its back)? */
  function stillOurs(file: JournalFile): boolean {
    try {
      return statSync(file.file).ino === file.ino;
    } catch {
      return false;
    }
  }

  /** The error of a failed append (or its sync), which ends journaling. */
  function appendFailed(file: JournalFile, error: unknown): Error {
    usable = false;
    return new Error(`the append to the journal ${file.file} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }

  /** Sync `file`: every record written to it so far is durable once this resolves, the deferred ones told so. */
  function syncFile(file: JournalFile): Promise<void> {
    const waiting = file.deferred;
    file.deferred = [];
    const synced = fdatasyncAsync(file.fd).catch((error: unknown) => {
      throw appendFailed(file, error);
    });
    synced.then(
      () => {
        for (const record of waiting) record.durable();
      },
      (error: unknown) => {
        for (const record of waiting) record.failed(error);
      },
    );
    return synced;
  }

  /** The sync nobody asked for of deferred records (see {@link DEFERRED_SYNC_MAX_MS}). */
  let deferredTimer: ReturnType<typeof setTimeout> | null = null;

  /** When a record just written to `file` is durable, left to a later sync (see {@link JournalPutOptions.defer}). */
  function deferSync(file: JournalFile): Promise<void> {
    const durable = new Promise<void>((done, fail) => file.deferred.push({ durable: done, failed: fail }));
    if (deferredTimer === null) {
      deferredTimer = setTimeout(syncDeferred, DEFERRED_SYNC_MAX_MS);
      // A process that exits meanwhile loses only records nobody was told are durable.
      deferredTimer.unref();
    }
    return durable;
  }

  /** Start syncing every file that holds deferred records. */
  function syncDeferred(): void {
    if (deferredTimer !== null) clearTimeout(deferredTimer);
    deferredTimer = null;
    for (const file of files ?? []) if (file.deferred.length > 0) void syncFile(file).catch(() => undefined);
  }

  /** Sync what the puts into `file` wrote, then raise its epoch (voiding its records) and take it back into use. */
  function checkpoint(file: JournalFile): Promise<void> {
    file.checkpoint ??= (async () => {
      // Deferred records are synced now: their files are written only then, and are waited for below.
      if (file.deferred.length > 0) void syncFile(file).catch(() => undefined);
      while (file.pending.size > 0) {
        options.startWrites?.();
        await Promise.allSettled([...file.pending]);
      }
      const unsynced = [...file.unsynced];
      await options.syncFiles(unsynced);
      for (const name of unsynced) file.unsynced.delete(name);
      const epoch = file.epoch + 1;
      await writeAll(file.fd, encodeHeader({ ...header, epoch }), 0);
      await fdatasyncAsync(file.fd);
      file.epoch = epoch;
      file.end = JOURNAL_BLOCK;
    })().finally(() => {
      file.checkpoint = null;
    });
    return file.checkpoint;
  }

  /** The file a record of `size` bytes goes to, switching files when the active one is full; null when neither has room. */
  function place(size: number): JournalFile | null {
    if (files === null) return null;
    const current = files[active]!;
    if (current.checkpoint === null && current.end + size <= bytes) return current;
    const other = files[1 - active]!;
    if (other.checkpoint !== null || other.end !== JOURNAL_BLOCK || other.end + size > bytes) return null;
    active = 1 - active;
    void checkpoint(current).catch(() => {
      usable = false;
    });
    return other;
  }

  return {
    async put(entry, writes, options = {}) {
      const size = recordSize(entry);
      if (!usable || closing || entry.payloadBytes.byteLength + entry.manifestBytes.byteLength > journalRecordRoom(bytes)) return false;
      // The first puts wait for the files to be made (as the first puts of a store wait for its shard folders).
      if (files === null) await making;
      const file = place(size);
      if (file === null) return false;
      if (!stillOurs(file)) {
        usable = false;
        return false;
      }
      const at = file.end;
      file.end += size;
      try {
        // Copying a record (at most 1 MiB) into the page cache takes microseconds: done here, so
        // that the append takes one trip through the thread pool (the sync), not two.
        writePartsSync(file.fd, recordParts(entry, file.epoch), at);
      } catch (error) {
        throw appendFailed(file, error);
      }
      const durable = options.defer === true ? deferSync(file) : syncFile(file);
      writes.recorded(durable);
      // The file is checkpointed only once the record is durable (or failed) and its files are written.
      const work = durable.then(
        () => writes.materialize(),
        () => undefined,
      );
      const tracked = work.catch(() => undefined).finally(() => {
        for (const name of writes.files) file.unsynced.add(name);
        file.pending.delete(tracked);
      });
      file.pending.add(tracked);
      if (options.defer !== true) await durable;
      return true;
    },

    syncDeferred,

    async close() {
      closing = true;
      if (deferredTimer !== null) clearTimeout(deferredTimer);
      deferredTimer = null;
      await making;
      if (files === null) return;
      const made = files;
      files = null;
      // Each file's puts end and what they wrote is synced before the file goes.
      await Promise.all(made.map((file) => checkpoint(file)));
      for (const file of made) {
        closeSync(file.fd);
        await unlink(file.file).catch(() => undefined);
      }
      await syncDirectory(dir);
    },
  };
}

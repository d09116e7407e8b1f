import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { canonicalBytes } from '../canonical-json.js';
import { JacobianError } from '../errors.js';
import { createLocalFolderArtifactStore, type LocalFolderArtifactStore } from './local-folder-store.js';
import {
  JOURNAL_BLOCK,
  MIN_JOURNAL_BYTES,
  decodeHeader,
  encodeHeader,
  encodeRecord,
  ownerAlive,
  processIdentity,
  recordParts,
  recordSize,
  scanRecords,
  writePartsSync,
  type JournalEntry,
} from './local-journal.js';
import { rejection } from '../reasoning/test-fixtures.js';
import { journalRecords } from '../testing/journal-records.js';
import { parseArtifactUri, type ArtifactDraft } from './manifest.js';
import { prepareArtifact } from './store.js';

const tsxImport = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const crashScript = fileURLToPath(new URL('./fixtures/journal-crash-process.ts', import.meta.url));

function draft(label: string, extra: Record<string, string> = {}): ArtifactDraft {
  return {
    schema_uri: 'https://jacobian.dev/schemas/journal-test/v1',
    semantics_uri: 'https://jacobian.dev/semantics/journal-test',
    payload: { label, ...extra },
    summary: { label },
  };
}

function entryOf(d: ArtifactDraft): JournalEntry {
  const prepared = prepareArtifact(d, { maxPayloadBytes: 16 * 1024 * 1024, maxManifestBytes: 64 * 1024 });
  return { payloadDigest: prepared.payloadDigest, payloadBytes: prepared.payloadBytes, manifestDigest: prepared.manifestDigest, manifestBytes: prepared.manifestBytes };
}

function blobFile(root: string, hex: string): string {
  return path.join(root, 'blobs', 'sha256', hex.slice(0, 2), hex);
}

function manifestFile(root: string, hex: string): string {
  return path.join(root, 'manifests', 'sha256', hex.slice(0, 2), hex);
}

async function journalNames(root: string): Promise<string[]> {
  return (await readdir(path.join(root, 'journal')).catch(() => [] as string[])).sort();
}

/** Wait until a store's journal files are made (they are made in the background). */
async function journalReady(root: string): Promise<string[]> {
  for (let tries = 0; tries < 2000; tries++) {
    const logs = (await journalNames(root)).filter((name) => name.endsWith('.log'));
    if (logs.length === 2) return logs.map((name) => path.join(root, 'journal', name));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the journal files were not made');
}

/** The records of every journal file in `root`, by manifest digest. */
async function journaled(root: string): Promise<Set<string>> {
  return new Set((await journalRecords(root)).map((record) => record.manifestDigest));
}

/** Flip the lowest bit of one byte. */
function flip(bytes: Buffer, at: number): void {
  bytes.writeUInt8(bytes.readUInt8(at) ^ 1, at);
}

/** A pid no process has: one of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('journal records', () => {
  const a = entryOf(draft('a'));
  const b = entryOf(draft('b', { text: 'x'.repeat(5000) }));
  const c = entryOf(draft('c'));

  /** A journal file's bytes: the header, then `records` one after another. */
  function file(epoch: number, records: Buffer[], size = 16 * JOURNAL_BLOCK): Buffer {
    const bytes = Buffer.alloc(size);
    encodeHeader({ epoch, pid: 1, identity: null }).copy(bytes, 0);
    let at = JOURNAL_BLOCK;
    for (const record of records) {
      record.copy(bytes, at);
      at += record.byteLength;
    }
    return bytes;
  }

  it('fill whole blocks and are found again, in order', () => {
    expect(recordSize(a)).toBe(JOURNAL_BLOCK);
    expect(recordSize(b)).toBe(2 * JOURNAL_BLOCK);
    const found = scanRecords(file(3, [encodeRecord(a, 3), encodeRecord(b, 3), encodeRecord(c, 3)]), 3);
    expect(found.map((entry) => entry.manifestDigest)).toEqual([a.manifestDigest, b.manifestDigest, c.manifestDigest]);
    expect(Buffer.from(found[1]!.payloadBytes).equals(Buffer.from(b.payloadBytes))).toBe(true);
  });

  it('skip a torn record and find the ones after it', () => {
    const torn = encodeRecord(b, 3);
    flip(torn, torn.byteLength - JOURNAL_BLOCK + 10); // in the payload, past the record's first block
    const found = scanRecords(file(3, [encodeRecord(a, 3), torn, encodeRecord(c, 3)]), 3);
    expect(found.map((entry) => entry.manifestDigest)).toEqual([a.manifestDigest, c.manifestDigest]);
    const badHeader = encodeRecord(b, 3);
    flip(badHeader, 8); // a length: the header's checksum no longer matches
    expect(scanRecords(file(3, [badHeader, encodeRecord(c, 3)]), 3).map((entry) => entry.manifestDigest)).toEqual([c.manifestDigest]);
  });

  it('of an earlier epoch are void', () => {
    const bytes = file(4, [encodeRecord(a, 4), encodeRecord(b, 3), encodeRecord(c, 4)]);
    expect(scanRecords(bytes, 4).map((entry) => entry.manifestDigest)).toEqual([a.manifestDigest, c.manifestDigest]);
    expect(scanRecords(bytes, 3).map((entry) => entry.manifestDigest)).toEqual([b.manifestDigest]);
  });

  it('are written from their pieces, the entry\'s bytes not copied, and whole after short writes', async () => {
    const parts = recordParts(b, 3);
    expect(parts[1]).toBe(b.payloadBytes);
    expect(parts[2]).toBe(b.manifestBytes);
    expect(Buffer.concat(parts).equals(encodeRecord(b, 3))).toBe(true);
    expect(Buffer.concat(parts).byteLength).toBe(recordSize(b));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'jacobian-journal-parts-'));
    try {
      const file = path.join(dir, 'records');
      const fd = openSync(file, 'w+');
      try {
        // A writer that writes at most 7 bytes a call, cutting pieces anywhere.
        let calls = 0;
        const short = (target: number, buffers: Uint8Array[], position: number): number => {
          calls++;
          const bytes = Buffer.concat(buffers).subarray(0, 7);
          return writeSync(target, bytes, 0, bytes.byteLength, position);
        };
        writePartsSync(fd, recordParts(a, 3), JOURNAL_BLOCK, short);
        writePartsSync(fd, parts, JOURNAL_BLOCK + recordSize(a));
        expect(calls).toBe(Math.ceil(recordSize(a) / 7));
      } finally {
        closeSync(fd);
      }
      const bytes = readFileSync(file);
      encodeHeader({ epoch: 3, pid: 1, identity: null }).copy(bytes, 0);
      expect(scanRecords(bytes, 3).map((entry) => entry.manifestDigest)).toEqual([a.manifestDigest, b.manifestDigest]);
      expect(bytes.subarray(JOURNAL_BLOCK).equals(Buffer.concat([encodeRecord(a, 3), encodeRecord(b, 3)]))).toBe(true);
      expect(() => writePartsSync(0, parts, 0, () => 0)).toThrow(/wrote 0 of/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('are never mistaken for JSON text, which a record holds: a header has a zero byte', () => {
    const record = encodeRecord(a, 3);
    expect(record.subarray(0, 84).includes(0)).toBe(true);
    expect(Buffer.from(canonicalBytes({ text: '\u0000' })).includes(0)).toBe(false);
  });

  it('a header names its owner and epoch, and a damaged one is no header', () => {
    const header = { epoch: 7, pid: 1234, identity: 'boot:99' };
    expect(decodeHeader(encodeHeader(header))).toEqual(header);
    const damaged = encodeHeader(header);
    flip(damaged, 20);
    expect(decodeHeader(damaged)).toBeNull();
    expect(decodeHeader(Buffer.alloc(JOURNAL_BLOCK))).toBeNull();
  });

  it('tells a live owner from one that is gone', async () => {
    expect(ownerAlive({ epoch: 1, pid: process.pid, identity: processIdentity(process.pid) })).toBe(true);
    expect(ownerAlive({ epoch: 1, pid: await deadPid(), identity: null })).toBe(false);
    if (processIdentity(process.pid) !== null) {
      // The same pid with another start time: a process that reused the pid of the owner.
      expect(ownerAlive({ epoch: 1, pid: process.pid, identity: 'another-boot:1' })).toBe(false);
    }
  });
});

describe('local folder store with a journal', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function tempRoot(): Promise<string> {
    const root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-journal-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    return root;
  }

  function open(root: string, journal: boolean | { bytes: number } = true): LocalFolderArtifactStore {
    const store = createLocalFolderArtifactStore({ root, journal });
    cleanups.push(() => store.close());
    return store;
  }

  it('appends a record for a new artifact, and on close syncs its files and removes the journal', async () => {
    const root = await tempRoot();
    const store = open(root);
    const files = await journalReady(root);
    const sizes = await Promise.all(files.map(async (file) => (await readFile(file)).byteLength));
    expect(sizes).toEqual([4 * 1024 * 1024, 4 * 1024 * 1024]);
    const stored = await store.put(draft('first'));
    expect(await journaled(root)).toEqual(new Set([parseArtifactUri(stored.uri).digest]));
    expect((await store.get(stored.uri)).payload).toEqual({ label: 'first' });
    // Putting it again finds it in place: no second record.
    expect(await store.put(draft('first'))).toEqual(stored);
    expect((await journaled(root)).size).toBe(1);
    await store.close();
    expect(await journalNames(root)).toEqual([]);
    const reopened = open(root, false);
    expect((await reopened.get(stored.uri)).payload).toEqual({ label: 'first' });
  });

  it('after a crash, restores from the journal what the crash lost, before anything is read', async () => {
    const root = await tempRoot();
    const drafts = Array.from({ length: 6 }, (_, index) => draft(`crash-${index}`, { text: 'y'.repeat(index * 1500) }));
    const child = spawn(process.execPath, ['--import', tsxImport, crashScript], {
      env: { ...process.env, JACOBIAN_TEST_ROOT: root, JACOBIAN_TEST_DRAFTS: JSON.stringify(drafts) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, sig) => resolve(sig)));
    expect(signal, err).toBe('SIGKILL');
    const uris = JSON.parse(out) as string[];
    expect(uris).toHaveLength(6);
    // Every put returned with its record in the journal, which the dead process left behind.
    expect(await journaled(root)).toEqual(new Set(uris.map((uri) => parseArtifactUri(uri).digest)));

    // What a crash can lose of files written but not synced (if they were written at all before
    // the process died): gone, cut short, or emptied.
    const payloadHex = (index: number): string => entryOf(drafts[index]!).payloadDigest;
    const manifestHex = (index: number): string => parseArtifactUri(uris[index]!).digest;
    await mkdir(path.dirname(blobFile(root, payloadHex(3))), { recursive: true });
    await mkdir(path.dirname(manifestFile(root, manifestHex(5))), { recursive: true });
    await rm(blobFile(root, payloadHex(0)), { force: true });
    await rm(manifestFile(root, manifestHex(0)), { force: true });
    await writeFile(blobFile(root, payloadHex(3)), 'cut short');
    await rm(manifestFile(root, manifestHex(4)), { force: true });
    await writeFile(manifestFile(root, manifestHex(5)), '');

    const store = open(root, false);
    for (const [index, uri] of uris.entries()) {
      expect(await store.has(uri)).toBe(true);
      expect((await store.get(uri)).payload).toEqual(drafts[index]!.payload);
    }
    expect(await journalNames(root)).toEqual([]);
  });

  it('leaves the journal of a live owner alone, and restores one whose owner is gone', async () => {
    const root = await tempRoot();
    const live = open(root);
    const liveFiles = await journalReady(root);
    const kept = await live.put(draft('live'));

    // A journal left by a process that is gone: a record it holds, a torn one, and a voided one.
    const lost = entryOf(draft('lost'));
    const torn = encodeRecord(entryOf(draft('torn')), 2);
    flip(torn, 150);
    const voided = entryOf(draft('voided'));
    const bytes = Buffer.alloc(MIN_JOURNAL_BYTES);
    encodeHeader({ epoch: 2, pid: await deadPid(), identity: null }).copy(bytes, 0);
    [torn, encodeRecord(lost, 2), encodeRecord(voided, 1)].reduce((at, record) => (record.copy(bytes, at), at + record.byteLength), JOURNAL_BLOCK);
    await writeFile(path.join(root, 'journal', 'gone.0.log'), bytes);
    // A journal whose header was torn by a crash while its epoch was raised: its records were checkpointed.
    const tornHeader = Buffer.alloc(MIN_JOURNAL_BYTES);
    encodeHeader({ epoch: 3, pid: process.pid, identity: null }).copy(tornHeader, 0, 0, 20);
    await writeFile(path.join(root, 'journal', 'torn.0.log'), tornHeader);
    // An unfinished journal file of a crash a while ago, and a young one (perhaps being made now).
    const oldTemp = path.join(root, 'journal', 'gone.1.tmp');
    const youngTemp = path.join(root, 'journal', 'making.0.tmp');
    await writeFile(oldTemp, 'x');
    await utimes(oldTemp, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    await writeFile(youngTemp, 'x');

    const other = open(root, false);
    const lostUri = `artifact://sha256/${lost.manifestDigest}`;
    expect((await other.get(lostUri)).payload).toEqual({ label: 'lost' });
    expect(await other.has(`artifact://sha256/${voided.manifestDigest}`)).toBe(false);
    expect(await other.has(`artifact://sha256/${entryOf(draft('torn')).manifestDigest}`)).toBe(false);
    expect((await other.get(kept.uri)).payload).toEqual({ label: 'live' });
    const names = await journalNames(root);
    expect(names).toEqual([...liveFiles.map((file) => path.basename(file)), 'making.0.tmp'].sort());
  });

  it("writes a journaled artifact's files once puts pause for 20 ms, at most 200 ms after its put, or at once when asked", async () => {
    const root = await tempRoot();
    const store = open(root);
    await journalReady(root);
    const written = (label: string): boolean => existsSync(manifestFile(root, entryOf(draft(label)).manifestDigest));
    /** Give writes that started (wrongly or rightly) real time to end: the fake clock does not move. */
    const settle = async (): Promise<void> => {
      for (const until = performance.now() + 50; performance.now() < until; ) await new Promise((done) => setImmediate(done));
    };
    const eventually = async (check: () => boolean): Promise<boolean> => {
      for (const until = performance.now() + 10_000; !check(); ) {
        if (performance.now() > until) return false;
        await new Promise((done) => setImmediate(done));
      }
      return true;
    };
    // Only the store's timer is faked: nothing but it (or written(), a checkpoint, close) starts the writes.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      // A pause: each put restarts the 20 ms; meanwhile the artifacts are served from memory.
      const first = await store.put(draft('quiet-a'));
      vi.advanceTimersByTime(19);
      await store.put(draft('quiet-b'));
      vi.advanceTimersByTime(19);
      await settle();
      expect([written('quiet-a'), written('quiet-b')]).toEqual([false, false]);
      expect(await store.has(first.uri)).toBe(true);
      expect((await store.get(first.uri)).payload).toEqual({ label: 'quiet-a' });
      vi.advanceTimersByTime(1);
      expect(await eventually(() => written('quiet-a') && written('quiet-b'))).toBe(true);

      // Puts every 10 ms never leave a pause: the first one's files are written 200 ms after it.
      await store.put(draft('busy-0'));
      for (let index = 1; index <= 19; index++) {
        vi.advanceTimersByTime(10);
        await store.put(draft(`busy-${index}`));
      }
      vi.advanceTimersByTime(9);
      await settle();
      expect(written('busy-0')).toBe(false);
      vi.advanceTimersByTime(1);
      expect(await eventually(() => Array.from({ length: 20 }, (_, index) => written(`busy-${index}`)).every(Boolean))).toBe(true);

      // written() does not wait for the pause.
      await store.put(draft('asked'));
      await store.written();
      expect(written('asked')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('switches between its two files as they fill, checkpointing the full one', async () => {
    const root = await tempRoot();
    const store = open(root, { bytes: MIN_JOURNAL_BYTES });
    const files = await journalReady(root);
    const epochs = (): Promise<number[]> => Promise.all(files.map(async (file) => decodeHeader(await readFile(file))!.epoch));
    // Records of one block each in files of 15 blocks, put 4 at a time until both files were
    // checkpointed (their epochs raised) at least once; a put that finds no room meanwhile is synced.
    const drafts: ArtifactDraft[] = [];
    const stored: string[] = [];
    while (!(await epochs()).every((epoch) => epoch >= 2) && drafts.length < 2000) {
      const batch = Array.from({ length: 4 }, (_, index) => draft(`many-${drafts.length + index}`));
      drafts.push(...batch);
      stored.push(...(await Promise.all(batch.map(async (d) => (await store.put(d)).uri))));
    }
    expect(await epochs()).toEqual([expect.any(Number), expect.any(Number)]);
    expect((await epochs()).every((epoch) => epoch >= 2)).toBe(true);
    for (const [index, uri] of stored.entries()) expect((await store.get(uri)).payload).toEqual(drafts[index]!.payload);
    await store.close();
    expect(await journalNames(root)).toEqual([]);
    const reopened = open(root, false);
    for (const [index, uri] of stored.entries()) expect((await reopened.get(uri)).payload).toEqual(drafts[index]!.payload);
  });

  it('serves an artifact whose files could not be written from memory, and stores it synced at the checkpoint', async () => {
    const root = await tempRoot();
    const store = open(root);
    await journalReady(root);
    const d = draft('blocked-file');
    const entry = entryOf(d);
    // A folder where the payload's file goes: writing it fails until the folder is removed.
    await mkdir(blobFile(root, entry.payloadDigest), { recursive: true });
    const stored = await store.put(d);
    expect(await journaled(root)).toEqual(new Set([entry.manifestDigest]));
    await store.written();
    expect(await readdir(path.dirname(manifestFile(root, entry.manifestDigest))).catch(() => [])).toEqual([]);
    expect(await store.has(stored.uri)).toBe(true);
    expect((await store.get(stored.uri)).payload).toEqual({ label: 'blocked-file' });
    await rm(blobFile(root, entry.payloadDigest), { recursive: true });
    await store.close();
    expect(await journalNames(root)).toEqual([]);
    expect(await readFile(blobFile(root, entry.payloadDigest), 'utf8')).toBe(Buffer.from(entry.payloadBytes).toString('utf8'));
    const reopened = open(root, false);
    expect((await reopened.get(stored.uri)).payload).toEqual({ label: 'blocked-file' });
  });

  it('stores an artifact too large for a record synced, as without a journal', async () => {
    const root = await tempRoot();
    const store = open(root, { bytes: MIN_JOURNAL_BYTES });
    await journalReady(root);
    const big = draft('big', { text: 'z'.repeat(MIN_JOURNAL_BYTES) });
    const stored = await store.put(big);
    expect(await journaled(root)).toEqual(new Set());
    expect((await store.get(stored.uri)).payload).toEqual(big.payload);
  });

  it('says how large an artifact its quick put takes: one record, payload and manifest; one byte more is stored synced', async () => {
    expect(open(await tempRoot(), false).quickPutBytes).toBeUndefined();
    // A record is at most 1 MiB and fits a file after its header block; its own header takes 116 bytes.
    expect(open(await tempRoot()).quickPutBytes).toBe(1024 * 1024 - 116);
    expect(open(await tempRoot(), { bytes: 8 * 1024 * 1024 }).quickPutBytes).toBe(1024 * 1024 - 116);
    for (const bytes of [MIN_JOURNAL_BYTES, 1024 * 1024]) {
      const root = await tempRoot();
      const store = open(root, { bytes });
      await journalReady(root);
      const room = store.quickPutBytes!;
      expect(room).toBe(Math.min(1024 * 1024, bytes - JOURNAL_BLOCK) - 116);
      /** A draft whose payload and manifest hold exactly `size` bytes of canonical JSON. */
      const sized = (label: string, size: number): ArtifactDraft => {
        let text = '';
        for (let tries = 0; tries < 5; tries++) {
          const entry = entryOf(draft(label, { text }));
          const have = entry.payloadBytes.byteLength + entry.manifestBytes.byteLength;
          if (have === size) return draft(label, { text });
          text = 'z'.repeat(text.length + size - have);
        }
        throw new Error(`no draft of ${size} bytes`);
      };
      const fits = await store.put(sized('fits', room));
      const over = await store.put(sized('over', room + 1));
      const records = await journaled(root);
      expect(records.has(parseArtifactUri(fits.uri).digest)).toBe(true);
      expect(records.has(parseArtifactUri(over.uri).digest)).toBe(false);
      expect((await store.get(over.uri)).payload).toEqual(sized('over', room + 1).payload);
    }
  });

  it('stops journaling when its files are removed behind its back, and keeps storing', async () => {
    const root = await tempRoot();
    const store = open(root);
    await journalReady(root);
    await rm(path.join(root, 'journal'), { recursive: true });
    const stored = await store.put(draft('after'));
    expect((await store.get(stored.uri)).payload).toEqual({ label: 'after' });
    await mkdir(path.join(root, 'journal'));
    expect((await store.put(draft('later'))).uri).toMatch(/^artifact:\/\/sha256\//);
    expect(await journaled(root)).toEqual(new Set());
  });

  it('a recovery that fails fails the operations waiting for it, naming the journal; the next one tries again', async () => {
    const root = await tempRoot();
    await mkdir(path.join(root, 'journal', 'unreadable.log'), { recursive: true });
    const store = open(root, false);
    const error = await rejection(store.put(draft('blocked')));
    expect(error.code).toBe('ARTIFACT_STORE_UNAVAILABLE');
    expect(error.message).toContain(path.join(root, 'journal'));
    expect(error.message).toContain('unreadable.log');
    expect((await rejection(store.has(`artifact://sha256/${'0'.repeat(64)}`))).code).toBe('ARTIFACT_STORE_UNAVAILABLE');
    await rm(path.join(root, 'journal', 'unreadable.log'), { recursive: true });
    const stored = await store.put(draft('blocked'));
    expect((await store.get(stored.uri)).payload).toEqual({ label: 'blocked' });
  });

  it('rejects a journal size that is not whole blocks, or too small, naming the field', async () => {
    const root = await tempRoot();
    for (const bytes of [1000, MIN_JOURNAL_BYTES - JOURNAL_BLOCK, MIN_JOURNAL_BYTES + 1, Number.NaN]) {
      let error: unknown;
      try {
        createLocalFolderArtifactStore({ root, journal: { bytes } });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(JacobianError);
      expect((error as JacobianError).code).toBe('CONFIG_INVALID');
      expect((error as JacobianError).path).toEqual(['journal', 'bytes']);
    }
    expect(await journalNames(root)).toEqual([]);
  });
});

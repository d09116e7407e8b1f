/**
 * Puts with deferSync in a journaled local folder store (local-journal.ts, JournalPutOptions.defer):
 * when the journal is synced, seen through `fdatasync`, which this file wraps to count (and, when
 * asked, fail) the syncs of journal files.
 */
import { existsSync, readlinkSync } from 'node:fs';
import type * as Fs from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { rejection } from '../reasoning/test-fixtures.js';
import { createLocalFolderArtifactStore, type LocalFolderArtifactStore } from './local-folder-store.js';
import { DEFERRED_SYNC_MAX_MS } from './local-journal.js';
import { parseArtifactUri, type ArtifactDraft } from './manifest.js';

/** Syncs of journal files: how many started, and whether the next one fails. */
const journalSyncs = vi.hoisted(() => ({ started: 0, failNext: false }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const fdatasync = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void): void => {
    let target = '';
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // not a journal file as far as this test can tell
    }
    if (/\/journal\/[^/]+\.log$/.test(target)) {
      journalSyncs.started += 1;
      if (journalSyncs.failNext) {
        journalSyncs.failNext = false;
        const error: NodeJS.ErrnoException = new Error('EIO: i/o error, fdatasync');
        error.code = 'EIO';
        setImmediate(() => callback(error));
        return;
      }
    }
    fs.fdatasync(fd, callback);
  };
  return { ...fs, default: { ...fs, fdatasync }, fdatasync };
});

function draft(label: string): ArtifactDraft {
  return {
    schema_uri: 'https://jacobian.dev/schemas/journal-defer-test/v1',
    semantics_uri: 'https://jacobian.dev/semantics/journal-defer-test',
    payload: { label },
    summary: { label },
  };
}

function manifestFile(root: string, uri: string): string {
  const hex = parseArtifactUri(uri).digest;
  return path.join(root, 'manifests', 'sha256', hex.slice(0, 2), hex);
}

describe('a journaled local folder store, puts with deferSync', () => {
  const cleanups: (() => Promise<void>)[] = [];
  beforeEach(() => {
    journalSyncs.failNext = false;
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A store whose journal files are made (their own syncs are done and not counted). */
  async function ready(): Promise<{ root: string; store: LocalFolderArtifactStore }> {
    const root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-journal-defer-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const store = createLocalFolderArtifactStore({ root, journal: true });
    cleanups.push(() => store.close());
    // The first put waits for the journal files; it is synced like any other.
    await store.put(draft('ready'));
    const logs = (await readdir(path.join(root, 'journal'))).filter((name) => name.endsWith('.log'));
    expect(logs).toHaveLength(2);
    journalSyncs.started = 0;
    return { root, store };
  }

  /** Let the thread pool finish what it was given (a sync, file writes); real time, whatever the timers. */
  const settle = async (): Promise<void> => {
    for (const until = performance.now() + 50; performance.now() < until; ) await new Promise((done) => setImmediate(done));
  };

  it('return before any sync, are read at once, and become durable together with one sync when asked', async () => {
    const { root, store } = await ready();
    // The fallback's timer (faked, so it never fires) is not what syncs them.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const first = await store.put(draft('deferred-1'), { deferSync: true });
    const second = await store.put(draft('deferred-2'), { deferSync: true });
    await settle();
    expect(journalSyncs.started).toBe(0);
    expect((await store.get(first.uri)).payload).toEqual({ label: 'deferred-1' });
    expect(await store.has(second.uri)).toBe(true);
    // Their files wait for their records to be durable.
    expect([existsSync(manifestFile(root, first.uri)), existsSync(manifestFile(root, second.uri))]).toEqual([false, false]);

    await store.sync([first.uri, second.uri]);
    expect(journalSyncs.started).toBe(1);
    // Nothing waits any more: a second sync of them, or of anything else, syncs nothing.
    await store.sync([first.uri, second.uri, 'artifact://sha256/' + 'a'.repeat(64)]);
    await store.sync([]);
    expect(journalSyncs.started).toBe(1);
    await store.written();
    expect([existsSync(manifestFile(root, first.uri)), existsSync(manifestFile(root, second.uri))]).toEqual([true, true]);

    // A put without deferSync is synced before it returns.
    await store.put(draft('synced'));
    expect(journalSyncs.started).toBe(2);
  });

  it("are made durable by a later put's sync, by a put of the same artifact without deferSync, and at close", async () => {
    const { root, store } = await ready();
    // The fallback's timer (faked, so it never fires) is not what makes any of them durable.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const deferred = await store.put(draft('before-a-synced-put'), { deferSync: true });
    await store.put(draft('synced-after-it'));
    expect(journalSyncs.started).toBe(1);
    await store.sync([deferred.uri]);
    expect(journalSyncs.started).toBe(1);

    // The same artifact put again without deferSync returns only once it is durable, and starts
    // that sync itself.
    const again = await store.put(draft('put-twice'), { deferSync: true });
    expect(journalSyncs.started).toBe(1);
    expect(await store.put(draft('put-twice'))).toEqual(again);
    expect(journalSyncs.started).toBe(2);
    vi.useRealTimers();

    const atClose = await store.put(draft('until-close'), { deferSync: true });
    // Closing checkpoints the journal: the record is synced, then its files are written and synced.
    await store.close();
    const reopened = createLocalFolderArtifactStore({ root, journal: false });
    cleanups.push(() => reopened.close());
    for (const uri of [deferred.uri, again.uri, atClose.uri]) expect(existsSync(manifestFile(root, uri))).toBe(true);
    expect((await reopened.get(atClose.uri)).payload).toEqual({ label: 'until-close' });
  });

  it(`are synced at the latest ${DEFERRED_SYNC_MAX_MS} ms after the first of them, when nobody asks`, async () => {
    const { store } = await ready();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stored = await store.put(draft('nobody-asks'), { deferSync: true });
    vi.advanceTimersByTime(DEFERRED_SYNC_MAX_MS - 1);
    await settle();
    expect(journalSyncs.started).toBe(0);
    vi.advanceTimersByTime(1);
    await settle();
    expect(journalSyncs.started).toBe(1);
    vi.useRealTimers();
    await store.sync([stored.uri]);
    expect(journalSyncs.started).toBe(1);
  });

  it('whose sync failed make sync of them reject, naming the journal, until a later put stores them', async () => {
    const { root, store } = await ready();
    const stored = await store.put(draft('sync-fails'), { deferSync: true });
    journalSyncs.failNext = true;
    const failure = await rejection(store.sync([stored.uri]));
    expect(failure.code).toBe('ARTIFACT_STORE_UNAVAILABLE');
    expect(failure.message).toContain(path.join(root, 'journal'));
    expect(failure.message).toContain('EIO');
    // Asking again does not make it durable.
    expect((await rejection(store.sync([stored.uri]))).code).toBe('ARTIFACT_STORE_UNAVAILABLE');
    // A sync naming other artifacts is not failed by it.
    await store.sync([]);
    // The journal is no longer used: putting it again stores its files synced, and then it is durable.
    expect(await store.put(draft('sync-fails'))).toEqual(stored);
    await store.sync([stored.uri]);
    expect(existsSync(manifestFile(root, stored.uri))).toBe(true);
    const reopened = createLocalFolderArtifactStore({ root, journal: false });
    cleanups.push(() => reopened.close());
    expect((await reopened.get(stored.uri)).payload).toEqual({ label: 'sync-fails' });
  });

  it('rejects a sync of something that is not an artifact URI, naming its place, and any sync once closed', async () => {
    const { store } = await ready();
    const bad = await rejection(store.sync(['artifact://sha256/' + 'a'.repeat(64), 'not-a-uri']));
    expect(bad.code).toBe('INVALID_REQUEST');
    expect(bad.path).toEqual(['uris', 1]);
    await store.close();
    expect((await rejection(store.sync([]))).code).toBe('ARTIFACT_STORE_UNAVAILABLE');
  });
});

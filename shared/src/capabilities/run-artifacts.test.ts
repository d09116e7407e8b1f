import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { createLocalFolderArtifactStore } from '../artifacts/local-folder-store.js';
import type { ArtifactDraft } from '../artifacts/manifest.js';
import { prepareArtifact, type ArtifactStore, type StoredArtifact } from '../artifacts/store.js';
import { JacobianError } from '../errors.js';
import { RunArtifacts } from './run-artifacts.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

function draft(payload: string, parents: string[] = []): ArtifactDraft {
  return { schema_uri: 'https://jacobian.dev/schemas/test/v1', semantics_uri: 'https://jacobian.dev/semantics/test/v1', payload, parents, summary: {} };
}

/**
 * A real store in a temporary folder whose puts wait for `release()`; `log` records when each
 * put started and ended, so a test can see what waited for what.
 */
async function gatedStore(options: { fail?: (draft: ArtifactDraft) => JacobianError | null } = {}) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'jacobian-run-artifacts-'));
  roots.push(root);
  const real = createLocalFolderArtifactStore({ root, limits: { maxPayloadBytes: 200 } });
  const log: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const signals: (AbortSignal | undefined)[] = [];
  const store: ArtifactStore = {
    ...real,
    put: async (d, putOptions) => {
      const name = JSON.stringify(d.payload).slice(1, -1);
      signals.push(putOptions?.signal);
      log.push(`start ${name}`);
      await gate;
      const failure = options.fail?.(d) ?? null;
      if (failure !== null) {
        log.push(`failed ${name}`);
        throw failure;
      }
      const stored = await real.put(d, putOptions);
      log.push(`stored ${name}`);
      return stored;
    },
  };
  return { real, store, log, signals, release: () => open() };
}

/** Let every pending callback and timer of this turn run. */
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

describe('RunArtifacts', () => {
  it('answers a kept draft with the URI and manifest put gives it, before the write ends', async () => {
    const { real, store, log, signals, release } = await gatedStore();
    const run = new AbortController();
    const artifacts = new RunArtifacts(store, run.signal);
    const kept = await artifacts.keep(draft('a'));
    expect(kept).toEqual({ uri: prepareArtifact(draft('a'), real.limits).uri, manifest: prepareArtifact(draft('a'), real.limits).manifest });
    await turn();
    expect(log).toEqual(['start a']);
    expect(await real.has(kept.uri)).toBe(false);
    let settled: JacobianError | null | undefined;
    const settling = artifacts.settle().then((failure) => (settled = failure));
    await turn();
    expect(settled).toBeUndefined();
    release();
    await settling;
    expect(settled).toBeNull();
    expect((await real.get(kept.uri)).payload).toBe('a');
    // The write runs under the run's signal.
    expect(signals).toEqual([run.signal]);
  });

  it('rejects a draft put would reject, with the same error, and writes nothing', async () => {
    const { real, store, log } = await gatedStore();
    const artifacts = new RunArtifacts(store, new AbortController().signal);
    const tooLarge = draft('x'.repeat(300));
    const fromPut = await real.put(tooLarge).then(
      () => null,
      (error: unknown) => error as JacobianError,
    );
    const fromKeep = await artifacts.keep(tooLarge).then(
      () => null,
      (error: unknown) => error as JacobianError,
    );
    expect(fromPut?.code).toBe('SIZE_LIMIT_EXCEEDED');
    expect(fromKeep).toBeInstanceOf(JacobianError);
    expect(fromKeep?.code).toBe(fromPut?.code);
    expect(fromKeep?.message).toBe(fromPut?.message);
    const invalid = { ...draft('y'), extra: 1 } as ArtifactDraft;
    expect(((await artifacts.keep(invalid).catch((error: unknown) => error)) as JacobianError).code).toBe('INVALID_REQUEST');
    expect(log).toEqual([]);
    expect(await artifacts.settle()).toBeNull();
  });

  it('gives the first failed write from settle, after every write has ended', async () => {
    const { real, store, log, release } = await gatedStore({
      fail: (d) => (d.payload === 'bad' ? new JacobianError('ARTIFACT_STORE_UNAVAILABLE', 'the disk is gone') : null),
    });
    const artifacts = new RunArtifacts(store, new AbortController().signal);
    await artifacts.keep(draft('bad'));
    const good = await artifacts.keep(draft('good'));
    release();
    const failure = await artifacts.settle();
    expect(failure).toMatchObject({ code: 'ARTIFACT_STORE_UNAVAILABLE', message: 'the disk is gone' });
    expect(log).toEqual(['start bad', 'start good', 'failed bad', 'stored good']);
    expect(await real.has(good.uri)).toBe(true);
  });

  it('keeps the same draft once, and waits for writes kept while it waits', async () => {
    const { store, log, release } = await gatedStore();
    const artifacts = new RunArtifacts(store, new AbortController().signal);
    const first = await artifacts.keep(draft('a'));
    expect(await artifacts.keep(draft('a'))).toEqual(first);
    const settling = artifacts.settle();
    await artifacts.keep(draft('b'));
    release();
    expect(await settling).toBeNull();
    expect(log.slice(0, 2)).toEqual(['start a', 'start b']);
    expect(log.slice(2).sort()).toEqual(['stored a', 'stored b']);
  });

  it('makes reads of a kept artifact, and puts naming it as a parent, wait for its write', async () => {
    const { real, store, log, release } = await gatedStore();
    const artifacts = new RunArtifacts(store, new AbortController().signal);
    const parent = await artifacts.keep(draft('parent'));
    const reads: Promise<unknown>[] = [
      artifacts.store.get(parent.uri).then((loaded) => log.push(`got ${JSON.stringify(loaded.payload).slice(1, -1)}`)),
      artifacts.store.getManifest(parent.uri).then(() => log.push('got manifest')),
      artifacts.store.has(parent.uri).then((has) => log.push(`has ${has}`)),
    ];
    const child: Promise<StoredArtifact> = artifacts.store.put(draft('child', [parent.uri]));
    // A kept child of a kept parent is written after it.
    const keptChild = await artifacts.keep(draft('kept child', [parent.uri]));
    await turn();
    expect(log).toEqual(['start parent']);
    release();
    await Promise.all(reads);
    expect((await child).manifest.parents).toEqual([parent.uri]);
    expect(await artifacts.settle()).toBeNull();
    expect(log.indexOf('stored parent')).toBeLessThan(log.indexOf('start child'));
    expect(log.indexOf('stored parent')).toBeLessThan(log.indexOf('start kept child'));
    expect(log.indexOf('stored parent')).toBeLessThan(log.indexOf('got parent'));
    expect(log).toContain('has true');
    expect(await real.has(keptChild.uri)).toBe(true);
  });

  it('passes reads and puts of artifacts it did not keep straight to the store', async () => {
    const { real, store, log, release } = await gatedStore();
    release();
    const earlier = await real.put(draft('earlier'));
    const artifacts = new RunArtifacts(store, new AbortController().signal);
    expect((await artifacts.store.get(earlier.uri)).payload).toBe('earlier');
    expect(await artifacts.store.has(earlier.uri)).toBe(true);
    const stored = await artifacts.store.put(draft('plain', [earlier.uri]));
    expect(await real.has(stored.uri)).toBe(true);
    expect(log).toEqual(['start plain', 'stored plain']);
    expect(artifacts.store.limits).toBe(store.limits);
  });
});

import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startS3rver, type S3rverInstance } from '../testing/s3rver.js';
import { createLocalFolderArtifactStore } from './local-folder-store.js';
import type { ArtifactDraft } from './manifest.js';
import { createS3ArtifactStore } from './s3-store.js';
import { stageArtifacts } from './staged.js';
import { describeArtifactStoreContract } from './store-contract.js';
import type { ArtifactStore } from './store.js';

/** Every file under `root` with the sha256 of its bytes: the store's state, byte for byte. */
async function snapshot(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).sort();
  return Promise.all(files.map(async (file) => `${file.slice(root.length)} ${createHash('sha256').update(await readFile(file)).digest('hex')}`));
}

function page(index: number, text: string): ArtifactDraft {
  return { schema_uri: 'jacobian:schema/test.page/v1', semantics_uri: 'jacobian:semantics/test.page/v1', payload: { page: index, text }, summary: { page: index } };
}

describeArtifactStoreContract('staged artifacts over a local folder (before their commit)', async () => {
  const root = await mkdtemp(join(tmpdir(), 'jacobian-staged-contract-'));
  const base = createLocalFolderArtifactStore({ root });
  return {
    store: stageArtifacts(base),
    async [Symbol.asyncDispose]() {
      await base.close();
      await rm(root, { recursive: true, force: true });
    },
  };
});

/** The staging rules, on a store whose whole state `state()` lists. */
function describeStaging(name: string, setUp: () => Promise<{ store: ArtifactStore; state: () => Promise<string[]>; dispose: () => Promise<void> }>): void {
  describe(`staged artifacts over ${name}`, () => {
    test('a discarded run leaves the store byte for byte as it was, and a page an earlier run stored survives it', async () => {
      const { store, state, dispose } = await setUp();
      try {
        // An earlier, successful run stored page 0.
        const earlier = stageArtifacts(store);
        const shared = await earlier.put(page(0, 'shared'));
        await earlier.commit();
        const before = await state();
        expect(before.length).toBeGreaterThan(0);

        // A later run stages the same page and two new ones (one a child of the shared page), then is refused.
        const refused = stageArtifacts(store);
        expect((await refused.put(page(0, 'shared'))).uri).toBe(shared.uri);
        const own = await refused.put(page(1, 'own'));
        const child = await refused.put({ ...page(2, 'child'), parents: [shared.uri, own.uri] });
        // The run reads what it staged, as from the store.
        expect((await refused.get(child.uri)).payload).toEqual({ page: 2, text: 'child' });
        expect(await refused.has(own.uri)).toBe(true);
        expect(await store.has(own.uri)).toBe(false);
        refused.discard();

        expect(await state()).toEqual(before);
        expect((await store.get(shared.uri)).payload).toEqual({ page: 0, text: 'shared' });
        expect(await store.has(own.uri)).toBe(false);
        expect(await store.has(child.uri)).toBe(false);
        await expect(refused.put(page(3, 'late'))).rejects.toMatchObject({ code: 'ARTIFACT_STORE_UNAVAILABLE' });
      } finally {
        await dispose();
      }
    });

    test('a committed run stores every staged artifact, parents first, and later puts go to the store directly', async () => {
      const { store, state, dispose } = await setUp();
      try {
        const run = stageArtifacts(store);
        const first = await run.put(page(0, 'a'));
        const second = await run.put({ ...page(1, 'b'), parents: [first.uri] });
        expect(run.staged).toEqual([first.uri, second.uri]);
        expect(await state()).toEqual([]);
        expect(await run.commit()).toEqual([first.uri, second.uri]);
        expect((await store.get(second.uri)).manifest.parents).toEqual([first.uri]);
        const third = await run.put(page(2, 'c'));
        expect(await store.has(third.uri)).toBe(true);
        await expect(run.commit()).rejects.toMatchObject({ code: 'INTERNAL' });
      } finally {
        await dispose();
      }
    });

    test('a staged artifact whose parent is neither staged nor stored is refused as the store refuses it', async () => {
      const { store, dispose } = await setUp();
      try {
        const run = stageArtifacts(store);
        await expect(run.put({ ...page(0, 'orphan'), parents: [`artifact://sha256/${'0'.repeat(64)}`] })).rejects.toMatchObject({ code: 'ARTIFACT_NOT_FOUND', path: ['parents', 0] });
      } finally {
        await dispose();
      }
    });
  });
}

describeStaging('a local folder store with a journal', async () => {
  const root = await mkdtemp(join(tmpdir(), 'jacobian-staged-'));
  const store = createLocalFolderArtifactStore({ root, journal: true });
  return {
    store,
    async state() {
      // Journaled artifacts are in the journal first, their files once written: both are looked at.
      await store.written();
      return (await snapshot(root)).filter((line) => !line.startsWith('/journal/'));
    },
    async dispose() {
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
});

describe('on s3rver', () => {
  let server: S3rverInstance | undefined;
  beforeAll(async () => {
    server = await startS3rver({ buckets: ['staged'] });
  });
  afterAll(async () => {
    await server?.stop();
  });
  let prefix = 0;
  describeStaging('an S3 store', () => {
    const s = server ?? expect.unreachable('s3rver did not start');
    const area = `area-${prefix++}`;
    const store = createS3ArtifactStore({ endpoint: s.endpoint, region: s.region, bucket: 'staged', prefix: `${area}/`, credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } });
    return Promise.resolve({
      store,
      // Each test has its own prefix in the bucket: its objects are the files under it.
      state: async () => (await snapshot(s.directory)).filter((line) => line.includes(`/${area}/`)),
      dispose: () => store.close(),
    });
  });
});

import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { canonicalize } from '../canonical-json.js';
import { JacobianError } from '../errors.js';
import { createLocalFolderArtifactStore, type LocalFolderArtifactStoreOptions } from './local-folder-store.js';
import { MIN_JOURNAL_BYTES } from './local-journal.js';
import { rejection } from '../reasoning/test-fixtures.js';
import { parseArtifactUri, type ArtifactDraft } from './manifest.js';
import { describeArtifactStoreContract, type ArtifactStoreHarness } from './store-contract.js';
import type { ArtifactStore, ArtifactStoreLimits } from './store.js';

async function tempRoot(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'jacobian-artifacts-'));
}

function blobFile(root: string, hex: string): string {
  return path.join(root, 'blobs', 'sha256', hex.slice(0, 2), hex);
}

function manifestFile(root: string, hex: string): string {
  return path.join(root, 'manifests', 'sha256', hex.slice(0, 2), hex);
}

async function manifestHexes(root: string, uri: string): Promise<{ manifest: string; payload: string }> {
  const manifest = parseArtifactUri(uri).digest;
  const text = await readFile(manifestFile(root, manifest), 'utf8');
  const payload = (JSON.parse(text) as { payload_digest: string }).payload_digest.slice('sha256:'.length);
  return { manifest, payload };
}

/** The digest of a draft's payload (its canonical bytes): the name of its blob. */
function payloadHex(d: ArtifactDraft): string {
  return createHash('sha256').update(canonicalize(d.payload)).digest('hex');
}

/** Flip the first byte of a file, keeping its size (so only the hash can catch it). */
async function flipFirstByte(file: string): Promise<void> {
  const bytes = await readFile(file);
  bytes[0] = bytes[0]! ^ 0x01;
  await writeFile(file, bytes);
}

function makeHarness(limits?: Partial<ArtifactStoreLimits>, prepareShardFolders = false, journal?: LocalFolderArtifactStoreOptions['journal']): () => Promise<ArtifactStoreHarness> {
  return async () => {
    const root = await tempRoot();
    const store = createLocalFolderArtifactStore({ root, prepareShardFolders, ...(limits ? { limits } : {}), ...(journal === undefined ? {} : { journal }) });
    return {
      store,
      async corrupt(uri, part) {
        // A journaled put's files are written after it returns.
        await store.written();
        const hex = await manifestHexes(root, uri);
        await flipFirstByte(part === 'manifest' ? manifestFile(root, hex.manifest) : blobFile(root, hex.payload));
      },
      async [Symbol.asyncDispose]() {
        await store.close();
        await rm(root, { recursive: true, force: true });
      },
    };
  };
}

describeArtifactStoreContract('local folder (default limits)', makeHarness());
describeArtifactStoreContract('local folder (small limits)', makeHarness({ maxPayloadBytes: 1024, maxManifestBytes: 2048 }));
describeArtifactStoreContract('local folder (shard folders prepared)', makeHarness(undefined, true));
describeArtifactStoreContract('local folder (journal)', makeHarness(undefined, true, true));
// Journal files of 16 blocks: puts switch files and checkpoint them, and fall back to synced puts, all the time.
describeArtifactStoreContract('local folder (small journal, small limits)', makeHarness({ maxPayloadBytes: 1024, maxManifestBytes: 2048 }, false, { bytes: MIN_JOURNAL_BYTES }));

/** Every file under `dir`, relative to it. */
async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
}

/** The store's folder holds two files (one artifact's payload and manifest), none of them a temp file. */
async function expectOneArtifactAndNoTemp(root: string): Promise<void> {
  const files = await listFiles(root);
  expect(files).toHaveLength(2);
  expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
}

const draft: ArtifactDraft = {
  schema_uri: 'https://jacobian.dev/schemas/test/v1',
  semantics_uri: 'https://jacobian.dev/semantics/test',
  payload: { b: [1, 2, 3], a: 'x' },
  summary: { n: 3 },
};

describe('local folder artifact store', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function open(limits?: Partial<ArtifactStoreLimits>, prepareShardFolders = false): Promise<{ root: string; store: ArtifactStore }> {
    const root = await tempRoot();
    const store = createLocalFolderArtifactStore({ root, prepareShardFolders, ...(limits ? { limits } : {}) });
    cleanups.push(async () => {
      await store.close();
      await rm(root, { recursive: true, force: true });
    });
    return { root, store };
  }

  it('uses the documented layout and stores canonical bytes', async () => {
    const { root, store } = await open();
    const stored = await store.put(draft);
    const hex = await manifestHexes(root, stored.uri);
    expect(await readFile(blobFile(root, hex.payload), 'utf8')).toBe(canonicalize(draft.payload));
    expect(await readFile(manifestFile(root, hex.manifest), 'utf8')).toBe(canonicalize(stored.manifest));
    expect(await listFiles(root)).toEqual(
      [path.join('blobs', 'sha256', hex.payload.slice(0, 2), hex.payload), path.join('manifests', 'sha256', hex.manifest.slice(0, 2), hex.manifest)].sort(),
    );
  });

  it('has default limits of 16 MiB payload and 64 KiB manifest', async () => {
    const { store } = await open();
    expect(store.limits).toEqual({ maxPayloadBytes: 16 * 1024 * 1024, maxManifestBytes: 64 * 1024 });
    const { store: custom } = await open({ maxPayloadBytes: 10 });
    expect(custom.limits).toEqual({ maxPayloadBytes: 10, maxManifestBytes: 64 * 1024 });
  });

  it('leaves no temp files behind, also after concurrent identical puts', async () => {
    const { root, store } = await open();
    const results = await Promise.all(Array.from({ length: 20 }, () => store.put(draft)));
    expect(new Set(results.map((r) => r.uri)).size).toBe(1);
    const files = await listFiles(root);
    expect(files).toHaveLength(2);
    for (const file of files) expect(path.basename(file)).toMatch(/^[0-9a-f]{64}$/);
    expect((await store.get(results[0]!.uri)).payload).toEqual({ a: 'x', b: [1, 2, 3] });
  });

  it('concurrent puts from two store instances on one folder both succeed', async () => {
    const { root, store } = await open();
    const other = createLocalFolderArtifactStore({ root });
    const [a, b] = await Promise.all([store.put(draft), other.put(draft)]);
    expect(a).toEqual(b);
    expect((await listFiles(root)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await other.close();
  });

  it('a rejected put writes no files at all', async () => {
    const { root, store } = await open({ maxPayloadBytes: 64 });
    const missingParent = `artifact://sha256/${'f'.repeat(64)}`;
    expect((await rejection(store.put({ ...draft, parents: [missingParent] }))).code).toBe('ARTIFACT_NOT_FOUND');
    expect((await rejection(store.put({ ...draft, payload: 'x'.repeat(100) }))).code).toBe('SIZE_LIMIT_EXCEEDED');
    expect((await rejection(store.put({ ...draft, payload: 1.5 }))).code).toBe('CANONICAL_JSON_INVALID');
    const controller = new AbortController();
    controller.abort();
    expect((await rejection(store.put(draft, { signal: controller.signal }))).code).toBe('EXECUTION_CANCELLED');
    expect(await listFiles(root)).toEqual([]);
  });

  it('repairs a corrupt payload or manifest when the same artifact is put again', async () => {
    const { root, store } = await open();
    const stored = await store.put(draft);
    const hex = await manifestHexes(root, stored.uri);

    await flipFirstByte(blobFile(root, hex.payload));
    expect((await rejection(store.get(stored.uri))).code).toBe('ARTIFACT_INTEGRITY');
    // The manifest alone is still intact.
    expect(await store.getManifest(stored.uri)).toEqual(stored);
    await store.put(draft);
    expect((await store.get(stored.uri)).payload).toEqual(draft.payload);

    await writeFile(manifestFile(root, hex.manifest), '{"truncated":');
    expect((await rejection(store.getManifest(stored.uri))).code).toBe('ARTIFACT_INTEGRITY');
    await store.put(draft);
    expect(await store.getManifest(stored.uri)).toEqual(stored);
    expect((await listFiles(root)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('puts again after its folders were removed behind its back', async () => {
    const { root, store } = await open();
    const first = await store.put(draft);
    await rm(path.join(root, 'blobs'), { recursive: true });
    await rm(path.join(root, 'manifests'), { recursive: true });
    // The store remembers the folders it made; it must notice they are gone and make them again.
    expect(await store.put(draft)).toEqual(first);
    expect((await store.get(first.uri)).payload).toEqual(draft.payload);
    await expectOneArtifactAndNoTemp(root);
  });

  it('writes only the missing half: a lost manifest is written again over an intact payload', async () => {
    const { root, store } = await open();
    const stored = await store.put(draft);
    const hex = await manifestHexes(root, stored.uri);
    const before = await stat(blobFile(root, hex.payload));
    await rm(manifestFile(root, hex.manifest));
    expect(await store.has(stored.uri)).toBe(false);
    await store.put(draft);
    expect(await store.getManifest(stored.uri)).toEqual(stored);
    const after = await stat(blobFile(root, hex.payload));
    expect(after.ino).toBe(before.ino);
  });

  it('replaces a partial payload left in place without a manifest (a crash during its write)', async () => {
    const { root, store } = await open();
    const payloadText = canonicalize(draft.payload);
    const file = blobFile(root, payloadHex(draft));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, payloadText.slice(0, 5));
    const stored = await store.put(draft);
    expect(await readFile(file, 'utf8')).toBe(payloadText);
    expect((await store.get(stored.uri)).payload).toEqual(draft.payload);
    await expectOneArtifactAndNoTemp(root);
  });

  it('publishes no manifest when the payload cannot be stored', async () => {
    const { root, store } = await open();
    // A folder where the payload file belongs: it can be neither created nor read as a file.
    await mkdir(blobFile(root, payloadHex(draft)), { recursive: true });
    const error = await rejection(store.put(draft));
    expect(error.code).toBe('ARTIFACT_STORE_UNAVAILABLE');
    expect(error.path).toEqual(['payload']);
    const manifests = await listFiles(path.join(root, 'manifests'));
    expect(manifests).toEqual([]);
  });

  it('stores one payload once for concurrent puts of different manifests over it, leaving no partial or temp file', async () => {
    const { root, store } = await open();
    const drafts = Array.from({ length: 8 }, (_, i): ArtifactDraft => ({ ...draft, summary: { n: i } }));
    const results = await Promise.all(drafts.map((d) => store.put(d)));
    expect(new Set(results.map((r) => r.uri)).size).toBe(8);
    for (const result of results) expect((await store.get(result.uri)).payload).toEqual(draft.payload);
    const files = await listFiles(root);
    expect(files).toHaveLength(9);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('does not rewrite an intact object on a repeated put', async () => {
    const { root, store } = await open();
    const stored = await store.put(draft);
    const hex = await manifestHexes(root, stored.uri);
    const before = await stat(blobFile(root, hex.payload));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.put(draft);
    const after = await stat(blobFile(root, hex.payload));
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it('detects a payload whose size differs from payload_bytes, and a missing payload blob', async () => {
    const { root, store } = await open();
    const stored = await store.put(draft);
    const hex = await manifestHexes(root, stored.uri);
    await writeFile(blobFile(root, hex.payload), canonicalize(draft.payload) + ' ');
    const grown = await rejection(store.get(stored.uri));
    expect(grown.code).toBe('ARTIFACT_INTEGRITY');
    expect(grown.message).toMatch(/payload_bytes/);
    await rm(blobFile(root, hex.payload));
    const missing = await rejection(store.get(stored.uri));
    expect(missing.code).toBe('ARTIFACT_INTEGRITY');
    expect(missing.message).toMatch(/missing/);
  });

  it('rejects a child whose parent manifest is corrupt, before writing', async () => {
    const { root, store } = await open();
    const parent = await store.put({ ...draft, payload: 'parent' });
    const hex = await manifestHexes(root, parent.uri);
    await flipFirstByte(manifestFile(root, hex.manifest));
    const before = await listFiles(root);
    const error = await rejection(store.put({ ...draft, parents: [parent.uri] }));
    expect(error.code).toBe('ARTIFACT_INTEGRITY');
    expect(error.path).toEqual(['parents', 0]);
    expect(await listFiles(root)).toEqual(before);
  });

  it('refuses to work after close()', async () => {
    const { store } = await open();
    const stored = await store.put(draft);
    await store.close();
    await store.close();
    for (const call of [() => store.put(draft), () => store.get(stored.uri), () => store.getManifest(stored.uri), () => store.has(stored.uri)]) {
      expect((await rejection(call())).code).toBe('ARTIFACT_STORE_UNAVAILABLE');
    }
  });

  it('rejects invalid configuration', () => {
    for (const [options, field] of [
      [{ root: '' }, ['root']],
      [{ root: '/tmp/x', limits: { maxPayloadBytes: 0 } }, ['limits', 'maxPayloadBytes']],
      [{ root: '/tmp/x', limits: { maxManifestBytes: 1.5 } }, ['limits', 'maxManifestBytes']],
    ] as const) {
      let error: unknown;
      try {
        createLocalFolderArtifactStore(options);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(JacobianError);
      expect((error as JacobianError).code).toBe('CONFIG_INVALID');
      expect((error as JacobianError).path).toEqual(field);
    }
  });

  describe('with its shard folders prepared up front', () => {
    const SHARDS = Array.from({ length: 256 }, (_, index) => index.toString(16).padStart(2, '0'));
    const shardFolders = async (root: string, kind: string): Promise<string[]> => (await readdir(path.join(root, kind, 'sha256'))).sort();

    it('makes all 2 x 256 shard folders, and puts into them without making any', async () => {
      const { root, store } = await open(undefined, true);
      const stored = await store.put(draft);
      expect(await shardFolders(root, 'blobs')).toEqual(SHARDS);
      expect(await shardFolders(root, 'manifests')).toEqual(SHARDS);
      expect((await store.get(stored.uri)).payload).toEqual(draft.payload);
      expect(await listFiles(root)).toHaveLength(2);
    });

    it('completes a layout that a crash left partial, keeping what is stored', async () => {
      const { root, store } = await open();
      const stored = await store.put(draft);
      await store.close();
      const hex = await manifestHexes(root, stored.uri);
      const spare = SHARDS.find((name) => name !== hex.payload.slice(0, 2) && name !== hex.manifest.slice(0, 2))!;
      await mkdir(path.join(root, 'blobs', 'sha256', spare));
      const reopened = createLocalFolderArtifactStore({ root, prepareShardFolders: true });
      expect((await reopened.get(stored.uri)).payload).toEqual(draft.payload);
      await reopened.close();
      expect(await shardFolders(root, 'blobs')).toEqual(SHARDS);
      expect(await shardFolders(root, 'manifests')).toEqual(SHARDS);
      expect(await listFiles(root)).toHaveLength(2);
    });

    it('puts again after a prepared folder was removed behind its back', async () => {
      const { root, store } = await open(undefined, true);
      const first = await store.put(draft);
      await rm(path.join(root, 'blobs'), { recursive: true });
      await rm(path.join(root, 'manifests'), { recursive: true });
      expect(await store.put(draft)).toEqual(first);
      expect((await store.get(first.uri)).payload).toEqual(draft.payload);
      expect(await listFiles(root)).toHaveLength(2);
    });

    it('when the preparation fails, a put says why, as it would without it', async () => {
      // The root is a file: neither the preparation nor a put can make a folder in it.
      const dir = await tempRoot();
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const root = path.join(dir, 'not-a-folder');
      await writeFile(root, 'x');
      const store = createLocalFolderArtifactStore({ root, prepareShardFolders: true });
      const error = await rejection(store.put(draft));
      expect(error.code).toBe('ARTIFACT_STORE_UNAVAILABLE');
      expect(error.message).toContain('not-a-folder');
      await store.close();
    });
  });

  it('keeps stores with different roots independent', async () => {
    const a = await open();
    const b = await open();
    const stored = await a.store.put(draft);
    expect(await b.store.has(stored.uri)).toBe(false);
  });
});

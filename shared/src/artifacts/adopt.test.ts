import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createLocalFolderArtifactStore, type LocalFolderArtifactStore } from './local-folder-store.js';
import type { ArtifactDraft } from './manifest.js';
import { stageArtifacts } from './staged.js';
import { adoptPreparedArtifact, prepareArtifact, type PreparedArtifact } from './store.js';

const PARENT: ArtifactDraft = { schema_uri: 'jacobian:schema/test.cnf/v1', semantics_uri: 'jacobian:semantics/test.cnf/v1', payload: { text: 'p cnf 2 1\n1 2 0\n' } };

function child(parent: string): ArtifactDraft {
  return {
    schema_uri: 'jacobian:schema/test.model/v1',
    semantics_uri: 'jacobian:semantics/test.model/v1',
    payload: { assignment: Array.from({ length: 2000 }, (_, i) => (i % 3 === 0 ? -(i + 1) : i + 1)) },
    parents: [parent],
    summary: { variables: 2000 },
  };
}

describe('adoptPreparedArtifact: an artifact prepared elsewhere (an isolated kernel), stored without preparing it again', () => {
  let root: string;
  let store: LocalFolderArtifactStore;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'jacobian-adopt-'));
    store = createLocalFolderArtifactStore({ root });
  });
  afterEach(async () => {
    await store.close();
    await rm(root, { recursive: true, force: true });
  });

  function adopt(prepared: PreparedArtifact): Promise<ArtifactDraft> {
    return adoptPreparedArtifact(prepared.uri, prepared.manifestBytes, prepared.payloadBytes, store.limits);
  }

  test('is stored under the URI a put of the draft gives, through a run’s staging, without its payload being parsed', async () => {
    const parent = prepareArtifact(PARENT, store.limits);
    const prepared = prepareArtifact(child(parent.uri), store.limits);
    const staged = stageArtifacts(store);
    const parentDraft = await adopt(parent);
    const draft = await adopt(prepared);
    const payloadRead = vi.spyOn(draft, 'payload', 'get');
    expect((await staged.put(parentDraft)).uri).toBe(parent.uri);
    expect((await staged.put(draft)).uri).toBe(prepared.uri);
    await staged.commit();
    expect(payloadRead).not.toHaveBeenCalled();
    const loaded = await store.get(prepared.uri);
    expect(loaded.payload).toEqual(child(parent.uri).payload);
    expect(loaded.manifest).toEqual(prepared.manifest);
    // Read, the adopted payload is the draft's.
    expect(draft.payload).toEqual(child(parent.uri).payload);
  });

  test.each([
    ['a payload that is not the one its manifest pins', (p: PreparedArtifact) => [p.uri, p.manifestBytes, new TextEncoder().encode('{"assignment":[1]}')] as const, 'payload'],
    ['a manifest that does not hash to the URI', (p: PreparedArtifact) => [p.uri.replace(/.$/, (c) => (c === '0' ? '1' : '0')), p.manifestBytes, p.payloadBytes] as const, 'URI'],
    ['a manifest that is not JSON', (p: PreparedArtifact) => [`artifact://sha256/${'0'.repeat(64)}`, new TextEncoder().encode('not json'), p.payloadBytes] as const, 'URI'],
  ])('refuses %s (ARTIFACT_INTEGRITY) and stores nothing', async (_name, tamper, words) => {
    const prepared = prepareArtifact(PARENT, store.limits);
    const [uri, manifestBytes, payloadBytes] = tamper(prepared);
    const refused = await adoptPreparedArtifact(uri, manifestBytes, payloadBytes, store.limits).then(
      () => null,
      (error: unknown) => error as Error & { code?: string },
    );
    expect(refused?.code).toBe('ARTIFACT_INTEGRITY');
    expect(refused?.message).toContain(words);
    expect(await store.has(prepared.uri)).toBe(false);
  });

  test('refuses bytes over the store’s limits', async () => {
    const prepared = prepareArtifact(PARENT, store.limits);
    await expect(adoptPreparedArtifact(prepared.uri, prepared.manifestBytes, prepared.payloadBytes, { ...store.limits, maxPayloadBytes: 8 })).rejects.toMatchObject({ code: 'ARTIFACT_INTEGRITY' });
  });
});

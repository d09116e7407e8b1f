import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { JacobianError } from '../errors.js';
import { createLocalFolderArtifactStore } from './local-folder-store.js';
import { getTypedArtifactAt, type ExpectedArtifact } from './read-at.js';
import type { ArtifactStore } from './store.js';

const PATH = ['payload', 'thing_uri'];
const EXPECTED: ExpectedArtifact<{ n: number }> = {
  schemaUri: 'jacobian:schema/test.thing/v1',
  semanticsUri: 'jacobian:semantics/test.thing/v1',
  what: 'a stored thing',
  payload: z.object({ n: z.number().int() }).strict(),
  hint: 'pass the thing_uri of test.thing.make',
};

let root: string;
let store: ArtifactStore;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'jacobian-read-at-'));
  store = createLocalFolderArtifactStore({ root });
});

afterAll(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

async function refusal(uri: string): Promise<JacobianError> {
  const error = await getTypedArtifactAt(store, uri, PATH, EXPECTED).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(JacobianError);
  return error as JacobianError;
}

describe('getTypedArtifactAt', () => {
  it('returns the artifact and its parsed payload when the kind and shape are right', async () => {
    const stored = await store.put({ schema_uri: EXPECTED.schemaUri, semantics_uri: EXPECTED.semanticsUri as string, payload: { n: 3 }, parents: [], summary: {} });
    const { artifact, payload } = await getTypedArtifactAt(store, stored.uri, PATH, EXPECTED);
    expect(payload).toEqual({ n: 3 });
    expect(artifact.uri).toBe(stored.uri);
  });

  it('refuses another schema or another semantics as ARTIFACT_TYPE_MISMATCH naming the field, with the hint', async () => {
    for (const draft of [
      { schema_uri: 'jacobian:schema/other/v1', semantics_uri: EXPECTED.semanticsUri as string },
      { schema_uri: EXPECTED.schemaUri, semantics_uri: 'jacobian:semantics/other/v1' },
    ]) {
      const stored = await store.put({ ...draft, payload: { n: 4 }, parents: [], summary: {} });
      const error = await refusal(stored.uri);
      expect(error.code).toBe('ARTIFACT_TYPE_MISMATCH');
      expect(error.path).toEqual(PATH);
      expect(error.message).toBe(`payload.thing_uri: the artifact has schema ${draft.schema_uri}; a stored thing (${EXPECTED.schemaUri}) is required`);
      expect(error.hint).toBe(EXPECTED.hint);
    }
  });

  it('refuses a payload of the wrong shape, naming where inside it', async () => {
    const stored = await store.put({ schema_uri: EXPECTED.schemaUri, semantics_uri: EXPECTED.semanticsUri as string, payload: { n: 'three' }, parents: [], summary: {} });
    const error = await refusal(stored.uri);
    expect(error.code).toBe('ARTIFACT_TYPE_MISMATCH');
    expect(error.path).toEqual(PATH);
    expect(error.message).toMatch(/^payload\.thing_uri: a stored thing is malformed at n: /);
  });

  it('keeps a missing artifact ARTIFACT_NOT_FOUND, naming the field', async () => {
    const error = await refusal(`artifact://sha256/${'0'.repeat(64)}`);
    expect(error.code).toBe('ARTIFACT_NOT_FOUND');
    expect(error.path).toEqual(PATH);
  });
});

import { describe, expect, test } from 'vitest';

import { canonicalBytes, canonicalDigest, type JsonValue } from '../canonical-json.js';
import type { JacobianError, JsonPath } from '../errors.js';
import { ARTIFACT_URI_PATTERN, MANIFEST_SUMMARY_MAX_BYTES, MANIFEST_URI_MAX_LENGTH, artifactUriOf, type ArtifactDraft } from './manifest.js';
import { prepareArtifact, type ArtifactStore } from './store.js';

/** A fresh, empty store for one contract test, plus the means to damage and dispose of it. */
export interface ArtifactStoreHarness {
  store: ArtifactStore;
  /**
   * Damage the stored bytes of an artifact behind the store's back. `part` says which object
   * to damage: the manifest named by `uri`, or the payload blob that manifest references.
   * Without it the corruption tests are skipped.
   */
  corrupt?: (uri: string, part: 'manifest' | 'payload') => Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const MISSING_URI = `artifact://sha256/${'0'.repeat(64)}`;

function draft(overrides: Partial<ArtifactDraft> = {}): ArtifactDraft {
  return {
    schema_uri: 'https://jacobian.dev/schemas/contract-test/v1',
    semantics_uri: 'https://jacobian.dev/semantics/contract-test',
    payload: { graph: { vertices: 3, edges: [[0, 1], [1, 2]] }, label: 'path', ok: true, none: null },
    summary: { vertices: 3, edges: 2 },
    ...overrides,
  };
}

/** Await a promise that must reject, and return what it rejected with. */
async function rejection(promise: Promise<unknown>): Promise<JacobianError> {
  try {
    await promise;
  } catch (error) {
    return error as JacobianError;
  }
  throw new Error('expected the store operation to reject');
}

async function expectRejects(promise: Promise<unknown>, code: string, path?: JsonPath): Promise<JacobianError> {
  const error = await rejection(promise);
  expect(error.code, `error was: ${String(error.message)}`).toBe(code);
  expect(typeof error.message).toBe('string');
  if (path !== undefined) expect(error.path).toEqual(path);
  return error;
}

/**
 * Register the behaviour every {@link ArtifactStore} adapter must show, as a vitest `describe`.
 * `makeStore` is called once per test and must return an empty store; the harness is disposed
 * after the test. Tests of limits use `store.limits`, so running the contract on a store
 * configured with small limits exercises them more cheaply.
 */
export interface ArtifactStoreContractOptions {
  /**
   * Whether the backing server replaces an object atomically under concurrent writes, as
   * every real S3 and a local rename do. s3rver, an emulator, truncates and rewrites files in
   * place, so concurrent puts of one key can leave a torn object there; the concurrent part of
   * the idempotence test is skipped for it (Ceph RGW runs it).
   */
  atomicConcurrentWrites?: boolean;
}

export function describeArtifactStoreContract(
  name: string,
  makeStore: () => Promise<ArtifactStoreHarness>,
  options: ArtifactStoreContractOptions = {},
): void {
  async function withStore(fn: (harness: ArtifactStoreHarness) => Promise<void>): Promise<void> {
    const harness = await makeStore();
    try {
      await fn(harness);
    } finally {
      await harness.store.close();
      await harness[Symbol.asyncDispose]();
    }
  }

  describe(`artifact store contract: ${name}`, () => {
    test('round trip: put returns the URI and manifest that get and getManifest return', () =>
      withStore(async ({ store }) => {
        const input = draft();
        const stored = await store.put(input);
        expect(stored.uri).toMatch(ARTIFACT_URI_PATTERN);
        expect(stored.uri).toBe(artifactUriOf(stored.manifest));
        expect(stored.manifest).toEqual({
          schema_uri: input.schema_uri,
          semantics_uri: input.semantics_uri,
          payload_digest: `sha256:${canonicalDigest(input.payload)}`,
          payload_bytes: canonicalBytes(input.payload).byteLength,
          parents: [],
          summary: input.summary,
        });
        expect(await store.has(stored.uri)).toBe(true);
        expect(await store.getManifest(stored.uri)).toEqual(stored);
        expect(await store.get(stored.uri)).toEqual({ ...stored, payload: input.payload });
      }));

    test('round trip returns the payload in canonical form (NFC strings, -0 as 0)', () =>
      withStore(async ({ store }) => {
        const stored = await store.put(draft({ payload: { name: 'Cafe\u0301', zero: -0, list: ['\u212b'] } }));
        const loaded = await store.get(stored.uri);
        expect(loaded.payload).toEqual({ name: 'Caf\u00e9', zero: 0, list: ['\u00c5'] });
        expect(Object.is((loaded.payload as { zero: number }).zero, 0)).toBe(true);
      }));

    test('identity is deterministic: key order and NFC form do not change the URI', async () => {
      const a: ArtifactDraft = {
        schema_uri: 'https://jacobian.dev/schemas/contract-test/v1',
        semantics_uri: 'https://jacobian.dev/semantics/caf\u00e9',
        payload: { b: { y: 2, x: 1 }, a: ['\u00e9'] },
        summary: { second: 2, first: 1 },
      };
      const b = {
        summary: { first: 1, second: 2 },
        payload: { a: ['e\u0301'], b: { x: 1, y: 2 } },
        semantics_uri: 'https://jacobian.dev/semantics/cafe\u0301',
        schema_uri: 'https://jacobian.dev/schemas/contract-test/v1',
      } satisfies ArtifactDraft;
      let first = '';
      await withStore(async ({ store }) => {
        first = (await store.put(a)).uri;
        expect((await store.put(b)).uri).toBe(first);
        expect(prepareArtifact(a, store.limits).uri).toBe(first);
        const different = await store.put({ ...a, payload: { b: { y: 2, x: 1 }, a: ['e'] } });
        expect(different.uri).not.toBe(first);
      });
      // A different, fresh store instance derives the same identity.
      await withStore(async ({ store }) => {
        expect((await store.put(b)).uri).toBe(first);
      });
    });

    test('put is idempotent, also when the same draft is put concurrently', () =>
      withStore(async ({ store }) => {
        const first = await store.put(draft());
        expect(await store.put(draft())).toEqual(first);
        if (options.atomicConcurrentWrites !== false) {
          const concurrent = await Promise.all(Array.from({ length: 5 }, () => store.put(draft())));
          for (const result of concurrent) expect(result).toEqual(first);
        }
        expect((await store.get(first.uri)).payload).toEqual(draft().payload);
      }));

    test('parents: stored parents are accepted and recorded in order', () =>
      withStore(async ({ store }) => {
        const p1 = await store.put(draft({ payload: 1 }));
        const p2 = await store.put(draft({ payload: 2 }));
        const child = await store.put(draft({ parents: [p2.uri, p1.uri] }));
        expect(child.manifest.parents).toEqual([p2.uri, p1.uri]);
        expect((await store.getManifest(child.uri)).manifest.parents).toEqual([p2.uri, p1.uri]);
        const orphan = await store.put(draft());
        expect(orphan.uri).not.toBe(child.uri);
      }));

    test('a missing parent is rejected with its path and nothing is written', () =>
      withStore(async ({ store }) => {
        const parent = await store.put(draft({ payload: 'parent' }));
        const child = draft({ payload: 'child', parents: [parent.uri, MISSING_URI] });
        const error = await expectRejects(store.put(child), 'ARTIFACT_NOT_FOUND', ['parents', 1]);
        expect(error.message).toContain('parents[1]');
        expect(await store.has(prepareArtifact(child, store.limits).uri)).toBe(false);
      }));

    test('a payload over limits.maxPayloadBytes is rejected and nothing is written', () =>
      withStore(async ({ store }) => {
        const max = store.limits.maxPayloadBytes;
        // A JSON string of n ASCII characters is n + 2 bytes.
        const tooBig = draft({ payload: 'x'.repeat(max - 1) });
        const error = await expectRejects(store.put(tooBig), 'SIZE_LIMIT_EXCEEDED');
        expect(error.path?.[0]).toBe('payload');
        expect(error.message).toMatch(/maxPayloadBytes/);
        const wouldBe = prepareArtifact(tooBig, { ...store.limits, maxPayloadBytes: max + 16 });
        expect(await store.has(wouldBe.uri)).toBe(false);

        const exact = await store.put(draft({ payload: 'x'.repeat(max - 2) }));
        expect(exact.manifest.payload_bytes).toBe(max);
      }));

    test('a manifest over limits.maxManifestBytes is rejected and nothing is written', (ctx) =>
      withStore(async ({ store }) => {
        const summaryOverhead = canonicalBytes({ s: '' }).byteLength;
        const large = draft({
          schema_uri: 's'.repeat(MANIFEST_URI_MAX_LENGTH),
          semantics_uri: 'm'.repeat(MANIFEST_URI_MAX_LENGTH),
          summary: { s: 'x'.repeat(MANIFEST_SUMMARY_MAX_BYTES - summaryOverhead) },
        });
        const unlimited = { ...store.limits, maxManifestBytes: 1 << 20 };
        const wouldBe = prepareArtifact(large, unlimited);
        if (wouldBe.manifestBytes.byteLength <= store.limits.maxManifestBytes) {
          // Without parents (which need stored artifacts) this store's limit is out of reach.
          ctx.skip();
          return;
        }
        const error = await expectRejects(store.put(large), 'SIZE_LIMIT_EXCEEDED');
        expect(error.message).toMatch(/maxManifestBytes/);
        expect(await store.has(wouldBe.uri)).toBe(false);
      }));

    test.each<[string, unknown, string, JsonPath]>([
      ['an unknown field', { ...draft(), extra: 1 }, 'INVALID_REQUEST', ['extra']],
      ['an empty schema_uri', draft({ schema_uri: '' }), 'INVALID_REQUEST', ['schema_uri']],
      ['a too long semantics_uri', draft({ semantics_uri: 'x'.repeat(MANIFEST_URI_MAX_LENGTH + 1) }), 'INVALID_REQUEST', ['semantics_uri']],
      ['a malformed parent URI', draft({ parents: ['artifact://sha256/nope'] }), 'INVALID_REQUEST', ['parents', 0]],
      ['duplicate parents', draft({ parents: [MISSING_URI, MISSING_URI] }), 'INVALID_REQUEST', ['parents', 1]],
      ['a missing payload', { schema_uri: 'a', semantics_uri: 'b' }, 'INVALID_REQUEST', ['payload']],
      ['a float in the payload', draft({ payload: { x: [1, 0.5] } }), 'CANONICAL_JSON_INVALID', ['payload', 'x', 1]],
      ['a non-object summary', { ...draft(), summary: [1] }, 'INVALID_REQUEST', ['summary']],
      ['a float in the summary', draft({ summary: { ratio: 0.5 } }), 'CANONICAL_JSON_INVALID', ['summary', 'ratio']],
    ])('rejects a draft with %s, naming the field', (_label, bad, code, path) =>
      withStore(async ({ store }) => {
        const error = await expectRejects(store.put(bad as ArtifactDraft), code, path);
        expect(error.message.length).toBeGreaterThan(0);
      }),
    );

    test('rejects a summary whose canonical form exceeds its byte limit', () =>
      withStore(async ({ store }) => {
        const error = await expectRejects(
          store.put(draft({ summary: { s: 'x'.repeat(MANIFEST_SUMMARY_MAX_BYTES) } })),
          'SIZE_LIMIT_EXCEEDED',
        );
        expect(error.path?.[0]).toBe('summary');
      }));

    test('a corrupted manifest is detected on read', (ctx) =>
      withStore(async ({ store, corrupt }) => {
        if (corrupt === undefined) return ctx.skip();
        const stored = await store.put(draft());
        await corrupt(stored.uri, 'manifest');
        await expectRejects(store.get(stored.uri), 'ARTIFACT_INTEGRITY', ['uri']);
        await expectRejects(store.getManifest(stored.uri), 'ARTIFACT_INTEGRITY', ['uri']);
      }));

    test('a corrupted payload is detected on read', (ctx) =>
      withStore(async ({ store, corrupt }) => {
        if (corrupt === undefined) return ctx.skip();
        const stored = await store.put(draft());
        await corrupt(stored.uri, 'payload');
        await expectRejects(store.get(stored.uri), 'ARTIFACT_INTEGRITY', ['uri']);
      }));

    test('malformed URIs are rejected as INVALID_REQUEST', () =>
      withStore(async ({ store }) => {
        const hex = 'a'.repeat(64);
        for (const bad of [
          '',
          'artifact://sha256/abc',
          `artifact://sha256/${hex.toUpperCase()}`,
          `artifact://sha256/${hex}/`,
          `artifact://md5/${hex}`,
          `sha256:${hex}`,
          ` artifact://sha256/${hex}`,
        ]) {
          await expectRejects(store.get(bad), 'INVALID_REQUEST', ['uri']);
          await expectRejects(store.getManifest(bad), 'INVALID_REQUEST', ['uri']);
          await expectRejects(store.has(bad), 'INVALID_REQUEST', ['uri']);
        }
      }));

    test('a put with deferSync is read at once, and is durable once sync of its URI resolves; sync checks its URIs', () =>
      withStore(async ({ store }) => {
        const input = draft({ payload: 'deferred' as JsonValue });
        const stored = await store.put(input, { deferSync: true });
        expect(await store.get(stored.uri)).toEqual({ ...stored, payload: input.payload });
        await store.sync([stored.uri, MISSING_URI]);
        await store.sync([]);
        expect(await store.put(input)).toEqual(stored);
        await expectRejects(store.sync([stored.uri, 'artifact://sha256/ABC']), 'INVALID_REQUEST', ['uris', 1]);
      }));

    test('unknown artifacts are not found', () =>
      withStore(async ({ store }) => {
        await expectRejects(store.get(MISSING_URI), 'ARTIFACT_NOT_FOUND', ['uri']);
        await expectRejects(store.getManifest(MISSING_URI), 'ARTIFACT_NOT_FOUND', ['uri']);
        expect(await store.has(MISSING_URI)).toBe(false);
      }));

    test('an aborted signal stops the operation before anything is written', () =>
      withStore(async ({ store }) => {
        const controller = new AbortController();
        controller.abort(new Error('caller gave up'));
        const input = draft({ payload: 'aborted' as JsonValue });
        await expectRejects(store.put(input, { signal: controller.signal }), 'EXECUTION_CANCELLED');
        expect(await store.has(prepareArtifact(input, store.limits).uri)).toBe(false);
        const stored = await store.put(input);
        await expectRejects(store.get(stored.uri, { signal: controller.signal }), 'EXECUTION_CANCELLED');
        await expectRejects(store.getManifest(stored.uri, { signal: controller.signal }), 'EXECUTION_CANCELLED');
      }));
  });
}

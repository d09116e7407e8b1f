/**
 * Artifacts of one run, staged: what the run puts is held here, readable by the run, and written
 * to the store only when the run is known to have succeeded ({@link StagedArtifacts.commit}); a
 * run that fails (refused at a limit, timed out, cancelled, crashed) leaves the store exactly as
 * it was ({@link StagedArtifacts.discard}).
 *
 * Why not write and delete on failure: artifacts are content-addressed and shared. A page a
 * refused run wrote may be the same object another run stored, before or meanwhile, in this
 * process or another runner on the same bucket; deleting it would take it from under that run.
 * Staged artifacts are nobody else's (they live in this object only), so discarding them is
 * always safe, and the store itself is never asked to delete anything.
 *
 * Held in memory: a run's artifacts are bounded by its budget (`max_output_bytes`, at most
 * 16 MiB, of a listing's pages; other capabilities store far less), and the drafts are what the
 * run built anyway. Each is prepared (canonical bytes, digests) once, as it is put; a commit
 * puts them in the order they were staged, each once its staged parents are in, with
 * `deferSync` and without preparing them again, then makes all of them durable with one `sync`.
 */
import { JacobianError } from '../errors.js';
import { parseArtifactUri, type ArtifactDraft } from './manifest.js';
import {
  preparedDraft,
  throwIfAborted,
  throwIfClosed,
  type ArtifactStore,
  type ArtifactStoreLimits,
  type LoadedArtifact,
  type PutOptions,
  type StoredArtifact,
} from './store.js';
import type { JsonValue } from '../canonical-json.js';

interface Staged {
  uri: string;
  /** The stager's own draft, prepared already (see preparedDraft in store.ts): the commit does not compute its bytes again. */
  draft: ArtifactDraft;
  stored: StoredArtifact;
  /** Its canonical payload bytes, parsed only if the run reads it back. */
  payloadBytes: Uint8Array;
}

/** An {@link ArtifactStore} for one run whose puts are staged until {@link commit}. */
export interface StagedArtifacts extends ArtifactStore {
  /** The URIs staged so far, in the order they were first put. */
  readonly staged: readonly string[];
  /**
   * Write every staged artifact to the store and make them durable; afterwards puts go to the
   * store directly. Resolves once all are durable; rejects with the store's error (what was
   * written by then is complete and content-addressed, as any put's).
   */
  commit(options?: { signal?: AbortSignal }): Promise<string[]>;
  /** Drop every staged artifact, writing nothing; later calls fail (`ARTIFACT_STORE_UNAVAILABLE`). */
  discard(): void;
}

/** Stage the artifacts of one run over `store` (see the module comment). */
export function stageArtifacts(store: ArtifactStore): StagedArtifacts {
  const held = new Map<string, Staged>();
  let state: 'staging' | 'committing' | 'committed' | 'discarded' = 'staging';

  function live(operation: string): void {
    throwIfClosed(state === 'discarded', operation);
  }

  async function put(draft: ArtifactDraft, options?: PutOptions): Promise<StoredArtifact> {
    live('put');
    if (state !== 'staging') return store.put(draft, options);
    throwIfAborted(options?.signal, 'put', 'validating the draft');
    const { draft: own, prepared } = preparedDraft(draft, store.limits);
    const known = held.get(prepared.uri);
    if (known !== undefined) return known.stored;
    for (const [index, parent] of prepared.manifest.parents.entries()) {
      throwIfAborted(options?.signal, 'put', `checking parents[${index}]`);
      if (held.has(parent) || (await store.has(parent))) continue;
      throw new JacobianError('ARTIFACT_NOT_FOUND', `parents[${index}]: parent ${parent} is not in this store; parents must be stored before their children`, {
        path: ['parents', index],
        data: { uri: parent },
      });
    }
    live('put');
    if (state !== 'staging') return store.put(draft, options);
    const stored: StoredArtifact = { uri: prepared.uri, manifest: prepared.manifest };
    if (!held.has(prepared.uri)) held.set(prepared.uri, { uri: prepared.uri, draft: own, stored, payloadBytes: prepared.payloadBytes });
    return stored;
  }

  function heldOf(uri: string): Staged | undefined {
    if (state === 'committed') return undefined;
    // A malformed URI is refused as the store refuses it.
    parseArtifactUri(uri);
    return held.get(uri);
  }

  return {
    get limits(): ArtifactStoreLimits {
      return store.limits;
    },
    get quickPutBytes(): number | undefined {
      return store.quickPutBytes;
    },
    get staged(): readonly string[] {
      return [...held.keys()];
    },
    put,
    async get(uri, options): Promise<LoadedArtifact> {
      live('get');
      throwIfAborted(options?.signal, 'get', 'reading the manifest');
      const staged = heldOf(uri);
      // The payload as the store would give it back: its canonical JSON, parsed.
      if (staged !== undefined) return { ...staged.stored, payload: JSON.parse(new TextDecoder().decode(staged.payloadBytes)) as JsonValue };
      return store.get(uri, options);
    },
    async getManifest(uri, options): Promise<StoredArtifact> {
      live('getManifest');
      throwIfAborted(options?.signal, 'getManifest', 'reading the manifest');
      return heldOf(uri)?.stored ?? store.getManifest(uri, options);
    },
    async has(uri): Promise<boolean> {
      live('has');
      return heldOf(uri) !== undefined || store.has(uri);
    },
    async sync(uris): Promise<void> {
      live('sync');
      // Staged artifacts become durable at the commit; the others are the store's.
      if (state === 'committed') return store.sync(uris);
      uris.forEach((uri, index) => {
        try {
          parseArtifactUri(uri);
        } catch (error) {
          throw new JacobianError('INVALID_REQUEST', `uris[${index}]: ${error instanceof Error ? error.message : String(error)}`, { path: ['uris', index], cause: error });
        }
      });
      const others = uris.filter((uri) => !held.has(uri));
      if (others.length > 0) await store.sync(others);
    },
    async commit(options): Promise<string[]> {
      live('commit');
      if (state !== 'staging') throw new JacobianError('INTERNAL', `staged artifacts cannot be committed twice (they are ${state})`);
      state = 'committing';
      const order = [...held.values()];
      const written = new Map<string, Promise<unknown>>();
      for (const staged of order) {
        const parents = staged.stored.manifest.parents.flatMap((parent) => {
          const pending = written.get(parent);
          return pending === undefined ? [] : [pending];
        });
        const write = Promise.all(parents).then(() => store.put(staged.draft, { deferSync: true, ...(options?.signal === undefined ? {} : { signal: options.signal }) }));
        // A failure is reported once, by the Promise.all below.
        write.catch(() => undefined);
        written.set(staged.uri, write);
      }
      try {
        await Promise.all(written.values());
        if (order.length > 0) await store.sync(order.map((staged) => staged.uri));
      } finally {
        state = 'committed';
        held.clear();
      }
      return order.map((staged) => staged.uri);
    },
    discard(): void {
      state = 'discarded';
      held.clear();
    },
    close(): Promise<void> {
      // The store is the caller's to close; a staged set only lets go of what it holds.
      if (state === 'staging') {
        state = 'discarded';
        held.clear();
      }
      return Promise.resolve();
    },
  };
}

/**
 * The artifact store as one run sees it, with writes the run does not wait for.
 *
 * A run's last artifact (a countermodel's stored result, say) used to be written and synced
 * before the capability could build its answer, and the host validated that answer only after
 * the capability returned: the two waited on each other although neither needs the other. An
 * artifact's URI is known as soon as its draft is prepared (content addressing), so
 * {@link RunArtifacts.keep} answers with the URI and manifest at once and writes meanwhile; the
 * host waits for every such write ({@link RunArtifacts.settle}) before it returns the result, so
 * a result still names only artifacts that are stored, and a write that fails fails the run.
 *
 * Within the run the view ({@link RunArtifacts.store}) waits for a kept artifact's write
 * before it reads that artifact or stores a child naming it as a parent, so code that mixes
 * `keep` and `put` sees the same store as if every `keep` had been an awaited `put` (a read or a
 * child of a kept artifact whose write failed fails with that write's error). What waits for no
 * kept write goes to the store in the same turn.
 */
import { prepareArtifact, type ArtifactStore, type PreparedArtifact, type StoredArtifact } from '../artifacts/store.js';
import type { ArtifactDraft } from '../artifacts/manifest.js';
import { JacobianError, toAppError } from '../errors.js';

export class RunArtifacts {
  /** The writes started by {@link keep}, by URI. */
  private readonly writes = new Map<string, Promise<StoredArtifact>>();
  /** What the run's code gets as `context.artifacts`. */
  readonly store: ArtifactStore;

  constructor(
    private readonly base: ArtifactStore,
    private readonly signal: AbortSignal,
  ) {
    const view: ArtifactStore = {
      limits: base.limits,
      put: (draft, options) => this.after(draft.parents ?? [], () => base.put(draft, options)),
      get: (uri, options) => this.after([uri], () => base.get(uri, options)),
      getManifest: (uri, options) => this.after([uri], () => base.getManifest(uri, options)),
      has: (uri) => this.after([uri], () => base.has(uri)),
      close: () => base.close(),
    };
    this.store = view;
  }

  /**
   * Prepare `draft` (its rules and this store's limits, exactly as `put` checks them) and start
   * its write under the run's signal; resolves with its URI and manifest without waiting for the
   * write. A draft that `put` would reject is rejected here, with the same error. The write
   * waits for any kept parent first.
   */
  keep(draft: ArtifactDraft): Promise<StoredArtifact> {
    let prepared: PreparedArtifact;
    try {
      prepared = prepareArtifact(draft, this.base.limits);
    } catch (error) {
      return Promise.reject(toAppError(error));
    }
    const { uri, manifest } = prepared;
    if (!this.writes.has(uri)) {
      const write = this.after(manifest.parents, () => this.base.put(draft, { signal: this.signal })).then((stored) => {
        if (stored.uri !== uri) throw new JacobianError('INTERNAL', `the artifact store stored a kept draft as ${stored.uri}, not as its prepared ${uri}`);
        return stored;
      });
      // Its failure is reported by settle(); it must not also surface as an unhandled rejection.
      write.catch(() => undefined);
      this.writes.set(uri, write);
    }
    return Promise.resolve({ uri, manifest });
  }

  /**
   * Wait for every write started by {@link keep} (including any started while waiting), and
   * give the first failure, or null when all are stored.
   */
  async settle(): Promise<JacobianError | null> {
    let failure: JacobianError | null = null;
    let waited = 0;
    while (waited < this.writes.size) {
      const batch = [...this.writes.values()].slice(waited);
      waited += batch.length;
      for (const outcome of await Promise.allSettled(batch)) {
        if (outcome.status === 'rejected' && failure === null) failure = toAppError(outcome.reason);
      }
    }
    return failure;
  }

  /**
   * `call()`, once the kept writes of these URIs have ended (others are not this run's to wait
   * for); at once, in the same turn, when none of them is being written.
   */
  private after<T>(uris: readonly string[], call: () => Promise<T>): Promise<T> {
    const waits = uris.flatMap((uri) => this.writes.get(uri) ?? []);
    if (waits.length > 0) return Promise.all(waits).then(call);
    try {
      return call();
    } catch (error) {
      return Promise.reject(toAppError(error));
    }
  }
}

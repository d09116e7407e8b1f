import { formatJsonPath } from '../canonical-json.js';
import { JacobianError, type JsonPath } from '../errors.js';
import type { ArtifactStore, LoadedArtifact } from './store.js';

/** The store's errors that say something about the URI a request gave, not about the store. */
const REQUEST_ARTIFACT_ERRORS: ReadonlySet<string> = new Set(['ARTIFACT_NOT_FOUND', 'ARTIFACT_INTEGRITY', 'ARTIFACT_TYPE_MISMATCH']);

/**
 * Read the artifact a request names at `path` (e.g. `['payload', 'result_uri']`). A missing,
 * corrupt or mistyped artifact is the request's error: it keeps its code and names the field;
 * any other failure (the store is down, the read was cancelled) passes through unchanged.
 */
export async function getArtifactAt(store: ArtifactStore, uri: string, path: JsonPath, options: { signal?: AbortSignal } = {}): Promise<LoadedArtifact> {
  try {
    return await store.get(uri, options);
  } catch (error) {
    if (!(error instanceof JacobianError) || !REQUEST_ARTIFACT_ERRORS.has(error.code)) throw error;
    throw new JacobianError(error.code, `${formatJsonPath(path)}: ${error.message}`, { path, cause: error });
  }
}

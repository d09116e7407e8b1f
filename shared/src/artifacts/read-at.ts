import type { z } from 'zod';

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

/** What a request's artifact must be: its schema (and semantics), and its payload's shape. */
export interface ExpectedArtifact<T> {
  readonly schemaUri: string;
  /** Checked too when given. */
  readonly semanticsUri?: string;
  /** What it is, for messages, e.g. "a stored CNF". */
  readonly what: string;
  readonly payload: z.ZodType<T>;
  /** How to give the right artifact, shown with a type mismatch. */
  readonly hint?: string;
}

/**
 * Check that an artifact read for the request field at `path` is the expected kind: the schema
 * (and semantics) of its manifest, and the shape of its payload, which it returns parsed. Any
 * mismatch is the request's ARTIFACT_TYPE_MISMATCH naming the field.
 */
export function checkTypedArtifact<T>(artifact: LoadedArtifact, path: JsonPath, expected: ExpectedArtifact<T>): T {
  const { manifest } = artifact;
  const where = formatJsonPath(path);
  if (manifest.schema_uri !== expected.schemaUri || (expected.semanticsUri !== undefined && manifest.semantics_uri !== expected.semanticsUri)) {
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `${where}: the artifact has schema ${manifest.schema_uri}; ${expected.what} (${expected.schemaUri}) is required`, {
      path,
      ...(expected.hint === undefined ? {} : { hint: expected.hint }),
    });
  }
  const parsed = expected.payload.safeParse(artifact.payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `${where}: ${expected.what} is malformed${at}: ${issue?.message ?? 'it does not match its schema'}`, { path });
  }
  return parsed.data;
}

/**
 * Read the artifact a request names at `path` and check it is the expected kind (see
 * {@link checkTypedArtifact}); errors of the read itself are as {@link getArtifactAt}'s.
 */
export async function getTypedArtifactAt<T>(
  store: ArtifactStore,
  uri: string,
  path: JsonPath,
  expected: ExpectedArtifact<T>,
  options: { signal?: AbortSignal } = {},
): Promise<{ artifact: LoadedArtifact; payload: T }> {
  const artifact = await getArtifactAt(store, uri, path, options);
  return { artifact, payload: checkTypedArtifact(artifact, path, expected) };
}

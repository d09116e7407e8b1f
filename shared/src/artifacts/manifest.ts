import { z } from 'zod';

import { canonicalize, formatJsonPath, sha256Hex, type JsonObject, type JsonValue } from '../canonical-json.js';
import { JacobianError, type JsonPath } from '../errors.js';

/** `artifact://sha256/<64 lowercase hex>`: the digest is sha256 of the canonical manifest. */
export const ARTIFACT_URI_PATTERN = /^artifact:\/\/sha256\/[0-9a-f]{64}$/;

const ARTIFACT_URI_PREFIX = 'artifact://sha256/';

/** `sha256:<64 lowercase hex>`: how a manifest names its payload's digest. */
export const PAYLOAD_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** Longest allowed `schema_uri` / `semantics_uri`. */
export const MANIFEST_URI_MAX_LENGTH = 512;
/** Most parents one artifact may cite. */
export const MANIFEST_MAX_PARENTS = 64;
/** Largest allowed canonical size of `summary`, in UTF-8 bytes. */
export const MANIFEST_SUMMARY_MAX_BYTES = 4096;

/** A well-formed artifact URI (says nothing about whether the artifact exists). */
export const ArtifactUriSchema = z
  .string()
  .regex(ARTIFACT_URI_PATTERN, 'must be an artifact URI of the form artifact://sha256/<64 lowercase hex digits>');

const ManifestUriSchema = z
  .string()
  .min(1, 'must be a non-empty string')
  .max(MANIFEST_URI_MAX_LENGTH, `must be at most ${MANIFEST_URI_MAX_LENGTH} characters`);

const ParentsSchema = z
  .array(ArtifactUriSchema)
  .max(MANIFEST_MAX_PARENTS, `must list at most ${MANIFEST_MAX_PARENTS} parents`)
  .superRefine((parents, ctx) => {
    const seen = new Set<string>();
    parents.forEach((parent, index) => {
      if (seen.has(parent)) {
        ctx.addIssue({ code: 'custom', path: [index], message: `duplicates an earlier parent (${parent}); parents must be unique` });
      }
      seen.add(parent);
    });
  });

/** A JSON object: not null, not an array, and a plain object (its prototype Object's, or none). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A JSON object whose canonical form fits in {@link MANIFEST_SUMMARY_MAX_BYTES}. The value
 * passes through unchanged (no copying), so what is validated is what gets canonicalized.
 */
const SummarySchema = z
  .custom<JsonObject>(isPlainObject, { message: 'must be a plain JSON object' })
  .superRefine((summary, ctx) => {
    try {
      canonicalize(summary, { maxBytes: MANIFEST_SUMMARY_MAX_BYTES });
    } catch (error) {
      if (!(error instanceof JacobianError)) throw error;
      ctx.addIssue({
        code: 'custom',
        path: error.path ?? [],
        // Lets callers that turn issues into JacobianErrors keep the precise code.
        params: { jacobianCode: error.code },
        message:
          error.code === 'SIZE_LIMIT_EXCEEDED'
            ? `canonical summary must be at most ${MANIFEST_SUMMARY_MAX_BYTES} UTF-8 bytes (${error.message})`
            : error.message,
      });
    }
  });

/**
 * The manifest of an artifact. Its canonical JSON is hashed to form the artifact URI, so
 * everything that identifies an artifact lives here; the payload is referenced by digest.
 */
export const ArtifactManifestSchema = z
  .object({
    /** What shape the payload has (e.g. a JSON Schema id). */
    schema_uri: ManifestUriSchema,
    /** What the payload means (e.g. "a proof that graph G is 3-colourable"). */
    semantics_uri: ManifestUriSchema,
    payload_digest: z
      .string()
      .regex(PAYLOAD_DIGEST_PATTERN, 'must be sha256:<64 lowercase hex digits> of the canonical payload'),
    payload_bytes: z.int().min(0, 'must be a non-negative integer (UTF-8 bytes of the canonical payload)'),
    /** Artifacts this one was derived from; order is kept as given. */
    parents: ParentsSchema,
    /** Small, human- and agent-readable facts about the payload. */
    summary: SummarySchema,
  })
  .strict();

/** A validated artifact manifest. */
export type ArtifactManifest = z.infer<typeof ArtifactManifestSchema>;

/** What a caller hands to a store; the store derives the manifest from it. */
export interface ArtifactDraft {
  schema_uri: string;
  semantics_uri: string;
  payload: JsonValue;
  parents?: string[];
  summary?: Record<string, JsonValue>;
}

/**
 * Runtime shape check for {@link ArtifactDraft}. The payload is only checked for presence
 * here; its content is validated by canonicalization, which reports precise paths.
 */
export const ArtifactDraftSchema = z
  .object({
    schema_uri: ManifestUriSchema,
    semantics_uri: ManifestUriSchema,
    payload: z.custom<JsonValue>((value) => value !== undefined, { message: 'is required (any canonical JSON value)' }),
    parents: ParentsSchema.optional(),
    summary: SummarySchema.optional(),
  })
  .strict();

/** The URI of the artifact with this manifest: sha256 of its canonical JSON. */
export function artifactUriOf(manifest: ArtifactManifest): string {
  return ARTIFACT_URI_PREFIX + sha256Hex(canonicalize(manifest));
}

/**
 * Split an artifact URI into its manifest digest (64 lowercase hex digits).
 *
 * @param path where the URI came from, for the error (default `['uri']`).
 * @throws JacobianError `INVALID_REQUEST` if `uri` is not `artifact://sha256/<64 lowercase hex>`.
 */
export function parseArtifactUri(uri: unknown, path: JsonPath = ['uri']): { digest: string } {
  if (typeof uri !== 'string' || !ARTIFACT_URI_PATTERN.test(uri)) {
    const shown = typeof uri === 'string' ? JSON.stringify(uri.length > 100 ? `${uri.slice(0, 100)}…` : uri) : typeof uri;
    throw new JacobianError(
      'INVALID_REQUEST',
      `${formatJsonPath(path)} must be an artifact URI of the form artifact://sha256/<64 lowercase hex digits>, got ${shown}`,
      { path },
    );
  }
  return { digest: uri.slice(ARTIFACT_URI_PREFIX.length) };
}

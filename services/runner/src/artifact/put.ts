import { z } from 'zod';
import { ArtifactUriSchema, canonicalize, refusingReservedKeys, type CapabilityDefinition } from '@jacobian/shared';

/**
 * Schema and semantics URIs in the `jacobian:` namespace name our own typed artifacts, whose
 * contents our capabilities validated. A client-supplied artifact may not claim them:
 * otherwise `artifact.put` could forge, say, a graph artifact that graph capabilities trust.
 */
const RESERVED_PREFIX = 'jacobian:';

const ClientUri = z
  .string()
  .min(3)
  .max(512)
  .regex(/^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/, 'must be an absolute URI (scheme:rest) without spaces')
  .refine((uri) => !uri.toLowerCase().startsWith(RESERVED_PREFIX), {
    message: `the ${RESERVED_PREFIX} namespace is reserved for artifacts that Jacobian capabilities produce`,
  });

export const ArtifactPutInput = z
  .object({
    schema_uri: ClientUri.describe('URI naming the payload format (not in the reserved jacobian: namespace)'),
    semantics_uri: ClientUri.describe('URI naming what the payload means'),
    payload: z.unknown().describe('any canonical JSON value: no floats (send big or rational numbers as strings)'),
    parents: z.array(ArtifactUriSchema).max(64).default([]).describe('artifact URIs this one derives from; each must exist'),
    summary: refusingReservedKeys(z.record(z.string(), z.unknown()).default({}).describe('small JSON object describing the payload (at most 4 KiB)')),
  })
  .strict()
  .refine((input) => input.payload !== undefined, { path: ['payload'], message: 'payload is required' })
  .refine((input) => new Set(input.parents).size === input.parents.length, { path: ['parents'], message: 'parents must be distinct' });
export type ArtifactPutInput = z.infer<typeof ArtifactPutInput>;

export const ArtifactPutOutput = z
  .object({
    artifact_uri: z.string(),
    payload_digest: z.string(),
    payload_bytes: z.number().int(),
  })
  .strict();
export type ArtifactPutOutput = z.infer<typeof ArtifactPutOutput>;

export const artifactPut: CapabilityDefinition<ArtifactPutInput, ArtifactPutOutput> = {
  id: 'artifact.put',
  version: '1.0.0',
  title: 'Store a generic artifact',
  description:
    'Materializes a JSON payload as a content-addressed artifact (schema URI, semantics URI, payload, parents, summary) after canonicalizing it. It confers no domain semantics: a graph stored this way is not a graph artifact that graph capabilities accept.',
  tags: ['artifact', 'storage', 'materialization'],
  keywords: ['store JSON', 'save data', 'upload', 'persist', 'content-addressed storage', 'artifact storage'],
  domain: 'artifact',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'light',
  input_kinds: ['STRUCTURED_REQUEST'],
  accepted_artifact_types: [],
  produced_artifact_types: [],
  input: ArtifactPutInput,
  output: ArtifactPutOutput,
  examples: [
    {
      title: 'A small note with a parent-free summary',
      mode: 'EXPLORE',
      payload: {
        schema_uri: 'urn:example:schema:note/v1',
        semantics_uri: 'urn:example:semantics:note/v1',
        payload: { text: 'conjecture: every tree is bipartite' },
        summary: { kind: 'note' },
      },
    },
  ],
  relationships: [],
  assurance_ceiling: 'COMPUTED',
  scope_rule: 'Covers exactly the supplied payload; storing it asserts nothing about its mathematical content.',
  limits: { max_parents: 64, max_summary_bytes: 4096 },
  async run(input, context) {
    // Check canonical form up front so a float or a bad string is reported at its place in
    // the request (payload.payload...) and nothing is written.
    canonicalize(input.payload, { path: ['payload', 'payload'], maxBytes: context.artifacts.limits.maxPayloadBytes });
    canonicalize(input.summary, { path: ['payload', 'summary'], maxBytes: 4096 });
    const stored = await context.artifacts.put(
      {
        schema_uri: input.schema_uri,
        semantics_uri: input.semantics_uri,
        // The store canonicalizes and rejects floats, bad strings and oversize payloads before writing.
        payload: input.payload as never,
        parents: input.parents,
        summary: input.summary as never,
      },
      { signal: context.signal },
    );
    return {
      status: 'COMPLETED',
      output: {
        artifact_uri: stored.uri,
        payload_digest: stored.manifest.payload_digest,
        payload_bytes: stored.manifest.payload_bytes,
      },
      scope: { kind: 'EXACT_INPUT', statement: 'the supplied payload, stored byte-for-byte in canonical form', input_uris: input.parents },
      completeness: { status: 'COMPLETE', basis: 'the whole payload was canonicalized and stored' },
      qualifiers: ['EXACT', 'DETERMINISTIC'],
      assurance: { level: 'COMPUTED', basis: 'storage only; no mathematical content was checked', verification_record_uri: null, checker_id: null },
      obligations: [],
      relationships: input.parents.map((parent) => ({ subject: stored.uri, predicate: 'DERIVED_FROM' as const, object: parent })),
      artifact_uris: [stored.uri],
      diagnostics: [],
    };
  },
};

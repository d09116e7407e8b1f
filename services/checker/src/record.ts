/**
 * The one way a checker turns an accepted claim into evidence: sign a verification record that
 * binds checker, claim, semantics, candidate, inputs, scope, evidence format and request, and
 * store it as an artifact whose parents are the candidate and the inputs.
 */
import { fileURLToPath } from 'node:url';
import {
  signRecord,
  VERIFICATION_RECORD_SCHEMA_URI,
  VERIFICATION_RECORD_SEMANTICS_URI,
  type CapabilityContext,
  type CheckerIdentity,
  type JsonValue,
  type SigningKey,
  type StoredArtifact,
} from '@jacobian/shared';

/** What a checker accepted, and what the record must bind. */
export interface AcceptedClaim {
  capabilityId: string;
  capabilityVersion: string;
  identity: CheckerIdentity;
  claim: { kind: string; statement: string; value: Record<string, unknown> };
  claimSemanticsUri: string;
  candidateUri: string;
  /** Artifacts the claim is about besides the candidate (e.g. the input graph). */
  inputUris: string[];
  evidenceFormat: string;
  /** Fields added to the record artifact's summary, after verdict, checker and claim kind. */
  summary?: Record<string, JsonValue>;
}

/** Sign the record of an accepted claim (the scope is the claim's statement) and store it. */
export async function storeVerificationRecord(context: CapabilityContext, signingKey: SigningKey, accepted: AcceptedClaim): Promise<StoredArtifact> {
  const record = signRecord(
    {
      verdict: 'ACCEPTED',
      capability_id: accepted.capabilityId,
      capability_version: accepted.capabilityVersion,
      checker_id: accepted.identity.checker_id,
      checker_digest: accepted.identity.checker_digest,
      claim: accepted.claim,
      claim_semantics_uri: accepted.claimSemanticsUri,
      candidate_uri: accepted.candidateUri,
      input_uris: accepted.inputUris,
      scope: { kind: 'EXACT_CLAIM', statement: accepted.claim.statement },
      evidence_format: accepted.evidenceFormat,
      request_digest: context.requestDigest,
      issued_at: new Date().toISOString(),
    },
    signingKey,
  );
  return context.artifacts.put(
    {
      schema_uri: VERIFICATION_RECORD_SCHEMA_URI,
      semantics_uri: VERIFICATION_RECORD_SEMANTICS_URI,
      // The store re-validates this as canonical JSON; zod types it loosely as unknown values.
      payload: record as unknown as JsonValue,
      parents: [accepted.candidateUri, ...accepted.inputUris],
      summary: { verdict: 'ACCEPTED', checker_id: accepted.identity.checker_id, claim: accepted.claim.kind, ...accepted.summary },
    },
    { signal: context.signal },
  );
}

/** This file's path: every checker's identity covers it. */
export const RECORD_SOURCE: string = fileURLToPath(import.meta.url);

/**
 * How the SAT checkers read what they check: a CNF inline (`dimacs`) or stored (`cnf_uri`), and
 * stored models and proofs, whose parent must be the CNF they are about. Written for the checker
 * (which never imports the runner); parsing is the shared strict parser's.
 */
import { z } from 'zod';
import { ArtifactUriSchema, JacobianError, readCnfAt, type CapabilityContext, type JsonPath, type LoadedArtifact } from '@jacobian/shared';
import { parseDimacs, SAT_CNF_SCHEMA_URI, type Cnf } from './sat-domain.js';

/** Longest DIMACS text accepted inline. */
export const MAX_INLINE_TEXT_LENGTH = 8 * 1024 * 1024;

export const checkerCnfShape = {
  dimacs: z.string().min(1).max(MAX_INLINE_TEXT_LENGTH).optional().describe('the CNF as DIMACS text'),
  cnf_uri: ArtifactUriSchema.optional().describe(`a stored CNF (${SAT_CNF_SCHEMA_URI})`),
};


/** A stored CNF, parsed; the stored text is at fault (ARTIFACT_TYPE_MISMATCH) when it does not parse. */
export async function loadCnf(uri: string, context: CapabilityContext, path: JsonPath): Promise<{ cnf: Cnf; text: string }> {
  const { cnf, text } = await readCnfAt(context.artifacts, uri, path, { signal: context.signal });
  return { cnf, text };
}

/** The one parent of a stored model or proof: the CNF it is about. */
export function parentCnf(artifact: LoadedArtifact, path: JsonPath): string {
  const parents = artifact.manifest.parents;
  if (parents.length !== 1) {
    throw new JacobianError('LINEAGE_MISMATCH', `${path.join('.')}: the artifact must have exactly one parent, the CNF it is about; it has ${parents.length}`, { path });
  }
  return parents[0] as string;
}

/** The CNF of a request: inline text (parsed, errors at payload.dimacs) or stored. */
export async function resolveCheckerCnf(input: { dimacs?: string | undefined; cnf_uri?: string | undefined }, context: CapabilityContext): Promise<{ cnf: Cnf; text: string; uri: string | null }> {
  if (input.dimacs !== undefined) return { cnf: parseDimacs(input.dimacs, ['payload', 'dimacs']), text: input.dimacs, uri: null };
  const uri = input.cnf_uri as string;
  return { ...(await loadCnf(uri, context, ['payload', 'cnf_uri'])), uri };
}

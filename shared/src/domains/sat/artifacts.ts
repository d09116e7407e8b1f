/**
 * The artifacts the SAT capabilities store and their checkers re-read: a CNF in DIMACS form, a
 * model of it, and its refutations as DRAT or LRAT text. A proof or a model means something
 * only next to the CNF it is about, which is its parent artifact.
 */
import { z } from 'zod';
import { getTypedArtifactAt } from '../../artifacts/read-at.js';
import type { ArtifactStore } from '../../artifacts/store.js';
import { formatJsonPath } from '../../canonical-json.js';
import { JacobianError, type JsonPath } from '../../errors.js';
import { parseDimacs, satFormatError, type Cnf } from './dimacs.js';

/** Schema of a stored CNF (the one universal_algebra.search.countermodel already writes). */
export const SAT_CNF_SCHEMA_URI = 'jacobian:schema/sat.dimacs/v1';
/** Meaning of a plain CNF: the conjunction of its clauses, nothing more. */
export const SAT_CNF_SEMANTICS_URI = 'jacobian:semantics/sat.cnf/v1';
/** Schema of a stored DRAT proof (text). */
export const SAT_DRAT_SCHEMA_URI = 'jacobian:schema/sat.drat/v1';
/** Meaning of a DRAT proof: a refutation of its parent CNF. */
export const DRAT_REFUTATION_SEMANTICS_URI = 'jacobian:semantics/sat.drat.refutation/v1';
/** Schema of a stored LRAT proof (text). */
export const SAT_LRAT_SCHEMA_URI = 'jacobian:schema/sat.lrat/v1';
/** Meaning of an LRAT proof: a refutation of its parent CNF, the formula's clauses numbered 1 … m in file order. */
export const LRAT_REFUTATION_SEMANTICS_URI = 'jacobian:semantics/sat.lrat.refutation/v1';
/** Schema of a stored model. */
export const SAT_MODEL_SCHEMA_URI = 'jacobian:schema/sat.model/v1';
/** Meaning of a model: the assignment satisfies every clause of its parent CNF. */
export const SAT_MODEL_SEMANTICS_URI = 'jacobian:semantics/sat.model/v1';

const Count = z.number().int().min(0);

/** A stored CNF: the DIMACS text and its header counts (checked against the text by {@link parseCnfPayload}). */
export const SatCnfPayloadSchema = z
  .object({
    format: z.literal('DIMACS_CNF'),
    variables: Count,
    clauses: Count,
    dimacs: z.string().min(1),
    /** What the variables mean, when a capability encoded something; free-form JSON. */
    encoding: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type SatCnfPayload = z.infer<typeof SatCnfPayloadSchema>;

/** A stored DRAT proof in text form. */
export const SatDratPayloadSchema = z.object({ format: z.literal('DRAT_TEXT'), proof: z.string(), lines: Count }).strict();
export type SatDratPayload = z.infer<typeof SatDratPayloadSchema>;

/** A stored LRAT proof in text form. */
export const SatLratPayloadSchema = z.object({ format: z.literal('LRAT_TEXT'), proof: z.string(), lines: Count }).strict();
export type SatLratPayload = z.infer<typeof SatLratPayloadSchema>;

/** A stored model: `assignment[v − 1]` is v or −v, for every variable 1 … variables. */
export const SatModelPayloadSchema = z
  .object({
    variables: Count,
    assignment: z.array(z.number().int()).describe('one literal per variable, in order: v when variable v is true, −v when false'),
  })
  .strict();
export type SatModelPayload = z.infer<typeof SatModelPayloadSchema>;

/**
 * Parse a stored CNF's DIMACS text and check that the counts of the payload match it.
 *
 * @throws JacobianError INVALID_REQUEST naming the line and rule, or the count that disagrees.
 */
export function parseCnfPayload(payload: SatCnfPayload, path: JsonPath = []): Cnf {
  const cnf = parseDimacs(payload.dimacs, [...path, 'dimacs']);
  if (cnf.variables !== payload.variables || cnf.clauseCount !== payload.clauses) {
    throw satFormatError('CNF artifact', path, null, 'CLAUSE_COUNT_MISMATCH', `the payload says ${payload.variables} variables and ${payload.clauses} clauses, the DIMACS header ${cnf.variables} and ${cnf.clauseCount}`);
  }
  return cnf;
}

/**
 * The stored CNF a request names at `path`, parsed. A wrong kind of artifact, a malformed
 * payload or DIMACS text that does not parse is the request's ARTIFACT_TYPE_MISMATCH naming the
 * field; errors of the read itself pass through as getArtifactAt's.
 */
export async function readCnfAt(store: ArtifactStore, uri: string, path: JsonPath, options: { signal?: AbortSignal } = {}): Promise<{ cnf: Cnf; text: string }> {
  const { payload } = await getTypedArtifactAt(store, uri, path, { schemaUri: SAT_CNF_SCHEMA_URI, what: 'a stored CNF', payload: SatCnfPayloadSchema }, options);
  try {
    return { cnf: parseCnfPayload(payload), text: payload.dimacs };
  } catch (error) {
    if (!(error instanceof JacobianError)) throw error;
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `${formatJsonPath(path)}: the stored CNF does not parse: ${error.message}`, { path, cause: error });
  }
}

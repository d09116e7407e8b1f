/**
 * How the SAT capabilities take a CNF: DIMACS text inline (`dimacs`) or a stored CNF artifact
 * (`cnf_uri`), exactly one. Either way the text is parsed by the shared strict parser, so a bad
 * formula is an INVALID_REQUEST naming the line and the rule, never a solver error.
 */
import { z } from 'zod';
import { ArtifactUriSchema, readCnfAt, type ArtifactDraft, type CapabilityContext, type JsonPath, type StoredArtifact } from '@jacobian/shared';
import { parseDimacs, SAT_CNF_SCHEMA_URI, SAT_CNF_SEMANTICS_URI, serializeDimacs, type Cnf } from './sat-domain.js';

/** Longest DIMACS text accepted inline (larger formulas are stored first, e.g. with sat.cnf.materialize in pieces of this size). */
export const MAX_INLINE_DIMACS_LENGTH = 4 * 1024 * 1024;

/** The two fields of a CNF operand; spread into a capability's input object. */
export const cnfOperandShape = {
  dimacs: z
    .string()
    .min(1)
    .max(MAX_INLINE_DIMACS_LENGTH)
    .optional()
    .describe('the CNF as DIMACS text: "p cnf <variables> <clauses>", then clauses of non-zero integers each ended by 0; comment lines start with c'),
  cnf_uri: ArtifactUriSchema.optional().describe(`a stored CNF (${SAT_CNF_SCHEMA_URI}), e.g. the cnf_uri of sat.cnf.materialize`),
};

/** A zod refinement: exactly one of `dimacs` and `cnf_uri`. */
export function exactlyOneCnf(input: { dimacs?: string | undefined; cnf_uri?: string | undefined }, ctx: z.RefinementCtx): void {
  if ((input.dimacs === undefined) === (input.cnf_uri === undefined)) {
    ctx.addIssue({ code: 'custom', path: [], message: 'give the CNF in exactly one of `dimacs` (DIMACS text) or `cnf_uri` (a stored CNF)' });
  }
}

/** A CNF read from a request. */
export interface ResolvedCnf {
  cnf: Cnf;
  /** The stored artifact it came from; null for inline text. */
  uri: string | null;
  /** Words naming the formula, for scopes. */
  description: string;
}


/** Read a stored CNF artifact, errors naming `path`. */
export async function readCnfArtifact(uri: string, context: CapabilityContext, path: JsonPath): Promise<Cnf> {
  return (await readCnfAt(context.artifacts, uri, path, { signal: context.signal })).cnf;
}

/** The CNF of a validated request (`dimacs` or `cnf_uri`). */
export async function resolveCnf(input: { dimacs?: string | undefined; cnf_uri?: string | undefined }, context: CapabilityContext): Promise<ResolvedCnf> {
  if (input.dimacs !== undefined) {
    const cnf = parseDimacs(input.dimacs, ['payload', 'dimacs']);
    return { cnf, uri: null, description: `the CNF given inline (${cnf.variables} variables, ${cnf.clauseCount} clauses)` };
  }
  const uri = input.cnf_uri as string;
  const cnf = await readCnfArtifact(uri, context, ['payload', 'cnf_uri']);
  return { cnf, uri, description: `the stored CNF ${uri} (${cnf.variables} variables, ${cnf.clauseCount} clauses)` };
}

/**
 * Store a CNF as an artifact in normal form (the serializer's text: equal formulas, equal
 * artifacts), or return the URI it already has.
 */
export async function storeCnf(resolved: ResolvedCnf, context: CapabilityContext, summary: Record<string, string | number | boolean> = {}): Promise<StoredArtifact | { uri: string }> {
  if (resolved.uri !== null) return { uri: resolved.uri };
  return context.artifacts.put(cnfDraft(resolved.cnf, summary), { signal: context.signal });
}

/** The artifact draft of a CNF in normal form (what {@link storeCnf} stores). */
export function cnfDraft(cnf: Cnf, summary: Record<string, string | number | boolean> = {}): ArtifactDraft {
  return {
    schema_uri: SAT_CNF_SCHEMA_URI,
    semantics_uri: SAT_CNF_SEMANTICS_URI,
    payload: { format: 'DIMACS_CNF', variables: cnf.variables, clauses: cnf.clauseCount, dimacs: serializeDimacs(cnf) },
    parents: [],
    summary: { variables: cnf.variables, clauses: cnf.clauseCount, literals: cnf.literals.length, ...summary },
  };
}

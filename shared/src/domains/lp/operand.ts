/**
 * How LP capabilities receive a problem: inline (`problem`) or as a stored problem artifact
 * (`problem_uri`). One resolver for producers and checkers, so every LP capability accepts the
 * same forms with the same errors.
 */
import { getTypedArtifactAt } from '../../artifacts/read-at.js';
import type { ArtifactStore } from '../../artifacts/store.js';
import { inOwnTurn } from '../../capabilities/turns.js';
import type { JsonPath } from '../../errors.js';
import { canonicalLpProblem, LP_PROBLEM_SCHEMA_URI, LP_PROBLEM_SEMANTICS_URI, LpProblemSchema, lpShape, type LpProblem, type LpProblemInput } from './problem.js';

/** The problem fields of an LP capability's input, as parsed: exactly one is given (checked by the capability's schema). */
export interface LpOperand {
  problem?: LpProblemInput | undefined;
  problem_uri?: string | undefined;
}

/** A problem made concrete. */
export interface ResolvedLp {
  problem: LpProblem;
  /** Stored artifacts the problem came from ([] inline). */
  input_uris: string[];
  /** "the stored 3-variable, 2-row minimization artifact://…" or "the given …", for scope statements. */
  description: string;
}

/**
 * Resolve a validated operand: read and type-check the artifact when one is named
 * (ARTIFACT_TYPE_MISMATCH at `[...path, 'problem_uri']` otherwise), or canonicalize the inline
 * problem (INVALID_REQUEST at the offending field under `[...path, 'problem']`).
 */
export async function resolveLpOperand(input: LpOperand, artifacts: ArtifactStore, options: { signal?: AbortSignal; path?: JsonPath } = {}): Promise<ResolvedLp> {
  const path = options.path ?? ['payload'];
  if (input.problem_uri !== undefined) {
    const { artifact, payload } = await getTypedArtifactAt(
      artifacts,
      input.problem_uri,
      [...path, 'problem_uri'],
      {
        schemaUri: LP_PROBLEM_SCHEMA_URI,
        semanticsUri: LP_PROBLEM_SEMANTICS_URI,
        what: 'a stored linear program',
        payload: LpProblemSchema,
        hint: 'store the problem with lp.problem.construct and pass its problem_uri, or pass the problem inline',
      },
      options.signal === undefined ? {} : { signal: options.signal },
    );
    return { problem: payload, input_uris: [artifact.uri], description: `the stored ${lpShape(payload)} ${artifact.uri}` };
  }
  const inline = input.problem;
  if (inline === undefined) throw new Error('resolveLpOperand: the operand was not validated (neither problem nor problem_uri)');
  const problem = inline.variables.length + inline.constraints.length > 2000 ? await inOwnTurn(() => canonicalLpProblem(inline, [...path, 'problem'])) : canonicalLpProblem(inline, [...path, 'problem']);
  return { problem, input_uris: [], description: `the given ${lpShape(problem)}` };
}

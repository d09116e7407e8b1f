/**
 * `sat.model.verify`: the independent checker of SAT models. The claim is that an assignment
 * satisfies every clause of a CNF. It comes stored (`model_uri`, whose parent is the CNF) or
 * inline (`model` with `dimacs` or `cnf_uri`). The checker parses the CNF with the shared strict
 * parser, reads the assignment (each variable at most once, every literal in range; variables it
 * leaves out may take any value) and evaluates every clause. No solver is involved. Linear in the
 * size of the formula, so it runs without isolation.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  getTypedArtifactAt,
  ArtifactUriSchema,
  isAuthorized,
  JacobianError,
  refineCombinations,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type JsonPath,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import { checkerCnfShape, loadCnf, parentCnf, resolveCheckerCnf } from './sat-inputs.js';
import { clauseOf, SAT_CNF_SCHEMA_URI, SAT_CNF_SEMANTICS_URI, SAT_MODEL_SCHEMA_URI, SAT_MODEL_SEMANTICS_URI, SAT_SOURCES, SatModelPayloadSchema, serializeDimacs, type Cnf } from './sat-domain.js';

export const MODEL_VERIFY_CAPABILITY_ID = 'sat.model.verify';
export const MODEL_CHECKER_ID = 'jacobian.sat.model.evaluate';
const VERSION = '1.0.0';
const EVIDENCE_FORMAT = 'jacobian:evidence/sat.model/v1';

export const MODEL_CHECKER_SOURCES: string[] = [fileURLToPath(import.meta.url), fileURLToPath(new URL('./sat-inputs.ts', import.meta.url)), RECORD_SOURCE, ...SAT_SOURCES];

/** Why a model claim is false. */
export const ModelRejectionReason = {
  /** A literal names no variable of the CNF, or a variable is given twice. */
  ASSIGNMENT_INVALID: 'ASSIGNMENT_INVALID',
  /** Some clause has no literal the assignment makes true. */
  CLAUSE_NOT_SATISFIED: 'CLAUSE_NOT_SATISFIED',
} as const;
export type ModelRejectionReason = (typeof ModelRejectionReason)[keyof typeof ModelRejectionReason];

const Int = z.number().int();

export const VerifyModelInput = z
  .object({
    model_uri: ArtifactUriSchema.optional().describe(`a stored model (${SAT_MODEL_SCHEMA_URI}); its parent is the CNF`),
    model: z.array(Int).max(4_000_000).optional().describe('the assignment inline: literals (v true, −v false), each variable at most once; with `dimacs` or `cnf_uri`'),
    ...checkerCnfShape,
  })
  .strict()
  // A stored model names its CNF; an inline one comes with exactly one CNF.
  .superRefine(
    refineCombinations([
      { fields: ['model_uri'], note: 'a stored model names its CNF' },
      { fields: ['model', 'dimacs'] },
      { fields: ['model', 'cnf_uri'] },
    ]),
  );
export type VerifyModelInput = z.infer<typeof VerifyModelInput>;

export const VerifyModelOutput = z
  .object({
    verdict: z.enum(['ACCEPTED', 'REJECTED']),
    claim: z.string(),
    variables: Int,
    clauses: Int,
    reason_code: z.enum(ModelRejectionReason).nullable(),
    message: z.string(),
    failure: z
      .object({ clause_index: Int.nullable().describe('1-based index of the clause at fault'), clause: z.array(Int).nullable(), literal: Int.nullable().describe('the literal of the assignment at fault') })
      .strict()
      .nullable(),
    model_uri: z.string().nullable().describe('the stored model verified (given, or stored by the checker for an accepted inline claim)'),
    cnf_uri: z.string().nullable(),
    verification_record_uri: z.string().nullable(),
  })
  .strict();
export type VerifyModelOutput = z.infer<typeof VerifyModelOutput>;

type Verdict = { accepted: true } | { accepted: false; reason: ModelRejectionReason; message: string; failure: NonNullable<VerifyModelOutput['failure']>; path: JsonPath };

/** Evaluate every clause under the assignment. */
export function checkModel(cnf: Cnf, assignment: readonly number[]): Verdict {
  const value = new Int8Array(cnf.variables + 1);
  for (const [index, literal] of assignment.entries()) {
    const v = Math.abs(literal);
    if (!Number.isSafeInteger(literal) || literal === 0 || v > cnf.variables) {
      return { accepted: false, reason: 'ASSIGNMENT_INVALID', message: `literal ${literal} (entry ${index}) names no variable in 1 … ${cnf.variables}`, failure: { clause_index: null, clause: null, literal }, path: ['model', index] };
    }
    if (value[v] !== 0) {
      return { accepted: false, reason: 'ASSIGNMENT_INVALID', message: `variable ${v} is given twice (entry ${index} is ${literal})`, failure: { clause_index: null, clause: null, literal }, path: ['model', index] };
    }
    value[v] = literal > 0 ? 1 : -1;
  }
  for (let i = 0; i < cnf.clauseCount; i++) {
    let satisfied = false;
    for (let k = cnf.offsets[i] as number; k < (cnf.offsets[i + 1] as number); k++) {
      const literal = cnf.literals[k] as number;
      if (value[Math.abs(literal)] === Math.sign(literal)) {
        satisfied = true;
        break;
      }
    }
    if (!satisfied) {
      const clause = clauseOf(cnf, i);
      return {
        accepted: false,
        reason: 'CLAUSE_NOT_SATISFIED',
        message: `clause ${i + 1} (${clause.join(' ')} 0) has no literal the assignment makes true`,
        failure: { clause_index: i + 1, clause, literal: null },
        path: ['model'],
      };
    }
  }
  return { accepted: true };
}

/**
 * The model checker capability.
 *
 * @param authority the operator's authorization, the signing key, and this checker's identity.
 */
export function verifyModel(authority: CheckerAuthority): CapabilityDefinition<VerifyModelInput, VerifyModelOutput> {
  return {
    id: MODEL_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify that an assignment satisfies every clause of a CNF',
    description:
      'Independently checks a SAT model: the CNF is re-parsed with the strict DIMACS parser, the assignment is read (every literal in range, each variable at most once; unassigned variables may take any value) and every clause is evaluated. The claim is a stored model of sat.model.find (model_uri, whose parent is the CNF) or given inline (model with dimacs or cnf_uri). An accepted claim is VERIFIED with a signed verification record; a false one is REJECTED naming the first clause not satisfied or the bad literal.',
    tags: ['sat', 'model', 'cnf', 'satisfiability', 'verification', 'checker', 'witness'],
    keywords: ['check an assignment', 'verify a satisfying assignment', 'satisfying assignment', 'SAT certificate', 'truth assignment'],
    domain: 'sat',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [SAT_MODEL_SCHEMA_URI, SAT_CNF_SCHEMA_URI],
    produced_artifact_types: [SAT_MODEL_SCHEMA_URI, SAT_CNF_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyModelInput,
    output: VerifyModelOutput,
    examples: [{ title: 'A model of three clauses', mode: 'VERIFY', payload: { dimacs: 'p cnf 3 3\n1 -2 0\n2 3 0\n-1 -3 0\n', model: [1, 2, -3] } }],
    relationships: [{ kind: 'VERIFIES', capability_id: 'sat.model.find' }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one assignment and formula: that the assignment satisfies every clause.',
    limits: { max_model_literals: 4_000_000 },
    checker: {
      checker_id: MODEL_CHECKER_ID,
      method: 're-parse the CNF with the strict DIMACS parser; read the assignment (in range, each variable once); evaluate every clause',
      source_files: MODEL_CHECKER_SOURCES,
      configuration: { partial_assignments: 'allowed' },
    },
    async run(input, context): Promise<CapabilityOutcome<VerifyModelOutput>> {
      let cnf: Cnf;
      let cnfUri: string | null;
      let assignment: number[];
      let modelUri: string | null = null;
      if (input.model_uri !== undefined) {
        const path: JsonPath = ['payload', 'model_uri'];
        const { artifact, payload } = await getTypedArtifactAt(context.artifacts, input.model_uri, path, { schemaUri: SAT_MODEL_SCHEMA_URI, what: 'a stored model', payload: SatModelPayloadSchema }, { signal: context.signal });
        cnfUri = parentCnf(artifact, path);
        cnf = (await loadCnf(cnfUri, context, path)).cnf;
        assignment = payload.assignment;
        modelUri = artifact.uri;
      } else {
        const resolved = await resolveCheckerCnf(input, context);
        cnf = resolved.cnf;
        cnfUri = resolved.uri;
        assignment = input.model ?? [];
      }
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
          hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
        });
      }
      const statement = `the assignment ${modelUri ?? 'given inline'} satisfies every clause of the CNF ${cnfUri ?? 'given inline'} (${cnf.variables} variables, ${cnf.clauseCount} clauses)`;
      const inputUris = [modelUri, cnfUri].filter((uri): uri is string => uri !== null);
      const scope = { kind: 'EXACT_CLAIM' as const, statement, input_uris: inputUris };
      const base = { claim: statement, variables: cnf.variables, clauses: cnf.clauseCount };
      const verdict = checkModel(cnf, assignment);
      if (!verdict.accepted) {
        return {
          status: 'COMPLETED',
          output: { ...base, verdict: 'REJECTED', reason_code: verdict.reason, message: verdict.message, failure: verdict.failure, model_uri: modelUri, cnf_uri: cnfUri, verification_record_uri: null },
          scope,
          completeness: { status: 'COMPLETE', basis: 'the checker examined the claim and found it false' },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [
            {
              severity: 'WARNING',
              code: 'CHECKER_REJECTED',
              stage: 'VERIFICATION',
              message: verdict.message.slice(0, 2000),
              path: modelUri === null ? ['payload', ...verdict.path] : ['payload', 'model_uri'],
              hint: null,
            },
          ],
        };
      }
      // An inline claim is stored only now, so that the record binds exact bytes.
      const storedCnfUri =
        cnfUri ??
        (
          await context.artifacts.put(
            {
              schema_uri: SAT_CNF_SCHEMA_URI,
              semantics_uri: SAT_CNF_SEMANTICS_URI,
              payload: { format: 'DIMACS_CNF', variables: cnf.variables, clauses: cnf.clauseCount, dimacs: serializeDimacs(cnf) },
              parents: [],
              summary: { variables: cnf.variables, clauses: cnf.clauseCount, submitted_inline: true },
            },
            { signal: context.signal },
          )
        ).uri;
      const candidateUri =
        modelUri ??
        (
          await context.artifacts.put(
            {
              schema_uri: SAT_MODEL_SCHEMA_URI,
              semantics_uri: SAT_MODEL_SEMANTICS_URI,
              payload: { variables: cnf.variables, assignment },
              parents: [storedCnfUri],
              summary: { variables: cnf.variables, submitted_inline: true },
            },
            { signal: context.signal },
          )
        ).uri;
      const signedStatement = `the assignment ${candidateUri} satisfies every clause of the CNF ${storedCnfUri} (${cnf.variables} variables, ${cnf.clauseCount} clauses)`;
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: MODEL_VERIFY_CAPABILITY_ID,
        capabilityVersion: VERSION,
        identity,
        claim: { kind: 'SAT_MODEL', statement: signedStatement, value: { cnf_uri: storedCnfUri, model_uri: candidateUri, variables: cnf.variables, clauses: cnf.clauseCount } },
        claimSemanticsUri: SAT_MODEL_SEMANTICS_URI,
        candidateUri,
        inputUris: [storedCnfUri],
        evidenceFormat: EVIDENCE_FORMAT,
        summary: { variables: cnf.variables, clauses: cnf.clauseCount },
      });
      const message = `all ${cnf.clauseCount} clauses have a literal the assignment makes true`;
      return {
        status: 'COMPLETED',
        output: { ...base, claim: signedStatement, verdict: 'ACCEPTED', reason_code: null, message, failure: null, model_uri: candidateUri, cnf_uri: storedCnfUri, verification_record_uri: stored.uri },
        scope: { kind: 'EXACT_CLAIM', statement: signedStatement, input_uris: [candidateUri, storedCnfUri] },
        completeness: { status: 'COMPLETE', basis: message },
        qualifiers: ['EXACT', 'EXHAUSTIVE', 'DETERMINISTIC'],
        assurance: { level: 'VERIFIED', basis: `independent checker ${identity.checker_id}, authorized by the operator, evaluated every clause`, verification_record_uri: stored.uri, checker_id: identity.checker_id },
        obligations: [],
        relationships: [{ subject: stored.uri, predicate: 'VERIFIES', object: candidateUri }],
        artifact_uris: [stored.uri, candidateUri, storedCnfUri],
        diagnostics: [],
      };
    },
  };
}

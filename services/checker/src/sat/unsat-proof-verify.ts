/**
 * `sat.unsat_proof.verify`: the independent checker of refutations. The claim is that a CNF is
 * unsatisfiable, with a DRAT or LRAT proof as evidence: stored (`proof_uri`, whose parent is the
 * CNF, e.g. from sat.unsat_proof.find) or inline (`drat` or `lrat` text with `dimacs` or
 * `cnf_uri`). DRAT is replayed by our backward checker with RAT and core-first propagation
 * (drat-check.ts), LRAT by our forward hint checker (lrat-check.ts), in an isolated kernel; no
 * code is shared with any solver. A rejection names the failing step, its line, the lemma and
 * why (not RUP; RAT failed on which clause; no empty clause). On acceptance of a DRAT proof the
 * checker can also store the trimmed core as an LRAT proof (`emit_lrat`).
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  checkTypedArtifact,
  getArtifactAt,
  ArtifactUriSchema,
  isAuthorized,
  JacobianError,
  refineCombinations,
  runKernel,
  toAppError,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type Diagnostic,
  type JsonPath,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import { checkerCnfShape, loadCnf, MAX_INLINE_TEXT_LENGTH, parentCnf, resolveCheckerCnf } from './sat-inputs.js';
import {
  DRAT_REFUTATION_SEMANTICS_URI,
  LRAT_REFUTATION_SEMANTICS_URI,
  SAT_CNF_SCHEMA_URI,
  SAT_CNF_SEMANTICS_URI,
  SAT_DRAT_SCHEMA_URI,
  SAT_LRAT_SCHEMA_URI,
  SAT_SOURCES,
  SatDratPayloadSchema,
  SatLratPayloadSchema,
  serializeDimacs,
} from './sat-domain.js';

export const UNSAT_PROOF_VERIFY_CAPABILITY_ID = 'sat.unsat_proof.verify';
export const UNSAT_PROOF_CHECKER_ID = 'jacobian.sat.refutation.drat-lrat';
const VERSION = '1.0.0';

const KERNEL_FILE = fileURLToPath(new URL('./unsat-proof-verify.kernel.ts', import.meta.url));
const KERNEL = { module: KERNEL_FILE, exportName: 'checkUnsatProofKernel' };

export const UNSAT_PROOF_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  KERNEL_FILE,
  fileURLToPath(new URL('./drat-check.ts', import.meta.url)),
  fileURLToPath(new URL('./lrat-check.ts', import.meta.url)),
  fileURLToPath(new URL('./sat-inputs.ts', import.meta.url)),
  RECORD_SOURCE,
  ...SAT_SOURCES,
];

export const VerifyUnsatProofInput = z
  .object({
    proof_uri: ArtifactUriSchema.optional().describe(`a stored proof (${SAT_DRAT_SCHEMA_URI} or ${SAT_LRAT_SCHEMA_URI}) whose parent is the CNF, e.g. the proof_uri of sat.unsat_proof.find`),
    drat: z.string().max(MAX_INLINE_TEXT_LENGTH).optional().describe('a text DRAT proof inline, with dimacs or cnf_uri'),
    lrat: z.string().max(MAX_INLINE_TEXT_LENGTH).optional().describe('a text LRAT proof inline (the formula clauses are IDs 1 … m in file order), with dimacs or cnf_uri'),
    ...checkerCnfShape,
    emit_lrat: z.boolean().default(false).describe('for an accepted DRAT proof: also store its trimmed core as an LRAT proof (lrat_uri)'),
  })
  .strict()
  // A stored proof names its CNF; an inline one comes with exactly one CNF.
  .superRefine(
    refineCombinations([
      { fields: ['proof_uri'], note: 'a stored proof names its CNF' },
      { fields: ['drat', 'dimacs'] },
      { fields: ['drat', 'cnf_uri'] },
      { fields: ['lrat', 'dimacs'] },
      { fields: ['lrat', 'cnf_uri'] },
    ]),
  );
export type VerifyUnsatProofInput = z.infer<typeof VerifyUnsatProofInput>;

const Int = z.number().int();

export const VerifyUnsatProofOutput = z
  .object({
    verdict: z.enum(['ACCEPTED', 'REJECTED']),
    claim: z.string(),
    format: z.enum(['DRAT_TEXT', 'LRAT_TEXT']),
    variables: Int,
    clauses: Int,
    reason_code: z
      .string()
      .nullable()
      .describe('null when accepted; DRAT: RAT_FAILED, NOT_RUP, NO_EMPTY_CLAUSE; LRAT: HINT_NOT_UNIT, NO_CONFLICT, UNKNOWN_CLAUSE, ID_NOT_INCREASING, RAT_GROUP_NO_CONFLICT, RAT_GROUP_INVALID, RAT_CANDIDATE_MISSING, NO_EMPTY_CLAUSE; both: PROOF_MALFORMED'),
    message: z.string(),
    failure: z
      .object({
        step: Int.nullable().describe('1-based step of the proof that fails (deletions count as steps)'),
        line: Int.nullable(),
        lemma: z.array(Int).nullable(),
        pivot: Int.nullable().describe('DRAT: the literal the RAT check was on'),
        rat_clause: z
          .object({ origin: z.union([z.object({ kind: z.literal('formula'), index: Int }).strict(), z.object({ kind: z.literal('lemma'), step: Int }).strict()]), literals: z.array(Int) })
          .strict()
          .nullable()
          .describe('DRAT: the clause containing the negated pivot whose resolvent is not RUP (formula index or proof step, 0-based)'),
        clause_id: Int.nullable().describe('LRAT: the hint or candidate clause at fault'),
      })
      .strict()
      .nullable(),
    stats: z.record(z.string(), Int).describe('counts of the check: lemmas, core lemmas, RAT lemmas, ignored deletions, …'),
    cnf_uri: z.string().nullable(),
    proof_uri: z.string().nullable(),
    lrat_uri: z.string().nullable().describe('with emit_lrat, for an accepted DRAT proof: the trimmed core as LRAT (parent: the CNF)'),
    verification_record_uri: z.string().nullable(),
  })
  .strict();
export type VerifyUnsatProofOutput = z.infer<typeof VerifyUnsatProofOutput>;

const AcceptedOutput = z.object({ accepted: z.literal(true), stats: z.record(z.string(), Int), lrat: z.string().nullable() }).strict();
const RejectedOutput = z
  .object({
    accepted: z.literal(false),
    reason: z.string(),
    message: z.string(),
    step: Int.nullable(),
    line: Int.nullable(),
    lemma: z.array(Int).nullable(),
    pivot: Int.nullable(),
    rat_clause: VerifyUnsatProofOutput.shape.failure.unwrap().shape.rat_clause,
    clause_id: Int.nullable(),
    stats: z.record(z.string(), Int),
  })
  .strict();
const KernelOutput = z.union([AcceptedOutput, RejectedOutput]);

/** The three clauses over two variables and their refutation, for the examples. */
const EXAMPLE_CNF = 'p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n';

/**
 * The refutation checker capability.
 *
 * @param authority the operator's authorization, the signing key, and this checker's identity.
 */
export function verifyUnsatProof(authority: CheckerAuthority): CapabilityDefinition<VerifyUnsatProofInput, VerifyUnsatProofOutput> {
  return {
    id: UNSAT_PROOF_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify a DRAT or LRAT refutation of a CNF formula',
    description:
      'Independently checks that a CNF is unsatisfiable by replaying a clausal proof: DRAT with our backward checker (RUP, else RAT on the first literal; core-first unit propagation; deletions of unit and reason clauses ignored, as drat-trim does), or LRAT with our forward checker (every hint must be unit until a clause is falsified). The proof is stored (proof_uri, whose parent is the CNF, e.g. from sat.unsat_proof.find) or inline (drat or lrat with dimacs or cnf_uri). An accepted proof is VERIFIED with a signed verification record; a bad one is REJECTED naming the failing step, its line, the lemma and why. emit_lrat also stores the trimmed core of an accepted DRAT proof as LRAT.',
    tags: ['sat', 'unsat', 'drat', 'lrat', 'proof', 'refutation', 'verification', 'checker', 'certificate'],
    keywords: ['DRAT', 'LRAT', 'check a DRAT proof', 'drat-trim', 'UNSAT proof', 'verify a refutation', 'proof checking', 'unsatisfiable', 'unsatisfiability'],
    domain: 'sat',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [SAT_DRAT_SCHEMA_URI, SAT_LRAT_SCHEMA_URI, SAT_CNF_SCHEMA_URI],
    produced_artifact_types: [SAT_CNF_SCHEMA_URI, SAT_DRAT_SCHEMA_URI, SAT_LRAT_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyUnsatProofInput,
    output: VerifyUnsatProofOutput,
    examples: [
      { title: 'A DRAT refutation of all four clauses over two variables', mode: 'VERIFY', payload: { dimacs: EXAMPLE_CNF, drat: '1 0\n0\n' } },
      { title: 'The same refutation in LRAT', mode: 'VERIFY', payload: { dimacs: EXAMPLE_CNF, lrat: '5 1 0 1 3 0\n6 0 5 2 4 0\n' } },
    ],
    relationships: [{ kind: 'VERIFIES', capability_id: 'sat.unsat_proof.find' }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one formula: that it is unsatisfiable, as the proof shows; nothing about other formulas.',
    limits: { max_inline_text_length: MAX_INLINE_TEXT_LENGTH },
    checker: {
      checker_id: UNSAT_PROOF_CHECKER_ID,
      method:
        'DRAT: forward pass to the first conflict, then backward checking of core lemmas (RUP, else RAT on the first literal against every active clause containing its negation), core-first two-watched-literal propagation, deletions of reason clauses ignored; LRAT: forward checking of every hint as unit until a conflict, RAT groups for every clause containing the negated pivot; the empty clause must be added',
      source_files: UNSAT_PROOF_CHECKER_SOURCES,
      configuration: { empty_clause_required: 'yes', reason_deletions: 'ignored', rat_pivot: 'first literal' },
    },
    async run(input, context): Promise<CapabilityOutcome<VerifyUnsatProofOutput>> {
      let dimacs: string;
      let cnfUri: string | null;
      let format: 'DRAT_TEXT' | 'LRAT_TEXT';
      let proof: string;
      let proofUri: string | null = null;
      let variables: number;
      let clauses: number;
      if (input.proof_uri !== undefined) {
        const path: JsonPath = ['payload', 'proof_uri'];
        // One read; its manifest says which of the two proof formats to check it as.
        const artifact = await getArtifactAt(context.artifacts, input.proof_uri, path, { signal: context.signal });
        const payload =
          artifact.manifest.schema_uri === SAT_LRAT_SCHEMA_URI
            ? checkTypedArtifact(artifact, path, { schemaUri: SAT_LRAT_SCHEMA_URI, what: 'a stored LRAT proof', payload: SatLratPayloadSchema })
            : checkTypedArtifact(artifact, path, { schemaUri: SAT_DRAT_SCHEMA_URI, what: 'a stored DRAT proof', payload: SatDratPayloadSchema });
        format = payload.format;
        proof = payload.proof;
        proofUri = artifact.uri;
        cnfUri = parentCnf(artifact, path);
        const loaded = await loadCnf(cnfUri, context, path);
        dimacs = loaded.text;
        variables = loaded.cnf.variables;
        clauses = loaded.cnf.clauseCount;
      } else {
        const resolved = await resolveCheckerCnf(input, context);
        dimacs = resolved.uri === null ? serializeDimacs(resolved.cnf) : resolved.text;
        cnfUri = resolved.uri;
        variables = resolved.cnf.variables;
        clauses = resolved.cnf.clauseCount;
        format = input.drat !== undefined ? 'DRAT_TEXT' : 'LRAT_TEXT';
        proof = input.drat ?? input.lrat ?? '';
      }
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
          hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
        });
      }
      const emitLrat = input.emit_lrat && format === 'DRAT_TEXT';
      const checked = KernelOutput.parse(await runKernel(context, KERNEL, { dimacs, format, proof, emit_lrat: emitLrat }));
      const formatName = format === 'DRAT_TEXT' ? 'DRAT' : 'LRAT';
      const statement = `the CNF ${cnfUri ?? 'given inline'} (${variables} variables, ${clauses} clauses) is unsatisfiable, as the ${formatName} proof ${proofUri ?? 'given inline'} shows`;
      const inputUris = [proofUri, cnfUri].filter((uri): uri is string => uri !== null);
      const base = { format, variables, clauses };
      if (!checked.accepted) {
        const message = checked.message;
        return {
          status: 'COMPLETED',
          output: {
            ...base,
            claim: statement,
            verdict: 'REJECTED',
            reason_code: checked.reason,
            message,
            failure: { step: checked.step, line: checked.line, lemma: checked.lemma, pivot: checked.pivot, rat_clause: checked.rat_clause, clause_id: checked.clause_id },
            stats: checked.stats,
            cnf_uri: cnfUri,
            proof_uri: proofUri,
            lrat_uri: null,
            verification_record_uri: null,
          },
          scope: { kind: 'EXACT_CLAIM', statement, input_uris: inputUris },
          completeness: { status: 'COMPLETE', basis: 'the checker replayed the proof and found a step that does not follow' },
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
              message: message.slice(0, 2000),
              path: proofUri !== null ? ['payload', 'proof_uri'] : ['payload', format === 'DRAT_TEXT' ? 'drat' : 'lrat'],
              hint: null,
            },
          ],
        };
      }
      const diagnostics: Diagnostic[] = [];
      // Inline evidence is stored only now, so that the record binds exact bytes.
      const storedCnfUri =
        cnfUri ??
        (
          await context.artifacts.put(
            {
              schema_uri: SAT_CNF_SCHEMA_URI,
              semantics_uri: SAT_CNF_SEMANTICS_URI,
              payload: { format: 'DIMACS_CNF', variables, clauses, dimacs },
              parents: [],
              summary: { variables, clauses, submitted_inline: true },
            },
            { signal: context.signal },
          )
        ).uri;
      const lines = proof.split('\n').filter((line) => line.trim() !== '').length;
      const candidateUri =
        proofUri ??
        (
          await context.artifacts.put(
            {
              schema_uri: format === 'DRAT_TEXT' ? SAT_DRAT_SCHEMA_URI : SAT_LRAT_SCHEMA_URI,
              semantics_uri: format === 'DRAT_TEXT' ? DRAT_REFUTATION_SEMANTICS_URI : LRAT_REFUTATION_SEMANTICS_URI,
              payload: { format, proof, lines },
              parents: [storedCnfUri],
              summary: { lines, submitted_inline: true },
            },
            { signal: context.signal },
          )
        ).uri;
      let lratUri: string | null = null;
      if (checked.lrat !== null) {
        try {
          const lrat = checked.lrat;
          lratUri = (
            await context.artifacts.put(
              {
                schema_uri: SAT_LRAT_SCHEMA_URI,
                semantics_uri: LRAT_REFUTATION_SEMANTICS_URI,
                payload: { format: 'LRAT_TEXT', proof: lrat, lines: lrat.split('\n').length - 1 },
                parents: [storedCnfUri],
                summary: { trimmed_from: candidateUri, core_lemmas: checked.stats['core_lemmas'] ?? 0 },
              },
              { signal: context.signal },
            )
          ).uri;
        } catch (error) {
          const appError = toAppError(error);
          if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
          diagnostics.push({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED', stage: 'ARTIFACT', message: `the trimmed LRAT proof was not stored: ${appError.message}`.slice(0, 2000), path: ['payload', 'emit_lrat'], hint: null });
        }
      }
      const signedStatement = `the CNF ${storedCnfUri} (${variables} variables, ${clauses} clauses) is unsatisfiable, as the ${formatName} proof ${candidateUri} shows`;
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: UNSAT_PROOF_VERIFY_CAPABILITY_ID,
        capabilityVersion: VERSION,
        identity,
        claim: { kind: 'CNF_UNSATISFIABLE', statement: signedStatement, value: { cnf_uri: storedCnfUri, proof_uri: candidateUri, format, variables, clauses } },
        claimSemanticsUri: format === 'DRAT_TEXT' ? DRAT_REFUTATION_SEMANTICS_URI : LRAT_REFUTATION_SEMANTICS_URI,
        candidateUri,
        inputUris: [storedCnfUri],
        evidenceFormat: format === 'DRAT_TEXT' ? 'jacobian:evidence/sat.drat/v1' : 'jacobian:evidence/sat.lrat/v1',
        summary: { variables, clauses },
      });
      const coreLemmas = checked.stats['core_lemmas'] ?? checked.stats['lemmas_checked'] ?? 0;
      const message = `every ${format === 'DRAT_TEXT' ? 'core lemma' : 'lemma'} (${coreLemmas}) follows by RUP or RAT from the clauses before it, ending in the empty clause`;
      return {
        status: 'COMPLETED',
        output: {
          ...base,
          claim: signedStatement,
          verdict: 'ACCEPTED',
          reason_code: null,
          message,
          failure: null,
          stats: checked.stats,
          cnf_uri: storedCnfUri,
          proof_uri: candidateUri,
          lrat_uri: lratUri,
          verification_record_uri: stored.uri,
        },
        scope: { kind: 'EXACT_CLAIM', statement: signedStatement, input_uris: [candidateUri, storedCnfUri] },
        completeness: { status: 'COMPLETE', basis: message },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: {
          level: 'VERIFIED',
          basis: `independent ${formatName} checker ${identity.checker_id}, authorized by the operator, replayed the proof`,
          verification_record_uri: stored.uri,
          checker_id: identity.checker_id,
        },
        obligations: [],
        relationships: [
          { subject: stored.uri, predicate: 'VERIFIES', object: candidateUri },
          ...(lratUri === null ? [] : [{ subject: lratUri, predicate: 'DERIVED_FROM' as const, object: candidateUri }]),
        ],
        artifact_uris: [stored.uri, candidateUri, storedCnfUri, ...(lratUri === null ? [] : [lratUri])],
        diagnostics,
      };
    },
  };
}

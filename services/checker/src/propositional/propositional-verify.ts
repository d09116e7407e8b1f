/**
 * `claim.propositional.verify`: the independent checker of the VALID and UNSATISFIABLE verdicts
 * of claim.propositional.decide. Such a verdict rests on a chain: the formula is valid because
 * the Tseitin CNF of its negation is unsatisfiable, because a DRAT (or LRAT) proof refutes that
 * CNF. sat.unsat_proof.verify checks only the last link ("this CNF is unsatisfiable"); this
 * checker checks the whole chain from the stored formula:
 *
 * 1. the CNF is a sound encoding of the formula (target FORMULA) or of its negation (NEGATION):
 *    every clause follows from the definition of a subformula, or is the unit clause asserting
 *    the root (tseitin-check.ts, our own code; the encoder is not imported);
 * 2. the proof refutes exactly that CNF (the DRAT/LRAT kernel of sat.unsat_proof.verify).
 *
 * Together they prove the formula valid (NEGATION refuted) or unsatisfiable (FORMULA refuted), and
 * that, in its own name, is what an accepted claim's verification record binds. The evidence is
 * the stored proof (`proof_uri`, whose parent is the CNF, whose encoding names the stored formula
 * among its parents) or all of it inline (formula text, verdict, DIMACS, atom variables, DRAT).
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ArtifactUriSchema,
  checkTypedArtifact,
  getArtifactAt,
  getTypedArtifactAt,
  isAuthorized,
  JacobianError,
  parsePropositional,
  parsePropositionalPayload,
  PROPOSITIONAL_FORMULA_SEMANTICS_URI,
  PROPOSITIONAL_LIMITS,
  PROPOSITIONAL_SOURCES,
  PROPOSITIONAL_STRUCTURE_SCHEMA_URI,
  propositionalPayload,
  PropositionalStructurePayloadSchema,
  printPropositional,
  runKernel,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityContext,
  type CapabilityDefinition,
  type CapabilityOutcome,
  type JsonPath,
  type PropositionalFormula,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { RECORD_SOURCE, storeVerificationRecord } from '../record.js';
import { MAX_INLINE_TEXT_LENGTH, parentCnf } from '../sat/sat-inputs.js';
import {
  DRAT_REFUTATION_SEMANTICS_URI,
  parseCnfPayload,
  SAT_CNF_SCHEMA_URI,
  SAT_CNF_SEMANTICS_URI,
  SAT_DRAT_SCHEMA_URI,
  SAT_LRAT_SCHEMA_URI,
  SAT_SOURCES,
  SatCnfPayloadSchema,
  SatDratPayloadSchema,
  SatLratPayloadSchema,
  parseDimacs,
} from '../sat/sat-domain.js';
import { UNSAT_PROOF_CHECKER_SOURCES } from '../sat/unsat-proof-verify.js';

export const PROPOSITIONAL_VERIFY_CAPABILITY_ID = 'claim.propositional.verify';
export const PROPOSITIONAL_CHECKER_ID = 'jacobian.claim.propositional.tseitin-refutation';
/** Meaning of an accepted VALID claim: the stored formula is true under every assignment of its atoms. */
export const PROPOSITIONAL_VALID_SEMANTICS_URI = 'jacobian:semantics/propositional.formula.valid/v1';
/** Meaning of an accepted UNSATISFIABLE claim: the stored formula is false under every assignment. */
export const PROPOSITIONAL_UNSATISFIABLE_SEMANTICS_URI = 'jacobian:semantics/propositional.formula.unsatisfiable/v1';
const PRODUCER_ID = 'claim.propositional.decide';
const VERSION = '1.0.0';

const KERNEL_FILE = fileURLToPath(new URL('./propositional-verify.kernel.ts', import.meta.url));
const KERNEL = { module: KERNEL_FILE, exportName: 'verifyPropositionalKernel' };

/** The files whose bytes form this checker's identity: its own, the encoding check, the proof checkers, the formula grammar. */
export const PROPOSITIONAL_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  KERNEL_FILE,
  fileURLToPath(new URL('./tseitin-check.ts', import.meta.url)),
  ...UNSAT_PROOF_CHECKER_SOURCES,
  RECORD_SOURCE,
  ...SAT_SOURCES,
  ...PROPOSITIONAL_SOURCES,
];

const Int = z.number().int();
const Verdict = z.enum(['VALID', 'UNSATISFIABLE']);
type Verdict = z.infer<typeof Verdict>;

export const VerifyPropositionalInput = z
  .object({
    proof_uri: ArtifactUriSchema.optional().describe(`the stored refutation of a ${PRODUCER_ID} verdict (its refutation.proof_uri): a DRAT or LRAT proof whose parent is the Tseitin CNF, whose encoding names the stored formula`),
    verdict: Verdict.optional().describe('the verdict claimed: VALID (the CNF encodes the negation) or UNSATISFIABLE (it encodes the formula); required inline, and when given with proof_uri it must be what the CNF encodes'),
    formula: z.string().min(1).max(PROPOSITIONAL_LIMITS.maxTextLength).optional().describe('inline: the formula as text, e.g. "((p -> q) -> p) -> p"'),
    dimacs: z.string().min(1).max(MAX_INLINE_TEXT_LENGTH).optional().describe('inline: the Tseitin CNF of the formula (UNSATISFIABLE) or of its negation (VALID), as DIMACS'),
    atom_variables: z.record(z.string(), Int).optional().describe('inline: the CNF variable of each atom, e.g. {"p": 1, "q": 2}; the subformulas take the next variables in post-order'),
    drat: z.string().max(MAX_INLINE_TEXT_LENGTH).optional().describe('inline: a text DRAT refutation of the CNF'),
  })
  .strict()
  .superRefine((input, ctx) => {
    const inline = [input.formula, input.dimacs, input.atom_variables, input.drat];
    if (input.proof_uri !== undefined) {
      if (inline.some((x) => x !== undefined)) ctx.addIssue({ code: 'custom', path: ['proof_uri'], message: 'a stored refutation names its CNF and formula: give proof_uri (and optionally verdict) without formula, dimacs, atom_variables or drat' });
    } else if (inline.some((x) => x === undefined) || input.verdict === undefined) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give proof_uri (a stored refutation from claim.propositional.decide), or inline all of formula, verdict, dimacs, atom_variables and drat' });
    }
  });
export type VerifyPropositionalInput = z.infer<typeof VerifyPropositionalInput>;

export const VerifyPropositionalOutput = z
  .object({
    verdict: z.enum(['ACCEPTED', 'REJECTED']),
    formula_verdict: Verdict.describe('the claim about the formula: VALID or UNSATISFIABLE'),
    claim: z.string().describe('the claim that was checked, in words'),
    formula: z.string().describe('the formula, in canonical text (abridged when long)'),
    reason_code: z.enum(['ENCODING_UNSOUND', 'PROOF_REJECTED']).nullable().describe('null when accepted; ENCODING_UNSOUND: a clause of the CNF does not follow from the formula\'s subformulas; PROOF_REJECTED: the refutation fails (proof_reason says how)'),
    proof_reason: z.string().nullable().describe('PROOF_REJECTED: the proof checker\'s reason (RAT_FAILED, NOT_RUP, NO_EMPTY_CLAUSE, PROOF_MALFORMED, …)'),
    message: z.string(),
    failure: z.object({ clause: Int.nullable().describe('ENCODING_UNSOUND: the 1-based CNF clause at fault'), step: Int.nullable(), line: Int.nullable() }).strict().nullable(),
    encoding: z.object({ gates: Int, clauses_checked: Int }).strict().nullable().describe('the encoding check: subformulas defined, clauses checked'),
    stats: z.record(z.string(), Int).describe('counts of the proof check'),
    structure_uri: z.string().nullable(),
    cnf_uri: z.string().nullable(),
    proof_uri: z.string().nullable(),
    verification_record_uri: z.string().nullable().describe('the signed verification record; null unless ACCEPTED'),
  })
  .strict();
export type VerifyPropositionalOutput = z.infer<typeof VerifyPropositionalOutput>;

const Stats = z.record(z.string(), Int);
const KernelOutput = z.union([
  z.object({ stage: z.literal('ENCODING'), accepted: z.literal(false), message: z.string(), clause: Int.nullable() }).strict(),
  z
    .object({
      stage: z.literal('PROOF'),
      encoding: z.object({ gates: Int, clauses_checked: Int }).strict(),
      proof: z.union([
        z.object({ accepted: z.literal(true), stats: Stats, lrat: z.null() }).strict(),
        z.object({ accepted: z.literal(false), reason: z.string(), message: z.string(), step: Int.nullable(), line: Int.nullable(), stats: Stats }).passthrough(),
      ]),
    })
    .strict(),
]);

/** The Tseitin encoding a CNF artifact of claim.propositional.decide carries. */
const StoredEncodingSchema = z
  .object({
    kind: z.literal('TSEITIN'),
    target: z.enum(['FORMULA', 'NEGATION']),
    structure_uri: ArtifactUriSchema,
    atom_variables: z.record(z.string(), Int),
    root_literal: Int,
  })
  .strict();

interface Evidence {
  formula: PropositionalFormula;
  target: 'FORMULA' | 'NEGATION';
  atomVariables: Record<string, number>;
  dimacs: string;
  format: 'DRAT_TEXT' | 'LRAT_TEXT';
  proof: string;
  /** The stored artifacts; null for inline evidence (stored only on acceptance). */
  structureUri: string | null;
  cnfUri: string | null;
  proofUri: string | null;
}

const PROOF_PATH: JsonPath = ['payload', 'proof_uri'];

/** Read the chain proof → CNF (with its Tseitin encoding) → formula, each link checked. */
async function readStored(uri: string, context: CapabilityContext): Promise<Evidence> {
  const artifact = await getArtifactAt(context.artifacts, uri, PROOF_PATH, { signal: context.signal });
  const proofPayload =
    artifact.manifest.schema_uri === SAT_LRAT_SCHEMA_URI
      ? checkTypedArtifact(artifact, PROOF_PATH, { schemaUri: SAT_LRAT_SCHEMA_URI, what: 'a stored LRAT proof', payload: SatLratPayloadSchema })
      : checkTypedArtifact(artifact, PROOF_PATH, { schemaUri: SAT_DRAT_SCHEMA_URI, what: 'a stored DRAT proof', payload: SatDratPayloadSchema, hint: `pass the refutation.proof_uri of ${PRODUCER_ID}` });
  const cnfUri = parentCnf(artifact, PROOF_PATH);
  const { artifact: cnfArtifact, payload: cnfPayload } = await getTypedArtifactAt(context.artifacts, cnfUri, PROOF_PATH, { schemaUri: SAT_CNF_SCHEMA_URI, what: 'the CNF the proof refutes', payload: SatCnfPayloadSchema }, { signal: context.signal });
  const encoding = StoredEncodingSchema.safeParse(cnfPayload.encoding);
  if (!encoding.success) {
    throw new JacobianError('CHECKER_UNSUPPORTED', `payload.proof_uri: the CNF the proof refutes (${cnfUri}) carries no Tseitin encoding of a stored formula, so it says nothing about a formula; verify it as a CNF with sat.unsat_proof.verify`, { path: PROOF_PATH });
  }
  if (!cnfArtifact.manifest.parents.includes(encoding.data.structure_uri)) {
    throw new JacobianError('LINEAGE_MISMATCH', `payload.proof_uri: the CNF names the formula ${encoding.data.structure_uri}, which is not among its parents`, { path: PROOF_PATH });
  }
  try {
    parseCnfPayload(cnfPayload);
  } catch (error) {
    if (!(error instanceof JacobianError)) throw error;
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `payload.proof_uri: the stored CNF does not parse: ${error.message}`, { path: PROOF_PATH, cause: error });
  }
  const { payload: structure } = await getTypedArtifactAt(
    context.artifacts,
    encoding.data.structure_uri,
    PROOF_PATH,
    { schemaUri: PROPOSITIONAL_STRUCTURE_SCHEMA_URI, what: 'the stored formula the CNF encodes', payload: PropositionalStructurePayloadSchema },
    { signal: context.signal },
  );
  let formula: PropositionalFormula;
  try {
    formula = parsePropositionalPayload(structure);
  } catch (error) {
    if (!(error instanceof JacobianError)) throw error;
    throw new JacobianError('ARTIFACT_TYPE_MISMATCH', `payload.proof_uri: the stored formula is malformed: ${error.message}`, { path: PROOF_PATH, cause: error });
  }
  return {
    formula,
    target: encoding.data.target,
    atomVariables: encoding.data.atom_variables,
    dimacs: cnfPayload.dimacs,
    format: proofPayload.format,
    proof: proofPayload.proof,
    structureUri: encoding.data.structure_uri,
    cnfUri,
    proofUri: artifact.uri,
  };
}

const targetOf = (verdict: Verdict): 'FORMULA' | 'NEGATION' => (verdict === 'VALID' ? 'NEGATION' : 'FORMULA');
const verdictOf = (target: 'FORMULA' | 'NEGATION'): Verdict => (target === 'NEGATION' ? 'VALID' : 'UNSATISFIABLE');

/** Peirce's law and the Tseitin CNF of its negation (atoms p = 1, q = 2; gates 3 … 5): unit propagation alone refutes it. */
const PEIRCE_CNF = 'p cnf 5 10\n-3 -1 2 0\n3 1 0\n3 -2 0\n-4 -3 1 0\n4 3 0\n4 -1 0\n-5 -4 1 0\n5 4 0\n5 -1 0\n-5 0\n';

/**
 * The checker capability.
 *
 * @param authority the operator's authorization, the signing key, and this checker's identity.
 */
export function verifyPropositional(authority: CheckerAuthority): CapabilityDefinition<VerifyPropositionalInput, VerifyPropositionalOutput> {
  return {
    id: PROPOSITIONAL_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify that a propositional formula is valid (a tautology) or unsatisfiable',
    description: `Independently checks a VALID or UNSATISFIABLE verdict of ${PRODUCER_ID} from the stored formula: the Tseitin CNF is checked clause by clause to be a sound encoding of the formula's negation (VALID) or of the formula (UNSATISFIABLE): each clause follows from the definition of a subformula, or asserts the root; and the DRAT or LRAT proof is replayed against that CNF by the checker of sat.unsat_proof.verify. Together these prove the verdict about the formula itself, which an accepted claim's signed record binds (not just "this CNF is unsatisfiable"). Evidence: the stored refutation (proof_uri) or all of it inline. A failing clause or proof step is REJECTED, named.`,
    tags: ['claim', 'propositional-logic', 'validity', 'tautology', 'unsatisfiability', 'tseitin', 'drat', 'lrat', 'verification', 'checker', 'certificate'],
    keywords: ['verify a tautology', 'check validity', 'propositional validity', 'formula is valid', 'unsatisfiable formula', 'Tseitin encoding', 'DRAT refutation', 'boolean formula', 'proof of validity'],
    domain: 'logic',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [SAT_DRAT_SCHEMA_URI, SAT_LRAT_SCHEMA_URI],
    produced_artifact_types: [PROPOSITIONAL_STRUCTURE_SCHEMA_URI, SAT_CNF_SCHEMA_URI, SAT_DRAT_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyPropositionalInput,
    output: VerifyPropositionalOutput,
    examples: [
      {
        title: "Peirce's law is valid: the Tseitin CNF of its negation and its refutation, inline",
        mode: 'VERIFY',
        payload: { formula: '((p -> q) -> p) -> p', verdict: 'VALID', dimacs: PEIRCE_CNF, atom_variables: { p: 1, q: 2 }, drat: '0\n' },
      },
    ],
    relationships: [{ kind: 'VERIFIES', capability_id: PRODUCER_ID }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one formula, over its own atoms: that it is valid, or that it is unsatisfiable, as the encoding and the refutation show; nothing about other formulas.',
    limits: { max_inline_text_length: MAX_INLINE_TEXT_LENGTH, max_formula_text_length: PROPOSITIONAL_LIMITS.maxTextLength },
    checker: {
      checker_id: PROPOSITIONAL_CHECKER_ID,
      method:
        'read the formula tree; give each atom its stated variable and each binary or n-ary subformula the next variable in post-order; accept each clause only if it is the unit clause asserting the root (or its negation) or is implied by one subformula\'s definition with its children free; then replay the DRAT or LRAT refutation of that CNF with the checker of sat.unsat_proof.verify',
      source_files: PROPOSITIONAL_CHECKER_SOURCES,
      configuration: { encoding: 'tseitin-definitional', empty_clause_required: 'yes' },
    },
    async run(input, context): Promise<CapabilityOutcome<VerifyPropositionalOutput>> {
      let evidence: Evidence;
      if (input.proof_uri !== undefined) {
        evidence = await readStored(input.proof_uri, context);
        if (input.verdict !== undefined && targetOf(input.verdict) !== evidence.target) {
          throw new JacobianError('INVALID_REQUEST', `payload.verdict: the stored CNF encodes ${evidence.target === 'NEGATION' ? 'the negation of the formula, whose refutation shows VALID' : 'the formula, whose refutation shows UNSATISFIABLE'}, not ${input.verdict}`, {
            path: ['payload', 'verdict'],
          });
        }
      } else {
        parseDimacs(input.dimacs as string, ['payload', 'dimacs']);
        evidence = {
          formula: parsePropositional(input.formula as string, ['payload', 'formula']),
          target: targetOf(input.verdict as Verdict),
          atomVariables: input.atom_variables as Record<string, number>,
          dimacs: input.dimacs as string,
          format: 'DRAT_TEXT',
          proof: input.drat as string,
          structureUri: null,
          cnfUri: null,
          proofUri: null,
        };
      }
      const identity = authority.identity();
      if (!isAuthorized(authority.authorization(), identity)) {
        throw new JacobianError('CHECKER_NOT_AUTHORIZED', `checker ${identity.checker_id} (${identity.checker_digest}) is not authorized by the operator; it cannot produce VERIFIED`, {
          hint: "the operator adds this checker's ID and digest to the checker role's authorization file",
        });
      }
      const checked = KernelOutput.parse(
        await runKernel(context, KERNEL, { formula: evidence.formula, encoding: { target: evidence.target, atom_variables: evidence.atomVariables }, dimacs: evidence.dimacs, format: evidence.format, proof: evidence.proof }),
      );
      const formulaVerdict = verdictOf(evidence.target);
      const text = printPropositional(evidence.formula);
      const shown = text.length <= 300 ? text : `${text.slice(0, 300)}…`;
      const adjective = formulaVerdict === 'VALID' ? 'valid (true under every assignment of its atoms)' : 'unsatisfiable (false under every assignment of its atoms)';
      const statementFor = (structure: string | null): string => `the formula ${structure ?? 'given inline'} (${shown}) is ${adjective}`.slice(0, 2000);
      const inputUris = [evidence.proofUri, evidence.cnfUri, evidence.structureUri].filter((uri): uri is string => uri !== null);
      const base = { formula_verdict: formulaVerdict, formula: shown, structure_uri: evidence.structureUri, cnf_uri: evidence.cnfUri, proof_uri: evidence.proofUri };
      const rejected = (reason: 'ENCODING_UNSOUND' | 'PROOF_REJECTED', message: string, failure: VerifyPropositionalOutput['failure'], extra: { proof_reason: string | null; encoding: VerifyPropositionalOutput['encoding']; stats: Record<string, number> }): CapabilityOutcome<VerifyPropositionalOutput> => {
        const statement = statementFor(evidence.structureUri);
        return {
          status: 'COMPLETED',
          output: { ...base, ...extra, verdict: 'REJECTED', claim: statement, reason_code: reason, message, failure, verification_record_uri: null },
          scope: { kind: 'EXACT_CLAIM', statement, input_uris: inputUris },
          completeness: { status: 'COMPLETE', basis: 'the checker found a link of the evidence that does not hold: the evidence does not establish the claim (the claim itself may still hold)' },
          qualifiers: ['EXACT', 'DETERMINISTIC'],
          assurance: { level: 'COMPUTED', basis: `rejected by the independent checker ${identity.checker_id}`, verification_record_uri: null, checker_id: null },
          obligations: [],
          relationships: [],
          artifact_uris: inputUris,
          diagnostics: [{ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: `${reason}: ${message}`.slice(0, 2000), path: evidence.proofUri !== null ? PROOF_PATH : ['payload', reason === 'ENCODING_UNSOUND' ? 'dimacs' : 'drat'], hint: null }],
        };
      };
      if (checked.stage === 'ENCODING') {
        return rejected('ENCODING_UNSOUND', checked.message, { clause: checked.clause === null ? null : checked.clause + 1, step: null, line: null }, { proof_reason: null, encoding: null, stats: {} });
      }
      if (!checked.proof.accepted) {
        return rejected('PROOF_REJECTED', checked.proof.message, { clause: null, step: checked.proof.step, line: checked.proof.line }, { proof_reason: checked.proof.reason, encoding: checked.encoding, stats: checked.proof.stats });
      }
      // Inline evidence is stored only now, so that the record binds exact bytes: formula ← CNF ← proof.
      const structureUri =
        evidence.structureUri ??
        (await context.artifacts.put({ schema_uri: PROPOSITIONAL_STRUCTURE_SCHEMA_URI, semantics_uri: PROPOSITIONAL_FORMULA_SEMANTICS_URI, payload: propositionalPayload(evidence.formula), parents: [], summary: { submitted_inline: true } }, { signal: context.signal })).uri;
      const cnf = parseDimacs(evidence.dimacs);
      const cnfUri =
        evidence.cnfUri ??
        (
          await context.artifacts.put(
            {
              schema_uri: SAT_CNF_SCHEMA_URI,
              semantics_uri: SAT_CNF_SEMANTICS_URI,
              payload: { format: 'DIMACS_CNF', variables: cnf.variables, clauses: cnf.clauseCount, dimacs: evidence.dimacs, encoding: { kind: 'TSEITIN', target: evidence.target, structure_uri: structureUri, atom_variables: evidence.atomVariables } },
              parents: [structureUri],
              summary: { variables: cnf.variables, clauses: cnf.clauseCount, encoding: 'TSEITIN', target: evidence.target, submitted_inline: true },
            },
            { signal: context.signal },
          )
        ).uri;
      const proofUri =
        evidence.proofUri ??
        (
          await context.artifacts.put(
            {
              schema_uri: SAT_DRAT_SCHEMA_URI,
              semantics_uri: DRAT_REFUTATION_SEMANTICS_URI,
              payload: { format: 'DRAT_TEXT', proof: evidence.proof, lines: evidence.proof.split('\n').filter((line) => line.trim() !== '').length },
              parents: [cnfUri],
              summary: { submitted_inline: true },
            },
            { signal: context.signal },
          )
        ).uri;
      const statement = statementFor(structureUri);
      const stored = await storeVerificationRecord(context, authority.signingKey, {
        capabilityId: PROPOSITIONAL_VERIFY_CAPABILITY_ID,
        capabilityVersion: VERSION,
        identity,
        claim: { kind: formulaVerdict === 'VALID' ? 'PROPOSITIONAL_VALID' : 'PROPOSITIONAL_UNSATISFIABLE', statement, value: { structure_uri: structureUri, cnf_uri: cnfUri, proof_uri: proofUri, target: evidence.target } },
        claimSemanticsUri: formulaVerdict === 'VALID' ? PROPOSITIONAL_VALID_SEMANTICS_URI : PROPOSITIONAL_UNSATISFIABLE_SEMANTICS_URI,
        candidateUri: proofUri,
        inputUris: [cnfUri, structureUri],
        evidenceFormat: `jacobian:evidence/propositional.tseitin+${evidence.format === 'DRAT_TEXT' ? 'drat' : 'lrat'}/v1`,
        summary: { formula_verdict: formulaVerdict },
      });
      const message = `all ${checked.encoding.clauses_checked} clauses of the CNF follow from the definitions of the formula's ${checked.encoding.gates} subformulas or assert its ${evidence.target === 'NEGATION' ? 'negation' : 'root'}, and the ${evidence.format === 'DRAT_TEXT' ? 'DRAT' : 'LRAT'} proof refutes the CNF: the formula is ${formulaVerdict === 'VALID' ? 'valid' : 'unsatisfiable'}`;
      return {
        status: 'COMPLETED',
        output: { ...base, verdict: 'ACCEPTED', claim: statement, reason_code: null, proof_reason: null, message, failure: null, encoding: checked.encoding, stats: checked.proof.stats, structure_uri: structureUri, cnf_uri: cnfUri, proof_uri: proofUri, verification_record_uri: stored.uri },
        scope: { kind: 'EXACT_CLAIM', statement, input_uris: [proofUri, cnfUri, structureUri] },
        completeness: { status: 'COMPLETE', basis: message.slice(0, 1000) },
        qualifiers: ['EXACT', 'DETERMINISTIC'],
        assurance: { level: 'VERIFIED', basis: `independent checker ${identity.checker_id}, authorized by the operator, checked the encoding against the formula and replayed the refutation`, verification_record_uri: stored.uri, checker_id: identity.checker_id },
        obligations: [
          { id: 'tseitin-encoding-soundness', statement: `the CNF is satisfiable if ${evidence.target === 'NEGATION' ? 'the negation of the formula' : 'the formula'} is: every clause checked against the formula's subformulas`, status: 'DISCHARGED', discharged_by: [PROPOSITIONAL_VERIFY_CAPABILITY_ID] },
          { id: 'refutation', statement: 'the proof refutes the CNF: replayed to the empty clause', status: 'DISCHARGED', discharged_by: [PROPOSITIONAL_VERIFY_CAPABILITY_ID] },
        ],
        relationships: [
          { subject: stored.uri, predicate: 'VERIFIES', object: proofUri },
          { subject: cnfUri, predicate: 'DERIVED_FROM', object: structureUri },
          { subject: proofUri, predicate: 'COMPUTED_FROM', object: cnfUri },
        ],
        artifact_uris: [stored.uri, proofUri, cnfUri, structureUri],
        diagnostics: [],
      };
    },
  };
}

/**
 * matrix.normal_form.verify: a claim that H is the Hermite normal form of an integer matrix A
 * (with U, U A = H), or that D is its Smith normal form (with U and V, U A V = D). The claim
 * comes stored by matrix.hermite_normal_form.compute or matrix.smith_normal_form.compute
 * (`result_uri`, when they were asked for transforms) or inline, with the matrix inline or by
 * matrix_uri. The transforms are required (rule transforms-required): they are the certificate,
 * and a claim without them is refused before any check rather than answered in a weaker claim's
 * name. The checks (normal-form-verify.ts, no code of the producers) run in an isolated kernel;
 * an accepted claim is stored and gets a signed verification record bound to it, a rejected one
 * names the failing part and rule.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  canonicalNormalFormClaim,
  MATRIX_LIMITS,
  MATRIX_SCHEMA_URI,
  NORMAL_FORM_CLAIM_SCHEMA_URI,
  NORMAL_FORM_CLAIM_SEMANTICS_URI,
  NormalFormClaimInputSchema,
  NormalFormClaimSchema,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityDefinition,
  type NormalFormClaim,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { checkMatrixClaim, MATRIX_CHECKER_SOURCES, matrixCheckResult, matrixVerifyInput, matrixVerifyOutput } from './linear-algebra-verify-capability.js';
import { NormalFormRejectionReason } from './normal-form-verify.js';

export const NORMAL_FORM_VERIFY_CAPABILITY_ID = 'matrix.normal_form.verify';
export const NORMAL_FORM_CHECKER_ID = 'jacobian.matrix.integer_normal_form.unimodular_certificate';
const VERSION = '1.0.0';

const KERNEL = { module: fileURLToPath(new URL('./normal-form-verify.kernel.ts', import.meta.url)), exportName: 'verifyNormalFormKernel' };
/** The files whose bytes form this checker's identity (its run is checkMatrixClaim's, in MATRIX_CHECKER_SOURCES). */
export const NORMAL_FORM_CHECKER_SOURCES: string[] = [fileURLToPath(import.meta.url), fileURLToPath(new URL('./normal-form-verify.ts', import.meta.url)), KERNEL.module, ...MATRIX_CHECKER_SOURCES];

const CheckResult = matrixCheckResult(NormalFormRejectionReason);
const VerifyInput = matrixVerifyInput(NormalFormClaimInputSchema, {
  resultUri: 'the claim stored by matrix.hermite_normal_form.compute or matrix.smith_normal_form.compute with transforms (its output\'s result_uri)',
  claim: 'the claim inline: the matrix (inline or matrix_uri), form, hnf or diagonal, and the transforms (required)',
});
type VerifyInput = z.infer<typeof VerifyInput>;
const VerifyOutput = matrixVerifyOutput(z.enum(['HERMITE_NORMAL_FORM', 'SMITH_NORMAL_FORM']), NormalFormRejectionReason, '["hnf", 0, 2]');
export type NormalFormVerifyOutput = z.infer<typeof VerifyOutput>;

const kindOf = (claim: NormalFormClaim): NormalFormVerifyOutput['claim_kind'] => (claim.form === 'HERMITE' ? 'HERMITE_NORMAL_FORM' : 'SMITH_NORMAL_FORM');
const statementOf = (claim: NormalFormClaim, matrix: string): string =>
  claim.form === 'HERMITE'
    ? `the given H is the (row-style) Hermite normal form of A, where A is ${matrix}, as the given unimodular U with U A = H shows`
    : `the given diagonal d_1, …, d_${claim.diagonal?.length ?? 0} is that of the Smith normal form of A, where A is ${matrix}, as the given unimodular U and V with U A V = D show`;

/** matrix.normal_form.verify, as the checker service registers it. */
export function verifyNormalForm(authority: CheckerAuthority): CapabilityDefinition<VerifyInput, NormalFormVerifyOutput> {
  return {
    id: NORMAL_FORM_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify a Hermite or Smith normal form',
    description:
      'Independently checks an integer normal form claim with its unimodular transforms, with its own exact arithmetic and no code of the producers (give the output of matrix.hermite_normal_form.compute or matrix.smith_normal_form.compute with transforms: true, as result_uri or inline). HERMITE: det U = ±1 by its own fraction-free determinant, U A = H exactly, and H in row Hermite normal form (row echelon, positive pivots, entries above each pivot in [0, pivot), zero rows last). SMITH: det U = ±1 and det V = ±1, U A V = D exactly, D diagonal and non-negative with d_1 | d_2 | …. By uniqueness of both normal forms this verifies that H (or D) is THE normal form of A. The transforms are required (rule transforms-required): a claim without them is refused as a bad request, never verified. A false claim is REJECTED naming the failing part and rule (NOT_UNIMODULAR, PRODUCT_MISMATCH, NOT_ECHELON, PIVOT_NOT_POSITIVE, NOT_REDUCED, NEGATIVE_DIAGONAL, NOT_DIVISIBLE, SHAPE).',
    tags: ['matrix', 'linear-algebra', 'integer', 'normal-form', 'verification', 'checker', 'certificate'],
    keywords: [
      'verify a Hermite normal form',
      'verify a Smith normal form',
      'check an HNF',
      'check an SNF',
      'unimodular transform',
      'check that a matrix is unimodular',
      'determinant ±1',
      'invariant factors',
      'elementary divisors',
      'divisibility chain',
      'U A = H',
      'U A V = D',
    ],
    domain: 'matrix',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI, NORMAL_FORM_CLAIM_SCHEMA_URI],
    produced_artifact_types: [NORMAL_FORM_CLAIM_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyInput,
    output: VerifyOutput,
    examples: [
      {
        title: 'The HNF of [[2, 4], [6, 8]] is [[2, 0], [0, 4]], with U = [[-2, 1], [3, -1]]',
        mode: 'VERIFY',
        payload: { claim: { matrix: { ring: { kind: 'Z' }, rows: [[2, 4], [6, 8]] }, form: 'HERMITE', hnf: [['2', '0'], ['0', '4']], left_transform: [['-2', '1'], ['3', '-1']] } },
      },
      {
        title: 'The SNF of [[2, 0], [0, 3]] is diag(1, 6): Z/2 ⊕ Z/3 ≅ Z/6',
        mode: 'VERIFY',
        payload: { claim: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0], [0, 3]] }, form: 'SMITH', diagonal: ['1', '6'], left_transform: [['-1', '1'], ['3', '-2']], right_transform: [['1', '3'], ['1', '2']] } },
      },
    ],
    relationships: [
      { kind: 'VERIFIES', capability_id: 'matrix.hermite_normal_form.compute' },
      { kind: 'VERIFIES', capability_id: 'matrix.smith_normal_form.compute' },
    ],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one claim: that the given H (or diagonal D) is the Hermite (or Smith) normal form of the given integer matrix, certified by the given unimodular transforms.',
    limits: { max_rows: MATRIX_LIMITS.maxRows, max_columns: MATRIX_LIMITS.maxColumns, max_entry_bits: MATRIX_LIMITS.maxEntryBits },
    checker: {
      checker_id: NORMAL_FORM_CHECKER_ID,
      method: 'exact integer products U A (and U A V) compared entry by entry; det U and det V by fraction-free (Bareiss) elimination, required ±1; the Hermite shape or the Smith divisibility chain checked directly',
      source_files: NORMAL_FORM_CHECKER_SOURCES,
      configuration: { max_rows: MATRIX_LIMITS.maxRows, max_columns: MATRIX_LIMITS.maxColumns, max_entry_bits: MATRIX_LIMITS.maxEntryBits, transforms: 'required' },
    },
    run: (input, context) =>
      checkMatrixClaim(
        {
          id: NORMAL_FORM_VERIFY_CAPABILITY_ID,
          schemaUri: NORMAL_FORM_CLAIM_SCHEMA_URI,
          semanticsUri: NORMAL_FORM_CLAIM_SEMANTICS_URI,
          claimSchema: NormalFormClaimSchema,
          canonical: canonicalNormalFormClaim,
          kernel: KERNEL,
          checkResult: CheckResult,
          storedClaim: { what: 'a stored normal form claim', hint: 'pass the result_uri of a normal form computed with transforms: true, or give the claim inline' },
          kind: kindOf,
          statement: statementOf,
          recordValue: (claim) => ({ form: claim.form, nrows: claim.matrix.nrows, ncols: claim.matrix.ncols }),
        },
        authority,
        input,
        context,
      ),
  };
}

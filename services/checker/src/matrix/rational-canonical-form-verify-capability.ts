/**
 * matrix.rational_canonical_form.verify: the checker of matrix.rational_canonical_form.compute.
 * A claim (stored by the producer as `result_uri`, or inline with the matrix inline or by
 * matrix_uri) is checked by rational-canonical-form-verify.ts in an isolated kernel: the
 * invariant factors are monic and divide each other, A P = P F exactly and P is invertible; no
 * recomputation of the form and no code of the producer.
 */
import { fileURLToPath } from 'node:url';
import {
  canonicalRationalCanonicalFormClaim,
  RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI,
  RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI,
  RationalCanonicalFormClaimInputSchema,
  RationalCanonicalFormClaimSchema,
  type CapabilityDefinition,
  type RationalCanonicalFormClaim,
  type RationalCanonicalFormClaimInput,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { defineMatrixChecker, MATRIX_CHECKER_SOURCES, type MatrixVerifyInput, type MatrixVerifyOutput } from './linear-algebra-verify-capability.js';

export const RATIONAL_CANONICAL_FORM_VERIFY_CAPABILITY_ID = 'matrix.rational_canonical_form.verify';
export const RATIONAL_CANONICAL_FORM_CHECKER_ID = 'jacobian.matrix.rational_canonical_form.similarity';

const KERNEL_FILE = fileURLToPath(new URL('./rational-canonical-form-verify.kernel.ts', import.meta.url));
/** The files whose bytes form this checker's identity. */
export const RATIONAL_CANONICAL_FORM_CHECKER_SOURCES: string[] = [fileURLToPath(import.meta.url), fileURLToPath(new URL('./rational-canonical-form-verify.ts', import.meta.url)), KERNEL_FILE, ...MATRIX_CHECKER_SOURCES];

/** matrix.rational_canonical_form.verify. */
export function verifyRationalCanonicalForm(authority: CheckerAuthority): CapabilityDefinition<MatrixVerifyInput<RationalCanonicalFormClaimInput>, MatrixVerifyOutput> {
  return defineMatrixChecker<RationalCanonicalFormClaim, RationalCanonicalFormClaimInput>(
    {
      id: RATIONAL_CANONICAL_FORM_VERIFY_CAPABILITY_ID,
      checkerId: RATIONAL_CANONICAL_FORM_CHECKER_ID,
      producer: 'matrix.rational_canonical_form.compute',
      schemaUri: RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI,
      semanticsUri: RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI,
      inputClaim: RationalCanonicalFormClaimInputSchema,
      claimSchema: RationalCanonicalFormClaimSchema,
      canonical: canonicalRationalCanonicalFormClaim,
      kernelExport: 'verifyRationalCanonicalFormKernel',
      kernelFile: KERNEL_FILE,
      sourceFiles: RATIONAL_CANONICAL_FORM_CHECKER_SOURCES,
      kind: () => 'MATRIX_RATIONAL_CANONICAL_FORM',
      statement: (claim, matrix) => `P⁻¹ A P = diag(C(d_1), …, C(d_${claim.invariant_factors.length})) is the rational canonical form of A, where A is ${matrix}`,
      texts: {
        title: 'Verify a rational canonical (Frobenius) form with its transform',
        description:
          'Independently checks a claim of matrix.rational_canonical_form.compute (matrix, invariant factors, transform P) with its own exact arithmetic: the factors are monic and each divides the next, A P = P F for F their companion blocks, and P is invertible. No recomputation, no producer code. Rejections name the rule (NOT_MONIC, NOT_DIVISIBLE, NOT_SIMILAR, SINGULAR_TRANSFORM, SHAPE).',
        method: 'monic and divisibility checks by exact polynomial division; A P = P F entry by entry over Q or GF(p); rank of P modulo a large prime (a lower bound over Q), else exact elimination',
        tags: ['matrix', 'linear-algebra', 'rational-canonical-form', 'verification', 'checker', 'certificate'],
        keywords: ['verify a rational canonical form', 'check a Frobenius normal form', 'check a similarity transform', 'verify invariant factors of a matrix', 'check P^-1 A P = F'],
        scope: 'Covers exactly the one claim: that the given invariant factors and P give the rational canonical form of the given square matrix over Q (for Z and Q entries) or GF(p).',
        examples: [
          {
            title: 'diag(2, 2, 3): invariant factors x - 2 and x^2 - 5x + 6 with P',
            mode: 'VERIFY',
            payload: { claim: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0, 0], [0, 2, 0], [0, 0, 3]] }, invariant_factors: [['-2', '1'], ['6', '-5', '1']], transform: [[0, 1, 2], [1, 0, 0], [0, 1, 3]] } },
          },
        ],
      },
    },
    authority,
  );
}

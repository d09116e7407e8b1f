/**
 * lattice.basis.verify: a claim that B′ is an LLL-reduced basis, with a stated δ, of the lattice
 * spanned by the rows of an integer matrix B, certified by a unimodular U with U B = B′. The claim
 * comes stored by lattice.basis.reduce (`result_uri`) or inline, with B inline or by matrix_uri.
 * The checks (lattice-basis-verify.ts, no code of the producer) run in an isolated kernel through
 * checkMatrixClaim; an accepted claim is stored and gets a signed verification record bound to
 * it, a rejected one names the failing part and rule.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  canonicalLatticeBasisClaim,
  DELTA_RANGE,
  LATTICE_BASIS_CLAIM_SCHEMA_URI,
  LATTICE_BASIS_CLAIM_SEMANTICS_URI,
  LatticeBasisClaimInputSchema,
  LatticeBasisClaimSchema,
  MATRIX_LIMITS,
  MATRIX_SCHEMA_URI,
  VERIFICATION_RECORD_SCHEMA_URI,
  type CapabilityDefinition,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { checkMatrixClaim, MATRIX_CHECKER_SOURCES, matrixCheckResult, matrixVerifyInput, matrixVerifyOutput } from './linear-algebra-verify-capability.js';
import { LatticeRejectionReason } from './lattice-basis-verify.js';

export const LATTICE_BASIS_VERIFY_CAPABILITY_ID = 'lattice.basis.verify';
export const LATTICE_BASIS_CHECKER_ID = 'jacobian.lattice.lll_basis.unimodular_certificate';
const VERSION = '1.0.0';

const KERNEL = { module: fileURLToPath(new URL('./lattice-basis-verify.kernel.ts', import.meta.url)), exportName: 'verifyLatticeBasisKernel' };
/** The files whose bytes form this checker's identity (the determinant is normal-form-verify.ts's; the run is checkMatrixClaim's). */
export const LATTICE_BASIS_CHECKER_SOURCES: string[] = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./lattice-basis-verify.ts', import.meta.url)),
  KERNEL.module,
  fileURLToPath(new URL('./normal-form-verify.ts', import.meta.url)),
  ...MATRIX_CHECKER_SOURCES,
];

const CheckResult = matrixCheckResult(LatticeRejectionReason);
const VerifyInput = matrixVerifyInput(LatticeBasisClaimInputSchema, {
  resultUri: 'the claim stored by lattice.basis.reduce (its output\'s result_uri)',
  claim: 'the claim inline: the generators B (inline or matrix_uri), delta, reduced (B′) and transform (U)',
});
type VerifyInput = z.infer<typeof VerifyInput>;
const VerifyOutput = matrixVerifyOutput(z.literal('LLL_REDUCED_BASIS'), LatticeRejectionReason, '["reduced", 2]');
export type LatticeBasisVerifyOutput = z.infer<typeof VerifyOutput>;

/** lattice.basis.verify, as the checker service registers it. */
export function verifyLatticeBasis(authority: CheckerAuthority): CapabilityDefinition<VerifyInput, LatticeBasisVerifyOutput> {
  return {
    id: LATTICE_BASIS_VERIFY_CAPABILITY_ID,
    version: VERSION,
    title: 'Verify an LLL-reduced lattice basis',
    description: `Independently checks a claim that B′ is an LLL-reduced basis (Lenstra–Lenstra–Lovász, parameter δ with ${DELTA_RANGE}) of the lattice spanned by the rows of B, with its own exact arithmetic and no code of the producer (give the output of lattice.basis.reduce as result_uri, or inline). Same lattice: U integer, det U = ±1 by its own fraction-free determinant, U B = B′ exactly. A basis: non-zero rows first and independent. Reduced: Gram–Schmidt data exactly, as integers by its own fraction-free elimination of the Gram matrix, |μ_ij| ≤ 1/2 (size reduction) and the Lovász condition. A false claim is REJECTED naming the row and rule (NOT_UNIMODULAR, PRODUCT_MISMATCH, NOT_SIZE_REDUCED, LOVASZ_FAILS, DEPENDENT_ROWS, ZERO_ROWS_NOT_LAST, SHAPE).`,
    tags: ['lattice', 'integer', 'lll', 'verification', 'checker', 'certificate'],
    keywords: ['verify an LLL-reduced basis', 'check LLL reduction', 'check a reduced lattice basis', 'Lovász condition', 'size-reduced', 'Gram–Schmidt coefficients', 'unimodular transform', 'same lattice', 'U B = B′'],
    domain: 'lattice',
    modes: ['VERIFY'],
    role: 'checker',
    pool: 'checker',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI, LATTICE_BASIS_CLAIM_SCHEMA_URI],
    produced_artifact_types: [LATTICE_BASIS_CLAIM_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI],
    input: VerifyInput,
    output: VerifyOutput,
    examples: [
      {
        title: '(0, 1), (1, 0) is an LLL-reduced basis (δ = 3/4) of the lattice spanned by (1, 2), (2, 5)',
        mode: 'VERIFY',
        payload: { claim: { matrix: { ring: { kind: 'Z' }, rows: [[1, 2], [2, 5]] }, delta: '3/4', reduced: [['0', '1'], ['1', '0']], transform: [['-2', '1'], ['5', '-2']] } },
      },
    ],
    relationships: [{ kind: 'VERIFIES', capability_id: 'lattice.basis.reduce' }],
    assurance_ceiling: 'VERIFIED',
    scope_rule: 'Covers exactly the one claim: that the given B′ is an LLL-reduced basis, for the given δ, of the lattice spanned by the rows of the given integer matrix, certified by the given unimodular U.',
    limits: { max_rows: MATRIX_LIMITS.maxRows, max_columns: MATRIX_LIMITS.maxColumns, max_entry_bits: MATRIX_LIMITS.maxEntryBits, delta_range: DELTA_RANGE },
    checker: {
      checker_id: LATTICE_BASIS_CHECKER_ID,
      method: 'exact integer product U B compared with B′ entry by entry; det U by fraction-free (Bareiss) elimination, required ±1; Gram determinants d_i and d_{j+1} μ_ij as integers by fraction-free (Bareiss) elimination of the Gram matrix, checked against |μ| ≤ 1/2 and the Lovász condition with the claimed δ',
      source_files: LATTICE_BASIS_CHECKER_SOURCES,
      configuration: { max_rows: MATRIX_LIMITS.maxRows, max_columns: MATRIX_LIMITS.maxColumns, max_entry_bits: MATRIX_LIMITS.maxEntryBits, transform: 'required', delta_range: DELTA_RANGE },
    },
    run: (input, context) =>
      checkMatrixClaim(
        {
          id: LATTICE_BASIS_VERIFY_CAPABILITY_ID,
          schemaUri: LATTICE_BASIS_CLAIM_SCHEMA_URI,
          semanticsUri: LATTICE_BASIS_CLAIM_SEMANTICS_URI,
          claimSchema: LatticeBasisClaimSchema,
          canonical: canonicalLatticeBasisClaim,
          kernel: KERNEL,
          checkResult: CheckResult,
          storedClaim: { what: 'a stored LLL claim', hint: 'pass the result_uri of lattice.basis.reduce, or give the claim inline' },
          kind: () => 'LLL_REDUCED_BASIS' as const,
          statement: (claim, matrix) => `the given B′ is an LLL-reduced basis (δ = ${claim.delta}) of the lattice spanned by the rows of B, where B is ${matrix}, as the given unimodular U with U B = B′ shows`,
          recordValue: (claim) => ({ delta: claim.delta, nrows: claim.matrix.nrows, ncols: claim.matrix.ncols }),
        },
        authority,
        input,
        context,
      ),
  };
}

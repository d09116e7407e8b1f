/**
 * matrix.minimal_polynomial.verify: the checker of matrix.minimal_polynomial.compute. A claim
 * (stored by the producer as `result_uri`, or inline with the matrix inline or by matrix_uri) is
 * checked by minimal-polynomial-verify.ts in an isolated kernel: monic, p(A) = 0 exactly, and
 * minimal by the checker's own degree certificate (Krylov lower bound, or the exact rank of the
 * powers of A), with no factorization and no code of the producer.
 */
import { fileURLToPath } from 'node:url';
import {
  canonicalMinimalPolynomialClaim,
  MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI,
  MINIMAL_POLYNOMIAL_CLAIM_SEMANTICS_URI,
  MinimalPolynomialClaimInputSchema,
  MinimalPolynomialClaimSchema,
  type CapabilityDefinition,
  type MinimalPolynomialClaim,
  type MinimalPolynomialClaimInput,
} from '@jacobian/shared';
import type { CheckerAuthority } from '../graph/induced-tree-verify.js';
import { defineMatrixChecker, MATRIX_CHECKER_SOURCES, type MatrixVerifyInput, type MatrixVerifyOutput } from './linear-algebra-verify-capability.js';

export const MINIMAL_POLYNOMIAL_VERIFY_CAPABILITY_ID = 'matrix.minimal_polynomial.verify';
export const MINIMAL_POLYNOMIAL_CHECKER_ID = 'jacobian.matrix.minimal_polynomial.degree_certificate';

const KERNEL_FILE = fileURLToPath(new URL('./minimal-polynomial-verify.kernel.ts', import.meta.url));
/** The files whose bytes form this checker's identity. */
export const MINIMAL_POLYNOMIAL_CHECKER_SOURCES: string[] = [fileURLToPath(import.meta.url), fileURLToPath(new URL('./minimal-polynomial-verify.ts', import.meta.url)), KERNEL_FILE, ...MATRIX_CHECKER_SOURCES];

function polynomialWords(claim: MinimalPolynomialClaim): string {
  const d = claim.coefficients.length - 1;
  return `the degree-${d} polynomial with coefficients [${claim.coefficients.join(', ').slice(0, 300)}] (lowest degree first)`;
}

/** matrix.minimal_polynomial.verify. */
export function verifyMinimalPolynomial(authority: CheckerAuthority): CapabilityDefinition<MatrixVerifyInput<MinimalPolynomialClaimInput>, MatrixVerifyOutput> {
  return defineMatrixChecker<MinimalPolynomialClaim, MinimalPolynomialClaimInput>(
    {
      id: MINIMAL_POLYNOMIAL_VERIFY_CAPABILITY_ID,
      checkerId: MINIMAL_POLYNOMIAL_CHECKER_ID,
      producer: 'matrix.minimal_polynomial.compute',
      schemaUri: MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI,
      semanticsUri: MINIMAL_POLYNOMIAL_CLAIM_SEMANTICS_URI,
      inputClaim: MinimalPolynomialClaimInputSchema,
      claimSchema: MinimalPolynomialClaimSchema,
      canonical: canonicalMinimalPolynomialClaim,
      kernelExport: 'verifyMinimalPolynomialKernel',
      kernelFile: KERNEL_FILE,
      sourceFiles: MINIMAL_POLYNOMIAL_CHECKER_SOURCES,
      kind: () => 'MATRIX_MINIMAL_POLYNOMIAL',
      statement: (claim, matrix) => `${polynomialWords(claim)} is the minimal polynomial of A, where A is ${matrix}`,
      texts: {
        title: 'Verify a minimal polynomial of a matrix',
        description:
          'Independently checks what matrix.minimal_polynomial.compute answers (give its coefficients, lowest degree first, with the matrix as the claim), with its own exact arithmetic and no code of the producer: p is monic; p(A) = 0 exactly (every column of p(A) by Horner\'s rule); and p is minimal. Minimality needs no factorization: as p(A) = 0 the minimal polynomial divides p, so p is minimal exactly when I, A, …, A^(d−1) are linearly independent. The checker certifies that by a Krylov lower bound (v, A v, …, A^(d−1) v independent for a fixed vector v; over Q modulo large primes, each a lower bound on the rank over Q) and otherwise decides it exactly by the rank of the powers of A; the method used is stated in the record. A false claim is REJECTED naming the rule (NOT_MONIC, DOES_NOT_ANNIHILATE with the failing entry of p(A), NOT_MINIMAL with the true degree, SHAPE).',
        method:
          'monic check; p(A) e_j for every j by Horner\'s rule, exactly over Q or GF(p); minimality as deg(minimal polynomial) ≥ deg p, by independence of a Krylov sequence of a fixed vector (modulo large primes over Q), or else by the exact rank of I, A, …, A^(d−1)',
        tags: ['matrix', 'linear-algebra', 'minimal-polynomial', 'verification', 'checker', 'certificate'],
        keywords: ['verify a minimal polynomial', 'check a minimal polynomial', 'check that p(A) = 0', 'annihilating polynomial', 'minpoly', 'Cayley–Hamilton', 'is this polynomial minimal'],
        scope: 'Covers exactly the one claim: that the given polynomial is the minimal polynomial of the given square matrix over Q (for Z and Q entries) or GF(p).',
        examples: [
          { title: 'x^2 - 5x + 6 is the minimal polynomial of diag(2, 2, 3)', mode: 'VERIFY', payload: { claim: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0, 0], [0, 2, 0], [0, 0, 3]] }, coefficients: ['6', '-5', '1'] } } },
          { title: '(x - 1)^2 = x^2 + 5x + 1 is the minimal polynomial of the Jordan block [[1, 1], [0, 1]] over GF(7)', mode: 'VERIFY', payload: { claim: { matrix: { ring: { kind: 'GF', characteristic: '7' }, rows: [[1, 1], [0, 1]] }, coefficients: ['1', '5', '1'] } } },
        ],
      },
    },
    authority,
  );
}

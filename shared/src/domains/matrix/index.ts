/**
 * The matrix core: dense matrices over Z, Q and GF(p) (the fields are the polynomial core's),
 * their request and stored forms with the rules both are checked against, and the operand every
 * matrix capability accepts. Shared by the runner's capabilities and the independent checkers.
 */
import { fileURLToPath } from 'node:url';

export { MATRIX_LIMITS, MAX_ENTRY_DIGITS } from './limits.js';
export { coefficientSizeLimits, EigenpolynomialCoefficientSchema, eigenpolynomialCoefficientBounds, MAX_EIGENPOLYNOMIAL_COEFFICIENT_TEXT_LENGTH, MAX_EIGENPOLYNOMIAL_COEFFICIENTS } from './coefficient-bounds.js';
export type { CoefficientBound } from './coefficient-bounds.js';
export {
  canonicalEntry,
  canonicalMatrix,
  checkEntry,
  canonicalVector,
  ExplicitMatrixSchema,
  MATRIX_SCHEMA_URI,
  MATRIX_SEMANTICS_URI,
  MatrixEntrySchema,
  MatrixPayloadSchema,
  MatrixRingSchema,
  MatrixRule,
  matrixShape,
  parseExplicitMatrix,
  parseStoredMatrix,
  resolveMatrixRing,
} from './matrix.js';
export type { EntryProblem, EntrySizeLimit, ExplicitMatrix, MatrixEntry, MatrixPayload, MatrixRing, ResolvedMatrixRing } from './matrix.js';
export { canonicalMatrixInTurn, matrixOperandShape, refineMatrixOperand, resolveMatrixOperand } from './operand.js';
export type { MatrixOperand, ResolvedMatrix } from './operand.js';
export {
  answerRing,
  canonicalInverseClaim,
  canonicalLinearSystemClaim,
  claimOperand,
  INVERSE_CLAIM_SCHEMA_URI,
  INVERSE_CLAIM_SEMANTICS_URI,
  InverseClaimInputSchema,
  InverseClaimSchema,
  LINEAR_SYSTEM_CLAIM_SCHEMA_URI,
  LINEAR_SYSTEM_CLAIM_SEMANTICS_URI,
  LinearSystemClaimInputSchema,
  LinearSystemClaimSchema,
} from './claims.js';
export type { InverseClaim, InverseClaimInput, LinearSystemClaim, LinearSystemClaimInput } from './claims.js';
export {
  canonicalNormalFormClaim,
  INTEGER_MATRIX_RULE,
  NORMAL_FORM_CLAIM_SCHEMA_URI,
  NORMAL_FORM_CLAIM_SEMANTICS_URI,
  NormalFormClaimInputSchema,
  NormalFormClaimSchema,
  requireIntegerMatrix,
  TRANSFORMS_REQUIRED_RULE,
} from './normal-form-claims.js';
export type { NormalFormClaim, NormalFormClaimInput } from './normal-form-claims.js';
export {
  canonicalMinimalPolynomialClaim,
  MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI,
  MINIMAL_POLYNOMIAL_CLAIM_SEMANTICS_URI,
  MinimalPolynomialClaimInputSchema,
  MinimalPolynomialClaimSchema,
} from './minimal-polynomial-claim.js';
export type { MinimalPolynomialClaim, MinimalPolynomialClaimInput } from './minimal-polynomial-claim.js';
export {
  canonicalDeterminantClaim,
  canonicalRankClaim,
  DETERMINANT_CLAIM_SCHEMA_URI,
  DETERMINANT_CLAIM_SEMANTICS_URI,
  DeterminantClaimInputSchema,
  DeterminantClaimSchema,
  RANK_CLAIM_SCHEMA_URI,
  RANK_CLAIM_SEMANTICS_URI,
  RankClaimInputSchema,
  RankClaimSchema,
} from './rank-determinant-claims.js';
export type { DeterminantClaim, DeterminantClaimInput, RankClaim, RankClaimInput } from './rank-determinant-claims.js';
export {
  canonicalLatticeBasisClaim,
  DEFAULT_DELTA,
  DELTA_RANGE,
  DeltaRule,
  DeltaSchema,
  LATTICE_BASIS_CLAIM_SCHEMA_URI,
  LATTICE_BASIS_CLAIM_SEMANTICS_URI,
  LatticeBasisClaimInputSchema,
  LatticeBasisClaimSchema,
  parseDelta,
} from './lattice-claim.js';
export type { LatticeBasisClaim, LatticeBasisClaimInput } from './lattice-claim.js';

export {
  canonicalRationalCanonicalFormClaim,
  FROBENIUS_CONVENTION,
  RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI,
  RATIONAL_CANONICAL_FORM_CLAIM_SEMANTICS_URI,
  RationalCanonicalFormClaimInputSchema,
  maxTransformEntryTextLength,
  RationalCanonicalFormClaimSchema,
  TRANSFORM_TEXT_BUDGET,
  transformSizeProblem,
} from './rational-canonical-form-claim.js';
export type { RationalCanonicalFormClaim, RationalCanonicalFormClaimInput } from './rational-canonical-form-claim.js';


/** The files of this core (and the fields it builds on), for the SOURCE_TREE digest of a provider or checker built on it. */
export const MATRIX_SOURCES: readonly string[] = [
  ...['./limits.ts', './coefficient-bounds.ts', './matrix.ts', './operand.ts', './claims.ts', './normal-form-claims.ts', './minimal-polynomial-claim.ts', './rank-determinant-claims.ts', './lattice-claim.ts', './rational-canonical-form-claim.ts', './index.ts'].map((file) => fileURLToPath(new URL(file, import.meta.url))),
  fileURLToPath(new URL('../polynomial/field.ts', import.meta.url)),
  fileURLToPath(new URL('../polynomial/limits.ts', import.meta.url)),
];

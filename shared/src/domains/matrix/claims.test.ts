import { describe, expect, it } from 'vitest';
import { canonicalInverseClaim, canonicalLinearSystemClaim, InverseClaimInputSchema, InverseClaimSchema, LinearSystemClaimInputSchema, LinearSystemClaimSchema } from './claims.js';
import { canonicalMatrix, ExplicitMatrixSchema } from './matrix.js';

describe('linear algebra claims', () => {
  const matrix = { ring: { kind: 'Z' as const }, rows: [[1, 1], [2, 2]] };
  const payload = canonicalMatrix(ExplicitMatrixSchema.parse(matrix));

  it('canonicalizes inline claims: b in the matrix ring, answers in its field (Q for Z)', () => {
    const input = LinearSystemClaimInputSchema.parse({ matrix, rhs: [1, '3'], outcome: 'INCONSISTENT', certificate: ['-4/2', 1] });
    const claim = canonicalLinearSystemClaim(input, payload, ['payload', 'claim']);
    expect(claim).toEqual({ matrix: payload, rhs: ['1', '3'], outcome: 'INCONSISTENT', solution: null, kernel: null, certificate: ['-2', '1'] });
    expect(LinearSystemClaimSchema.parse(claim)).toEqual(claim);
    // Over Z, b is integral: a fraction is refused at its place.
    const fractional = LinearSystemClaimInputSchema.parse({ matrix, rhs: [1, '1/2'], outcome: 'INCONSISTENT', certificate: ['1', '0'] });
    expect(() => canonicalLinearSystemClaim(fractional, payload, ['payload', 'claim'])).toThrow(expect.objectContaining({ path: ['payload', 'claim', 'rhs', 1] }) as Error);
    const inverse = canonicalInverseClaim(InverseClaimInputSchema.parse({ matrix, outcome: 'SINGULAR', kernel_vector: ['2/2', -1] }), payload, ['payload', 'claim']);
    expect(InverseClaimSchema.parse(inverse).kernel_vector).toEqual(['1', '-1']);
  });

  it('requires the fields of the outcome claimed, and only those', () => {
    const issues = (value: unknown): unknown[] => LinearSystemClaimInputSchema.safeParse(value).error?.issues.map((i) => i.path) ?? [];
    expect(issues({ matrix, rhs: [1, 3], outcome: 'SOLVED', kernel: [] })).toEqual([['solution']]);
    expect(issues({ matrix, rhs: [1, 3], outcome: 'INCONSISTENT', certificate: ['1', '0'], solution: ['1', '0'] })).toEqual([['solution']]);
    expect(InverseClaimInputSchema.safeParse({ matrix, outcome: 'INVERTIBLE' }).error?.issues[0]?.path).toEqual(['inverse']);
    expect(InverseClaimInputSchema.safeParse({ outcome: 'SINGULAR', kernel_vector: ['1'] }).success).toBe(false);
  });

  it('a stored claim must hold canonical entries in the answer field', () => {
    const claim = { matrix: payload, rhs: ['1', '3'], outcome: 'INCONSISTENT', solution: null, kernel: null, certificate: ['-2', '1'] };
    expect(LinearSystemClaimSchema.safeParse(claim).success).toBe(true);
    expect(LinearSystemClaimSchema.safeParse({ ...claim, certificate: ['-4/2', '1'] }).error?.issues[0]?.path).toEqual(['certificate', 0]);
    expect(LinearSystemClaimSchema.safeParse({ ...claim, rhs: ['1/2', '3'] }).error?.issues[0]?.path).toEqual(['rhs', 0]);
    expect(InverseClaimSchema.safeParse({ matrix: payload, outcome: 'INVERTIBLE', inverse: [['1', '0'], ['0', '01']], kernel_vector: null }).error?.issues[0]?.path).toEqual(['inverse', 1, 1]);
  });
});

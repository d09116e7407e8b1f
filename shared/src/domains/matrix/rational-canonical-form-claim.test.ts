import { describe, expect, it } from 'vitest';
import { JacobianError } from '../../errors.js';
import { MATRIX_LIMITS } from './limits.js';
import { canonicalRationalCanonicalFormClaim, maxTransformEntryTextLength, RationalCanonicalFormClaimInputSchema, RationalCanonicalFormClaimSchema, TRANSFORM_TEXT_BUDGET, transformSizeProblem } from './rational-canonical-form-claim.js';

const payload = (rows: string[][]) => ({ ring: { kind: 'Q' as const }, nrows: rows.length, ncols: rows[0]?.length ?? 0, rows });
const identity = (n: number): string[][] => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? '1' : '0')));

describe('the transform-size rule of rational canonical form claims', () => {
  it('an entry may have the larger of 100,000 characters and its share 16 MiB / n² of the payload; all entries together at most 16 MiB', () => {
    expect(TRANSFORM_TEXT_BUDGET).toBe(16 * 1024 * 1024);
    expect(maxTransformEntryTextLength(1)).toBe(TRANSFORM_TEXT_BUDGET);
    expect(maxTransformEntryTextLength(4)).toBe(TRANSFORM_TEXT_BUDGET / 16);
    expect(maxTransformEntryTextLength(20)).toBe(100_000);
    expect(maxTransformEntryTextLength(MATRIX_LIMITS.maxRows)).toBe(100_000);
    expect(transformSizeProblem([['1'.repeat(100_000)]], 20)).toBeNull();
    expect(transformSizeProblem([['1', '1'.repeat(100_001)]], 20)).toMatchObject({ path: ['transform', 0, 1] });
    // 168 entries of 100,000 characters pass 16 MiB at the 168th.
    const many = Array.from({ length: 9 }, () => Array.from({ length: 20 }, () => '7'.repeat(100_000)));
    const problem = transformSizeProblem(many, 20);
    expect(problem?.path).toEqual(['transform', 8, 7]);
    expect(problem?.message).toMatch(/rule transform-size/);
  });

  it('a stored claim and a request over the rule are refused naming the entry, before parsing; one within it (longer than the entry limit) is accepted', () => {
    const A = payload([['0', '-1'], ['1', '0']]);
    const big = '3'.repeat(5000);
    // P = c·I for A = C(x² + 1): P⁻¹ A P = A.
    const good = { matrix: A, invariant_factors: [['1', '0', '1']], transform: [[big, '0'], ['0', big]] };
    expect(RationalCanonicalFormClaimSchema.parse(good).transform[0]?.[0]).toBe(big);
    const input = RationalCanonicalFormClaimInputSchema.parse({ matrix: { ring: { kind: 'Q' }, rows: A.rows }, invariant_factors: [['1', '0', '1']], transform: good.transform });
    expect(canonicalRationalCanonicalFormClaim(input, A, ['claim']).transform).toEqual(good.transform);
    const tooLong = '3'.repeat(maxTransformEntryTextLength(2) + 1);
    const stored = RationalCanonicalFormClaimSchema.safeParse({ ...good, transform: [['1', '0'], ['0', tooLong]] });
    expect(stored.success).toBe(false);
    expect(stored.error?.issues[0]).toMatchObject({ path: ['transform', 1, 1] });
    expect(stored.error?.issues[0]?.message).toMatch(/rule transform-size/);
    // A request whose P is smaller than the matrix is held to the matrix's n when it is made canonical.
    const narrow = RationalCanonicalFormClaimInputSchema.parse({ matrix: { ring: { kind: 'Q' }, rows: identity(20) }, invariant_factors: [['-1', '1']], transform: [['3'.repeat(200_000)]] });
    let thrown: unknown;
    try {
      canonicalRationalCanonicalFormClaim(narrow, payload(identity(20)), ['claim']);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JacobianError);
    expect(thrown).toMatchObject({ code: 'INVALID_REQUEST', path: ['claim', 'transform', 0, 0] });
  });
});

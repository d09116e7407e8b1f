import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalLatticeBasisClaim, DeltaRule, LatticeBasisClaimInputSchema, LatticeBasisClaimSchema, parseDelta } from './lattice-claim.js';
import { canonicalMatrix, ExplicitMatrixSchema } from './matrix.js';

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

describe('δ and LLL claims', () => {
  it('reads δ as a fraction or a decimal, in lowest terms', () => {
    expect(parseDelta('3/4', ['delta'])).toEqual({ num: 3n, den: 4n, text: '3/4' });
    expect(parseDelta('0.99', ['delta']).text).toBe('99/100');
    expect(parseDelta('1', ['delta']).text).toBe('1/1');
    expect(parseDelta('1.0', ['delta']).text).toBe('1/1');
    expect(parseDelta('6/8', ['delta']).text).toBe('3/4');
    expect(parseDelta('0.2500001', ['delta']).text).toBe('2500001/10000000');
  });

  it('property: p/q is accepted exactly when 1/4 < p/q ≤ 1, and the text is p/q in lowest terms', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (p, q) => {
        const inside = 4n * p > q && p <= q;
        let result: ReturnType<typeof parseDelta> | null = null;
        try {
          result = parseDelta(`${p}/${q}`, ['delta']);
        } catch (error) {
          expect(error).toMatchObject({ code: 'INVALID_REQUEST', path: ['delta'], data: { rule: DeltaRule.RANGE } });
        }
        expect(result !== null).toBe(inside);
        if (result !== null) {
          expect(result.num * q).toBe(p * result.den);
          expect(gcd(result.num, result.den)).toBe(1n);
        }
      }),
    );
  });

  it('names the rule for bad δ', () => {
    for (const [text, rule] of [['1/4', DeltaRule.RANGE], ['0.25', DeltaRule.RANGE], ['5/4', DeltaRule.RANGE], ['0', DeltaRule.RANGE], ['-3/4', DeltaRule.SYNTAX], ['3/0', DeltaRule.SYNTAX], ['.75', DeltaRule.SYNTAX], ['3/4/5', DeltaRule.SYNTAX], [`${2n ** 64n}/${2n ** 64n + 1n}`, DeltaRule.SYNTAX]] as const) {
      expect(() => parseDelta(text, ['payload', 'delta']), text).toThrow(expect.objectContaining({ path: ['payload', 'delta'], data: expect.objectContaining({ rule }) as unknown }) as Error);
    }
  });

  it('canonicalizes an inline claim (δ by default 3/4, entries as canonical integers) and refuses non-integers at their place', () => {
    const matrix = { ring: { kind: 'Z' as const }, rows: [[1, 2], [2, 5]] };
    const payload = canonicalMatrix(ExplicitMatrixSchema.parse(matrix));
    const input = LatticeBasisClaimInputSchema.parse({ matrix, reduced: [[0, '1'], ['1', 0]], transform: [[-2, 1], ['5', '-2']] });
    const claim = canonicalLatticeBasisClaim(input, payload, ['payload', 'claim']);
    expect(claim).toEqual({ matrix: payload, delta: '3/4', reduced: [['0', '1'], ['1', '0']], transform: [['-2', '1'], ['5', '-2']] });
    expect(LatticeBasisClaimSchema.parse(claim)).toEqual(claim);
    expect(LatticeBasisClaimSchema.safeParse({ ...claim, delta: '6/8' }).success).toBe(false);
    expect(LatticeBasisClaimSchema.safeParse({ ...claim, delta: '1/5' }).success).toBe(false);
    const fraction = LatticeBasisClaimInputSchema.parse({ matrix, reduced: [[0, 1], [1, 0]], transform: [[-2, 1], [5, '1/2']] });
    expect(() => canonicalLatticeBasisClaim(fraction, payload, ['payload', 'claim'])).toThrow(expect.objectContaining({ path: ['payload', 'claim', 'transform', 1, 1] }) as Error);
  });
});

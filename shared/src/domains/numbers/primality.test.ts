import { describe, expect, it } from 'vitest';
import { IntegerFactorizationClaimSchema } from './factorization.js';
import { DETERMINISTIC_MR_BOUND } from './arith.js';
import { PRIMALITY_LIMITS, PrimalityCertificateSchema, PrimalityClaimSchema, primalityCertificateSize, type PrimalityCertificate } from './primality.js';

const small = (n: string): PrimalityCertificate => ({ kind: 'small', n });
// 2^89 − 1 − 1 = 2·3·5·17·23·89·353·397·683·2113·2931542417
const mersenne89: PrimalityCertificate = {
  kind: 'pratt',
  n: '618970019642690137449562111',
  witness: '3',
  factors: [
    ['2', 1],
    ['3', 2],
    ['5', 1],
    ['17', 1],
    ['23', 1],
    ['89', 1],
    ['353', 1],
    ['397', 1],
    ['683', 1],
    ['2113', 1],
    ['2931542417', 1],
  ].map(([p, e]) => ({ prime: p as string, exponent: e as number, certificate: small(p as string) })),
};

function messages(result: { success: boolean; error?: { issues: { message: string }[] } }): string {
  return (result.error?.issues ?? []).map((i) => i.message).join('\n');
}

describe('primality certificate and claim schemas', () => {
  it('accept the three kinds and count the tree', () => {
    expect(PrimalityCertificateSchema.parse(mersenne89)).toEqual(mersenne89);
    expect(PrimalityCertificateSchema.parse(small('97'))).toEqual(small('97'));
    const ecpp: PrimalityCertificate = { kind: 'ecpp', n: '1000000000000000000000000000057', steps: [['1000000000000000000000000000057', '1941308218874090', '1603111594224', '0', ['519335238006017621936447751736', '51315546389334118416664791836']]] };
    expect(PrimalityCertificateSchema.parse(ecpp)).toEqual(ecpp);
    expect(primalityCertificateSize(mersenne89)).toEqual({ nodes: 12, depth: 1, ecppSteps: 0 });
    expect(PrimalityClaimSchema.parse({ n: mersenne89.n, verdict: 'PRIME', certificate: mersenne89 })).toBeTruthy();
    expect(PrimalityClaimSchema.parse({ n: '561', verdict: 'COMPOSITE', witness: { kind: 'factor', factor: '3' } })).toBeTruthy();
    expect(PrimalityClaimSchema.parse({ n: '561', verdict: 'COMPOSITE', witness: { kind: 'base', base: '2' } })).toBeTruthy();
  });

  it('refuse structural forgeries, naming the rule', () => {
    expect(messages(PrimalityCertificateSchema.safeParse(small(DETERMINISTIC_MR_BOUND.toString())))).toContain('small-bound');
    const reordered = { ...mersenne89, factors: [...(mersenne89 as { factors: unknown[] }).factors].reverse() };
    expect(messages(PrimalityCertificateSchema.safeParse(reordered))).toContain('canonical-order');
    const otherSubject = { ...mersenne89, factors: (mersenne89).factors.map((f, i) => (i === 0 ? { ...f, certificate: small('3') } : f)) };
    expect(messages(PrimalityCertificateSchema.safeParse(otherSubject))).toContain('certificate-subject');
    expect(messages(PrimalityClaimSchema.safeParse({ n: '97', verdict: 'PRIME', certificate: small('89') }))).toContain('certificate-subject');
    expect(PrimalityCertificateSchema.safeParse({ kind: 'small', n: '007' }).success).toBe(false);
    expect(PrimalityCertificateSchema.safeParse({ kind: 'ecpp', n: '101', steps: [['103', '0', '1', '0', ['0', '0']]] }).success).toBe(false);
    expect(PrimalityCertificateSchema.safeParse({ kind: 'small', n: '1'.repeat(PRIMALITY_LIMITS.maxDigits + 1) }).success).toBe(false);
    let deep: PrimalityCertificate = small('2');
    for (let i = 0; i <= PRIMALITY_LIMITS.maxDepth; i++) deep = { kind: 'pratt', n: '3', witness: '2', factors: [{ prime: deep.n, exponent: 1, certificate: deep }] };
    expect(messages(PrimalityCertificateSchema.safeParse(deep))).toContain('certificate-depth');
  });

  it('factorization claims: increasing primes, each with its own certificate', () => {
    const claim = { n: '1275', factors: [{ prime: '3', exponent: 1, certificate: small('3') }, { prime: '5', exponent: 2, certificate: small('5') }, { prime: '17', exponent: 1, certificate: small('17') }] };
    expect(IntegerFactorizationClaimSchema.parse(claim)).toEqual(claim);
    expect(IntegerFactorizationClaimSchema.parse({ n: '1', factors: [] })).toEqual({ n: '1', factors: [] });
    expect(messages(IntegerFactorizationClaimSchema.safeParse({ ...claim, factors: [...claim.factors].reverse() }))).toContain('canonical-order');
    expect(messages(IntegerFactorizationClaimSchema.safeParse({ ...claim, factors: [{ prime: '3', exponent: 1, certificate: small('5') }] }))).toContain('certificate-subject');
  });
});

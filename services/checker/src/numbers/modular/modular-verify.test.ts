import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, type InstalledCapability, type ModularClaim } from '@jacobian/shared';
import { createCheckerHarness, type CheckerHarness } from '../../checker-test-support.js';
import { checkModularClaim } from './modular-verify.js';
import { verifyModularClaim, type ModularVerifyOutput } from './modular-verify-capability.js';

const f = (prime: string | number, exponent = 1) => ({ prime: String(prime), exponent });

/** True claims, one per kind and outcome. */
const TRUE_CLAIMS: ModularClaim[] = [
  { kind: 'INVERSE', a: '3', n: '7', outcome: 'INVERTIBLE', inverse: '5' },
  { kind: 'INVERSE', a: '6', n: '9', outcome: 'NONE', gcd: '3' },
  { kind: 'CRT', congruences: [{ residue: '2', modulus: '3' }, { residue: '3', modulus: '5' }, { residue: '2', modulus: '7' }], outcome: 'SOLVED', residue: '23', modulus: '105' },
  { kind: 'CRT', congruences: [{ residue: '1', modulus: '4' }, { residue: '3', modulus: '6' }], outcome: 'SOLVED', residue: '9', modulus: '12' },
  { kind: 'CRT', congruences: [{ residue: '1', modulus: '4' }, { residue: '2', modulus: '6' }], outcome: 'INCONSISTENT', first: 0, second: 1, gcd: '2' },
  { kind: 'ORDER', a: '2', n: '7', outcome: 'FOUND', order: '3', order_factors: [f(3)] },
  { kind: 'ORDER', a: '10', n: '15', outcome: 'NONE', gcd: '5' },
  { kind: 'PRIMITIVE_ROOT', n: '23', outcome: 'FOUND', root: '5', least: true, modulus_factors: [f(23)], phi_factors: [f(2), f(11)] },
  { kind: 'PRIMITIVE_ROOT', n: '50', outcome: 'FOUND', root: '3', least: true, modulus_factors: [f(2), f(5, 2)], phi_factors: [f(2, 2), f(5)] },
  { kind: 'PRIMITIVE_ROOT', n: '15', outcome: 'NONE', modulus_factors: [f(3), f(5)] },
  { kind: 'PRIMITIVE_ROOT', n: '8', outcome: 'NONE', modulus_factors: [f(2, 3)] },
  { kind: 'DISCRETE_LOG', base: '3', target: '13', n: '17', outcome: 'SOLVED', log: '4', order: '16', order_factors: [f(2, 4)] },
  { kind: 'DISCRETE_LOG', base: '2', target: '6', n: '9', outcome: 'NONE', reason: 'TARGET_NOT_UNIT', gcd: '3' },
  // 2 has order 3 mod 7; 3^3 = 27 ≡ 6 ≢ 1.
  { kind: 'DISCRETE_LOG', base: '2', target: '3', n: '7', outcome: 'NONE', reason: 'NOT_IN_SUBGROUP_LOCALLY', local: { prime: '7', exponent: 1, order: '3', order_factors: [f(3)] } },
  // Modulo 8, 5 has order 2 and 7 ∉ ⟨5⟩ = {1, 5} although 7² ≡ 1: the 2-adic case.
  { kind: 'DISCRETE_LOG', base: '5', target: '7', n: '8', outcome: 'NONE', reason: 'NOT_IN_SUBGROUP_LOCALLY', local: { prime: '2', exponent: 3, order: '2', order_factors: [f(2)] } },
  {
    kind: 'DISCRETE_LOG',
    base: '3',
    target: '2',
    n: '35',
    outcome: 'NONE',
    reason: 'INCOMPATIBLE_LOCAL_LOGS',
    // mod 5: 3 has order 4, 3^3 = 27 ≡ 2; mod 7: 3 has order 6, 3^2 = 9 ≡ 2; 3 ≢ 2 (mod gcd(4, 6) = 2).
    first: { prime: '5', exponent: 1, order: '4', order_factors: [f(2, 2)], log: '3' },
    second: { prime: '7', exponent: 1, order: '6', order_factors: [f(2), f(3)], log: '2' },
  },
  { kind: 'SQRT', a: '1', n: '24', outcome: 'SOLVED', count: '8', roots: ['1', '5', '7', '11', '13', '17', '19', '23'], complete: true, modulus_factors: [f(2, 3), f(3)] },
  { kind: 'SQRT', a: '0', n: '16', outcome: 'SOLVED', count: '4', roots: ['0', '4'], complete: false, modulus_factors: [f(2, 4)] },
  { kind: 'SQRT', a: '5', n: '7', outcome: 'NONE', failure: { rule: 'NON_RESIDUE', prime: '7', exponent: 1, valuation: 0 } },
  { kind: 'SQRT', a: '3', n: '9', outcome: 'NONE', failure: { rule: 'ODD_VALUATION', prime: '3', exponent: 2, valuation: 1 } },
  { kind: 'SQRT', a: '5', n: '8', outcome: 'NONE', failure: { rule: 'NOT_1_MOD_8', prime: '2', exponent: 3, valuation: 0 } },
  { kind: 'SYMBOL', symbol: 'legendre', a: '2', n: '7', value: 1 },
  { kind: 'SYMBOL', symbol: 'jacobi', a: '2', n: '15', value: 1 },
  { kind: 'SYMBOL', symbol: 'kronecker', a: '5', n: '-12', value: -1 },
  { kind: 'SYMBOL', symbol: 'kronecker', a: '-1', n: '0', value: 1 },
];

/** Tampered claims the checker must reject, with the reason it must give. */
const TAMPERED: [string, ModularClaim, string][] = [
  ['a wrong inverse', { kind: 'INVERSE', a: '3', n: '7', outcome: 'INVERTIBLE', inverse: '4' }, 'WRONG_VALUE'],
  ['a NONE inverse with gcd 1', { kind: 'INVERSE', a: '3', n: '7', outcome: 'NONE', gcd: '1' }, 'CERTIFICATE_INVALID'],
  ['a CRT residue off by one', { kind: 'CRT', congruences: [{ residue: '2', modulus: '3' }, { residue: '3', modulus: '5' }], outcome: 'SOLVED', residue: '9', modulus: '15' }, 'WRONG_VALUE'],
  ['a CRT modulus that is not the lcm', { kind: 'CRT', congruences: [{ residue: '1', modulus: '4' }, { residue: '3', modulus: '6' }], outcome: 'SOLVED', residue: '9', modulus: '24' }, 'WRONG_VALUE'],
  ['an INCONSISTENT pair that agrees', { kind: 'CRT', congruences: [{ residue: '1', modulus: '4' }, { residue: '3', modulus: '6' }], outcome: 'INCONSISTENT', first: 0, second: 1, gcd: '2' }, 'CERTIFICATE_INVALID'],
  ['a multiple of the order', { kind: 'ORDER', a: '2', n: '7', outcome: 'FOUND', order: '6', order_factors: [f(2), f(3)] }, 'NOT_MINIMAL'],
  ['an order with a missing factor', { kind: 'ORDER', a: '3', n: '7', outcome: 'FOUND', order: '6', order_factors: [f(2)] }, 'FACTORIZATION_MISMATCH'],
  ['an order factor that is not prime', { kind: 'ORDER', a: '3', n: '7', outcome: 'FOUND', order: '6', order_factors: [f(6)] }, 'NOT_PRIME'],
  ['a non-root', { kind: 'PRIMITIVE_ROOT', n: '23', outcome: 'FOUND', root: '2', least: false, modulus_factors: [f(23)], phi_factors: [f(2), f(11)] }, 'NOT_MINIMAL'],
  ['a root that is not the least', { kind: 'PRIMITIVE_ROOT', n: '23', outcome: 'FOUND', root: '7', least: true, modulus_factors: [f(23)], phi_factors: [f(2), f(11)] }, 'NOT_LEAST'],
  ['NONE for a cyclic group', { kind: 'PRIMITIVE_ROOT', n: '18', outcome: 'NONE', modulus_factors: [f(2), f(3, 2)] }, 'CERTIFICATE_INVALID'],
  ['NONE with a wrong factorization of n', { kind: 'PRIMITIVE_ROOT', n: '16', outcome: 'NONE', modulus_factors: [f(2, 3)] }, 'FACTORIZATION_MISMATCH'],
  ['a log not the least', { kind: 'DISCRETE_LOG', base: '3', target: '13', n: '17', outcome: 'SOLVED', log: '20', order: '16', order_factors: [f(2, 4)] }, 'NOT_LEAST'],
  ['a wrong log', { kind: 'DISCRETE_LOG', base: '3', target: '13', n: '17', outcome: 'SOLVED', log: '5', order: '16', order_factors: [f(2, 4)] }, 'WRONG_VALUE'],
  ['a multiple of the order of the base', { kind: 'DISCRETE_LOG', base: '2', target: '4', n: '7', outcome: 'SOLVED', log: '2', order: '6', order_factors: [f(2), f(3)] }, 'NOT_MINIMAL'],
  ['a local NONE where h is in the cyclic subgroup', { kind: 'DISCRETE_LOG', base: '2', target: '4', n: '7', outcome: 'NONE', reason: 'NOT_IN_SUBGROUP_LOCALLY', local: { prime: '7', exponent: 1, order: '3', order_factors: [f(3)] } }, 'CERTIFICATE_INVALID'],
  ['a 2-adic NONE where h is a power', { kind: 'DISCRETE_LOG', base: '3', target: '9', n: '16', outcome: 'NONE', reason: 'NOT_IN_SUBGROUP_LOCALLY', local: { prime: '2', exponent: 4, order: '4', order_factors: [f(2, 2)] } }, 'CERTIFICATE_INVALID'],
  [
    'incompatible local logs that are compatible',
    { kind: 'DISCRETE_LOG', base: '3', target: '9', n: '35', outcome: 'NONE', reason: 'INCOMPATIBLE_LOCAL_LOGS', first: { prime: '5', exponent: 1, order: '4', order_factors: [f(2, 2)], log: '2' }, second: { prime: '7', exponent: 1, order: '6', order_factors: [f(2), f(3)], log: '2' } },
    'CERTIFICATE_INVALID',
  ],
  ['a root dropped but complete', { kind: 'SQRT', a: '1', n: '24', outcome: 'SOLVED', count: '7', roots: ['1', '5', '7', '11', '13', '17', '19'], complete: true, modulus_factors: [f(2, 3), f(3)] }, 'COUNT_MISMATCH'],
  ['a false root', { kind: 'SQRT', a: '1', n: '24', outcome: 'SOLVED', count: '8', roots: ['1', '3'], complete: false, modulus_factors: [f(2, 3), f(3)] }, 'WRONG_VALUE'],
  ['NONE for a residue', { kind: 'SQRT', a: '2', n: '7', outcome: 'NONE', failure: { rule: 'NON_RESIDUE', prime: '7', exponent: 1, valuation: 0 } }, 'CERTIFICATE_INVALID'],
  ['NONE at a prime not dividing n', { kind: 'SQRT', a: '5', n: '14', outcome: 'NONE', failure: { rule: 'NON_RESIDUE', prime: '3', exponent: 1, valuation: 0 } }, 'CERTIFICATE_INVALID'],
  ['a wrong Legendre symbol', { kind: 'SYMBOL', symbol: 'legendre', a: '3', n: '7', value: 1 }, 'WRONG_VALUE'],
  ['a Legendre symbol at a composite', { kind: 'SYMBOL', symbol: 'legendre', a: '2', n: '15', value: 1 }, 'NOT_PRIME'],
  ['a wrong Kronecker symbol at an even n', { kind: 'SYMBOL', symbol: 'kronecker', a: '3', n: '2', value: 1 }, 'WRONG_VALUE'],
];

describe('modular claim checks (own code)', () => {
  it.each(TRUE_CLAIMS.map((claim) => [`${claim.kind} ${'outcome' in claim ? claim.outcome : claim.symbol}`, claim] as const))('accepts a true claim: %s', (_, claim) => {
    const result = checkModularClaim(claim);
    expect(result, JSON.stringify(result)).toMatchObject({ accepted: true });
  });

  it.each(TAMPERED)('rejects %s', (_, claim, reason) => {
    expect(checkModularClaim(claim)).toMatchObject({ accepted: false, reason_code: reason });
  });

  it('rejects a discrete log whose order factor is a probable prime above 3.3·10^24 (UNPROVEN_PRIME), never accepting it', () => {
    const p = 10000000000000000000000013n;
    const claim: ModularClaim = { kind: 'ORDER', a: '2', n: (2n * p + 1n).toString(), outcome: 'FOUND', order: p.toString(), order_factors: [f(p.toString())] };
    expect(checkModularClaim(claim)).toMatchObject({ accepted: false, reason_code: expect.stringMatching(/UNPROVEN_PRIME|NOT_PRIME/) as unknown });
  });

  it('a prime above 3.3·10^24 is proven by the claim\'s primality certificate (replayed), and a tampered certificate is rejected', () => {
    const p = '4000000000000000000017467';
    const q = '2000000000000000000008733';
    const pratt = { kind: 'pratt' as const, n: p, witness: '2', factors: [{ prime: '2', exponent: 1, certificate: { kind: 'small' as const, n: '2' } }, { prime: q, exponent: 1, certificate: { kind: 'small' as const, n: q } }] };
    const claim: ModularClaim = { kind: 'PRIMITIVE_ROOT', n: p, outcome: 'FOUND', root: '2', least: true, modulus_factors: [f(p)], phi_factors: [f(2), f(q)] };
    expect(checkModularClaim(claim)).toMatchObject({ accepted: false, reason_code: 'UNPROVEN_PRIME' });
    expect(checkModularClaim({ ...claim, prime_certificates: [{ prime: p, certificate: pratt }] })).toMatchObject({ accepted: true });
    // A Pratt certificate without the factor q of p − 1 does not replay.
    const wrong = { ...pratt, factors: [pratt.factors[0] as (typeof pratt.factors)[number]] };
    expect(checkModularClaim({ ...claim, prime_certificates: [{ prime: p, certificate: wrong }] })).toMatchObject({ accepted: false, reason_code: 'UNPROVEN_PRIME' });
  });

  it('accepts and rejects on 100-digit moduli (inverse, CRT, symbols)', () => {
    const n = 10n ** 100n + 267n;
    const a = 123456789n ** 11n;
    // a⁻¹ from Fermat would need n prime; use a product check instead of trusting any algorithm.
    let [r0, r1, s0, s1] = [a, n, 1n, 0n];
    while (r1 !== 0n) {
      const q = r0 / r1;
      [r0, r1, s0, s1] = [r1, r0 - q * r1, s1, s0 - q * s1];
    }
    const inverse = ((s0 % n) + n) % n;
    expect(checkModularClaim({ kind: 'INVERSE', a: a.toString(), n: n.toString(), outcome: 'INVERTIBLE', inverse: inverse.toString() })).toMatchObject({ accepted: true });
    expect(checkModularClaim({ kind: 'INVERSE', a: a.toString(), n: n.toString(), outcome: 'INVERTIBLE', inverse: (inverse + 1n).toString() })).toMatchObject({ accepted: false });
    const m1 = 10n ** 100n + 1n;
    const m2 = 10n ** 99n + 3n;
    const x = 987654321n ** 20n;
    const lcm = (m1 * m2) / ((): bigint => {
      let [u, v] = [m1, m2];
      while (v !== 0n) [u, v] = [v, u % v];
      return u;
    })();
    const claim: ModularClaim = { kind: 'CRT', congruences: [{ residue: (x % m1).toString(), modulus: m1.toString() }, { residue: (x % m2).toString(), modulus: m2.toString() }], outcome: 'SOLVED', residue: (x % lcm).toString(), modulus: lcm.toString() };
    expect(checkModularClaim(claim)).toMatchObject({ accepted: true });
  });
});

describe('modular.claim.verify (capability)', () => {
  let h: CheckerHarness;
  let checker: InstalledCapability;
  let unauthorized: InstalledCapability;
  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-modular-verify-');
    checker = await h.install(verifyModularClaim);
    unauthorized = await h.install(verifyModularClaim, false);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('VERIFIED with a signed record for a true claim', async () => {
    const result = await h.run(checker, { claim: TRUE_CLAIMS[7] });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    expect(result.assurance.level, JSON.stringify(result.diagnostics)).toBe('VERIFIED');
    const out = result.output as ModularVerifyOutput;
    expect(out).toMatchObject({ verdict: 'ACCEPTED', claim_kind: 'PRIMITIVE_ROOT' });
    expect(out.verification_record_uri).toMatch(/^artifact:\/\/sha256\//);
  });

  it('REJECTED, not VERIFIED, for a tampered claim, naming the part', async () => {
    const result = await h.run(checker, { claim: TAMPERED[5]?.[1] });
    expect(result.execution.status).toBe('COMPLETED');
    expect(result.assurance.level).toBe('COMPUTED');
    expect(result.output).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_MINIMAL', verification_record_uri: null });
  });

  it('an unauthorized checker cannot produce VERIFIED', async () => {
    const result = await h.run(unauthorized, { claim: TRUE_CLAIMS[0] });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]?.code).toBe('CHECKER_NOT_AUTHORIZED');
  });
});

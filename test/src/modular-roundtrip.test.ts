/**
 * The modular producers' claims against the independent checker, on seeded random inputs of every
 * kind and outcome: each claim is accepted, and each with one field tampered (the answer moved by
 * one, a factor dropped) is rejected. Producer and checker share no modular code.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkModularClaim } from '@jacobian/checker';
import { computeModular, type ModularKernelInput } from '@jacobian/runner';
import type { ModularClaim } from '@jacobian/shared';

const int = (min: number, max: number) => fc.integer({ min, max }).map(String);
const input: fc.Arbitrary<ModularKernelInput> = fc.oneof(
  fc.record({ operation: fc.constant('inverse' as const), a: int(-5000, 5000), n: int(1, 5000) }),
  fc.record({ operation: fc.constant('crt' as const), congruences: fc.array(fc.record({ residue: int(-100, 100), modulus: int(1, 60) }), { minLength: 1, maxLength: 4 }) }),
  fc.record({ operation: fc.constant('order' as const), a: int(-5000, 5000), n: int(1, 100000) }),
  fc.record({ operation: fc.constant('primitive_root' as const), n: int(1, 100000) }),
  fc.record({ operation: fc.constant('discrete_log' as const), base: fc.constantFrom('2', '3', '5', '7', '11', '13'), target: int(-3000, 3000), n: fc.constantFrom('1', '7', '8', '16', '35', '97', '121', '1000', '1001', '4096', '65537', '999983', '1000003') }),
  fc.record({ operation: fc.constant('sqrt' as const), a: int(-3000, 3000), n: int(1, 20000), max_roots: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ operation: fc.constant('symbol' as const), symbol: fc.constant('kronecker' as const), a: int(-10000, 10000), n: int(-10000, 10000) }),
);

/** The claim with its main answer moved: must never be accepted. */
function tamper(claim: ModularClaim): ModularClaim | null {
  const bump = (t: string): string => (BigInt(t) + 1n).toString();
  switch (claim.kind) {
    case 'INVERSE':
      return claim.outcome === 'INVERTIBLE' ? { ...claim, inverse: bump(claim.inverse) } : { ...claim, gcd: '1' };
    case 'CRT':
      return claim.outcome === 'SOLVED' ? (claim.modulus === '1' ? null : { ...claim, residue: (BigInt(claim.residue) === BigInt(claim.modulus) - 1n ? 0n : BigInt(claim.residue) + 1n).toString() }) : { ...claim, gcd: '1' };
    case 'ORDER':
      return claim.outcome === 'FOUND' ? { ...claim, order: bump(claim.order) } : { ...claim, gcd: '1' };
    case 'PRIMITIVE_ROOT':
      return claim.outcome === 'FOUND' ? (claim.phi_factors.length === 0 ? null : { ...claim, phi_factors: claim.phi_factors.slice(1) }) : { ...claim, modulus_factors: claim.modulus_factors.slice(1) };
    case 'DISCRETE_LOG':
      return claim.outcome === 'SOLVED' ? (claim.order === '1' ? null : { ...claim, log: claim.log === '0' ? '1' : '0' }) : claim.reason === 'TARGET_NOT_UNIT' ? { ...claim, gcd: '1' } : null;
    case 'SQRT':
      return claim.outcome === 'SOLVED' ? { ...claim, count: bump(claim.count) } : { ...claim, failure: { ...claim.failure, valuation: claim.failure.valuation + 1 } };
    case 'SYMBOL':
      return { ...claim, value: claim.value === 1 ? -1 : 1 };
  }
}

describe('modular producers against the independent checker', () => {
  it('every claim produced is accepted; every tampered one rejected', () => {
    let tampered = 0;
    fc.assert(
      fc.property(input, (request) => {
        // The capability refuses a non-unit base before the kernel (rule base-unit).
        if (request.operation === 'discrete_log') {
          let [a, b] = [BigInt(request.base), BigInt(request.n)];
          while (b !== 0n) [a, b] = [b, a % b];
          fc.pre(a === 1n);
        }
        const { claim } = computeModular(request, {});
        const verdict = checkModularClaim(claim);
        expect(verdict, JSON.stringify(claim)).toMatchObject({ accepted: true });
        const bad = tamper(claim);
        if (bad !== null) {
          tampered++;
          expect(checkModularClaim(bad), JSON.stringify(bad)).toMatchObject({ accepted: false });
        }
      }),
      { numRuns: 2000, seed: 35 },
    );
    expect(tampered).toBeGreaterThan(1000);
  });
});

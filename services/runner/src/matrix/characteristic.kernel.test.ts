import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldFromSpec, type Field } from '@jacobian/shared';
import { characteristicPolynomial } from './characteristic.js';
import { characteristicKernel } from './characteristic.kernel.js';

const context = () => ({ deadline: Date.now() + 60_000, signal: new AbortController().signal, progress: () => undefined });

describe('characteristicKernel', () => {
  it('over GF(p) answers what the generic Hessenberg routine gives, on numbers below 2^26 and on BigInt above', () => {
    const primes = ['3', '65537', '67108859', '2305843009213693951'];
    fc.assert(
      fc.property(fc.constantFrom(...primes), fc.integer({ min: 1, max: 7 }).chain((n) => fc.array(fc.array(fc.bigInt({ min: 0n, max: 1n << 70n }), { minLength: n, maxLength: n }), { minLength: n, maxLength: n })), (p, entries) => {
        const F = fieldFromSpec({ kind: 'GF', characteristic: p }) as Field<unknown>;
        const A = entries.map((row) => row.map((b) => F.fromBigInt(b)));
        const rows = A.map((row) => row.map((a) => F.format(a)));
        const out = characteristicKernel({ operation: 'characteristic', matrix: { ring: { kind: 'GF', characteristic: p }, nrows: rows.length, ncols: rows.length, rows } }, context());
        expect(out.coefficients).toEqual(characteristicPolynomial(F, A).map((c) => F.format(c)));
      }),
      { numRuns: 60 },
    );
  });

  it('over Z answers integer coefficients: [[1, 2], [3, 4]] has x^2 − 5x − 2', () => {
    const out = characteristicKernel({ operation: 'characteristic', matrix: { ring: { kind: 'Z' }, nrows: 2, ncols: 2, rows: [['1', '2'], ['3', '4']] } }, context());
    expect(out).toEqual({ coefficients: ['-2', '-5', '1'], square_free: true });
  });

  it('stops at the deadline with EXECUTION_TIMEOUT', () => {
    const rows = Array.from({ length: 40 }, (_, i) => Array.from({ length: 40 }, (_, j) => String((BigInt(i * 40 + j) * 1234567891n) ** 3n)));
    expect(() => characteristicKernel({ operation: 'characteristic', matrix: { ring: { kind: 'Z' }, nrows: 40, ncols: 40, rows } }, { ...context(), deadline: Date.now() - 1 })).toThrow(/wall-time budget/);
  });
});

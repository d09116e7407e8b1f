import { describe, expect, it } from 'vitest';
import { bigGcd } from '@jacobian/shared';
import { lehmerGcd } from './integer-gcd.js';
import { mulberry32 as random } from '@jacobian/shared/testing';


describe('lehmerGcd', () => {
  const next = random(2026);
  const big = (bits: number): bigint => {
    let hex = '0';
    for (let i = 0; i < bits; i += 4) hex += Math.floor(next() * 16).toString(16);
    return BigInt(`0x${hex}`) * (next() < 0.5 ? -1n : 1n);
  };
  it('agrees with Euclid on 2000 pairs of up to 3000 bits with planted common factors', () => {
    for (let k = 0; k < 2000; k++) {
      const common = big(1 + Math.floor(next() * 400));
      const a = big(Math.floor(next() * 3000)) * common;
      const b = big(Math.floor(next() * 3000)) * (next() < 0.4 ? common : 1n);
      expect(lehmerGcd(a, b)).toBe(bigGcd(a, b));
    }
  });
  it('handles zeros, signs, equal and consecutive operands', () => {
    expect(lehmerGcd(0n, 0n)).toBe(0n);
    expect(lehmerGcd(0n, -7n)).toBe(7n);
    const f = 2n ** 521n - 1n;
    expect(lehmerGcd(f, -f)).toBe(f);
    expect(lehmerGcd(f * 12n, f * 18n)).toBe(f * 6n);
    // Consecutive Fibonacci numbers: every quotient is 1, Euclid's longest case.
    let [x, y] = [1n, 1n];
    for (let i = 0; i < 2000; i++) [x, y] = [y, x + y];
    expect(lehmerGcd(x, y)).toBe(1n);
  });
});

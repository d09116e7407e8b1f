/**
 * The isolated part of the integer operations that need no factorization (valuation, perfect
 * powers, Bézout, integer roots): the integers crossed the process boundary as decimal text.
 */
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { extendedGcdMany, integerRoot, perfectPower, valuation } from './functions.js';

export type IntegerOpInput =
  | { op: 'valuation'; n: string; p: string }
  | { op: 'perfect_power'; n: string }
  | { op: 'gcd'; values: string[] }
  | { op: 'root'; n: string; k: number };

export type IntegerOpOutput = Record<string, string | number | boolean | string[] | null>;

export function integerOpKernel(input: IntegerOpInput, ctx: KernelContext): IntegerOpOutput {
  if (ctx.signal.aborted) throw new JacobianError('EXECUTION_CANCELLED', 'the computation was cancelled');
  switch (input.op) {
    case 'valuation': {
      const v = valuation(BigInt(input.n), BigInt(input.p));
      return { valuation: v.exponent, unit_part: v.unit_part.toString() };
    }
    case 'perfect_power': {
      const r = perfectPower(BigInt(input.n));
      return r === null ? { base: null, exponent: null } : { base: r.base.toString(), exponent: r.exponent };
    }
    case 'gcd': {
      const r = extendedGcdMany(input.values.map((v) => BigInt(v)));
      return { gcd: r.gcd.toString(), coefficients: r.coefficients.map((c) => c.toString()) };
    }
    case 'root': {
      const r = integerRoot(BigInt(input.n), input.k);
      return { root: r.root.toString(), exact: r.exact, remainder: r.remainder.toString() };
    }
  }
}

/**
 * The isolated part of the modular capabilities: the request crossed a process boundary as JSON
 * and is parsed again here; the loops poll the run's deadline and stop with EXECUTION_TIMEOUT
 * (nothing concluded). Answers go back as the claim to store, with the primes that passed
 * Baillie–PSW only (above the deterministic Miller–Rabin bound).
 */
import { z } from 'zod';
import { JacobianError, ModularClaimSchema, toAppError, type ArithmeticBudget, type KernelContext, type ModularClaim, type PrimalityCertificate, type PrimePower } from '@jacobian/shared';
import type { PariTools } from '../../providers/pari.js';
import { certifyPrime } from '../primality/certify.js';
import { crt, discreteLog, inverseMod, kronecker, kroneckerByReciprocity, legendreByEuler, multiplicativeOrder, primitiveRoot, sqrtMod, type LocalLog } from './modular-arith.js';

const Text = z.string();
export const ModularKernelInput = z.discriminatedUnion('operation', [
  z.object({ operation: z.literal('inverse'), a: Text, n: Text }).strict(),
  z.object({ operation: z.literal('crt'), congruences: z.array(z.object({ residue: Text, modulus: Text }).strict()) }).strict(),
  z.object({ operation: z.literal('order'), a: Text, n: Text }).strict(),
  z.object({ operation: z.literal('primitive_root'), n: Text }).strict(),
  z.object({ operation: z.literal('discrete_log'), base: Text, target: Text, n: Text }).strict(),
  z.object({ operation: z.literal('sqrt'), a: Text, n: Text, max_roots: z.number().int() }).strict(),
  z.object({ operation: z.literal('symbol'), symbol: z.enum(['legendre', 'jacobi', 'kronecker']), a: Text, n: Text }).strict(),
]);
export type ModularKernelInput = z.infer<typeof ModularKernelInput>;

export const ModularKernelOutput = z
  .object({
    claim: ModularClaimSchema,
    unproven_primes: z.array(z.string()).describe('primes used that passed Baillie–PSW only (above 3.3·10^24): the answers that rest on them are not proven'),
    method: z.string(),
  })
  .strict();
export type ModularKernelOutput = z.infer<typeof ModularKernelOutput>;

const factors = (list: readonly PrimePower[]) => list.map((f) => ({ prime: f.prime.toString(), exponent: f.exponent }));
const localOrder = (l: LocalLog) => ({ prime: l.prime.toString(), exponent: l.exponent, order: l.order.toString(), order_factors: factors(l.order_factors) });

/** Primes of these factorizations that are not proven. */
function unproven(...lists: readonly (readonly PrimePower[])[]): string[] {
  return [...new Set(lists.flat().filter((f) => !f.proven).map((f) => f.prime.toString()))];
}

export function computeModular(input: ModularKernelInput, budget: ArithmeticBudget): ModularKernelOutput {
  switch (input.operation) {
    case 'inverse': {
      const r = inverseMod(BigInt(input.a), BigInt(input.n));
      const base = { kind: 'INVERSE' as const, a: input.a, n: input.n };
      const claim: ModularClaim = r.outcome === 'INVERTIBLE' ? { ...base, outcome: 'INVERTIBLE', inverse: r.inverse.toString() } : { ...base, outcome: 'NONE', gcd: r.gcd.toString() };
      return { claim, unproven_primes: [], method: 'extended Euclidean algorithm; a·a⁻¹ ≡ 1 rechecked' };
    }
    case 'crt': {
      const r = crt(input.congruences.map((c) => ({ residue: BigInt(c.residue), modulus: BigInt(c.modulus) })), budget);
      const base = { kind: 'CRT' as const, congruences: input.congruences };
      const claim: ModularClaim =
        r.outcome === 'SOLVED' ? { ...base, outcome: 'SOLVED', residue: r.residue.toString(), modulus: r.modulus.toString() } : { ...base, outcome: 'INCONSISTENT', first: r.first, second: r.second, gcd: r.gcd.toString() };
      return { claim, unproven_primes: [], method: 'pairwise merging by the extended Euclidean algorithm (moduli need not be coprime); every congruence rechecked' };
    }
    case 'order': {
      const r = multiplicativeOrder(BigInt(input.a), BigInt(input.n), budget);
      const base = { kind: 'ORDER' as const, a: input.a, n: input.n };
      if (r.outcome === 'NONE') return { claim: { ...base, outcome: 'NONE', gcd: r.gcd.toString() }, unproven_primes: [], method: 'gcd(a, n) > 1: a is not a unit' };
      return {
        claim: { ...base, outcome: 'FOUND', order: r.order.toString(), order_factors: factors(r.order_factors) },
        unproven_primes: unproven(r.modulus_factors, r.order_factors),
        method: `λ(n) = ${r.carmichael_lambda} from the factorization of n and of p − 1, divided by each prime q while a^(m/q) ≡ 1; a^ord ≡ 1 and a^(ord/q) ≢ 1 for every prime q | ord rechecked`,
      };
    }
    case 'primitive_root': {
      const r = primitiveRoot(BigInt(input.n), budget);
      if (r.outcome === 'NONE') {
        return { claim: { kind: 'PRIMITIVE_ROOT', n: input.n, outcome: 'NONE', modulus_factors: factors(r.modulus_factors) }, unproven_primes: unproven(r.modulus_factors), method: `Gauss's rule: ${r.reason}` };
      }
      return {
        claim: { kind: 'PRIMITIVE_ROOT', n: input.n, outcome: 'FOUND', root: r.root.toString(), least: true, modulus_factors: factors(r.modulus_factors), phi_factors: factors(r.phi_factors) },
        unproven_primes: unproven(r.modulus_factors, r.phi_factors),
        method: `candidates g = 2, 3, … coprime to n tested by g^(φ/q) ≢ 1 for every prime q | φ(n) = ${r.phi}: the first that passes is the least primitive root`,
      };
    }
    case 'discrete_log': {
      const r = discreteLog(BigInt(input.base), BigInt(input.target), BigInt(input.n), budget);
      const base = { kind: 'DISCRETE_LOG' as const, base: input.base, target: input.target, n: input.n };
      const method = 'Pohlig–Hellman modulo each prime power p^k of n (the order of the base there from λ(p^k)), baby-step giant-step per prime of the order (Pollard rho above 2^40), CRT of the local logarithms';
      switch (r.outcome) {
        case 'SOLVED':
          return {
            claim: { ...base, outcome: 'SOLVED', log: r.log.toString(), order: r.order.toString(), order_factors: factors(r.order_factors) },
            unproven_primes: unproven(r.order_factors, ...r.locals.map((l) => l.order_factors)),
            method: `${method}; g^x ≡ h rechecked by exponentiation`,
          };
        case 'NONE':
          if (r.reason === 'TARGET_NOT_UNIT') return { claim: { ...base, outcome: 'NONE', reason: r.reason, gcd: r.gcd.toString() }, unproven_primes: [], method: 'gcd(h, n) > 1 while every power of the unit g is a unit' };
          if (r.reason === 'NOT_IN_SUBGROUP_LOCALLY') return { claim: { ...base, outcome: 'NONE', reason: r.reason, local: localOrder(r.local) }, unproven_primes: unproven(r.local.order_factors), method };
          return {
            claim: { ...base, outcome: 'NONE', reason: r.reason, first: { ...localOrder(r.first), log: (r.first.log as bigint).toString() }, second: { ...localOrder(r.second), log: (r.second.log as bigint).toString() } },
            unproven_primes: unproven(r.first.order_factors, r.second.order_factors),
            method,
          };
      }
      throw new JacobianError('INTERNAL', 'unreachable');
    }
    case 'sqrt': {
      const r = sqrtMod(BigInt(input.a), BigInt(input.n), input.max_roots, budget);
      const base = { kind: 'SQRT' as const, a: input.a, n: input.n };
      const method = 'roots modulo each prime power of n (Tonelli–Shanks, or Cipolla when 2^24 | p − 1; Hensel lifting; 2^k by its residue mod 8; non-units by the valuation of a), combined by CRT; every root rechecked';
      if (r.outcome === 'NONE') {
        const f = r.failure;
        return { claim: { ...base, outcome: 'NONE', failure: { rule: f.rule, prime: f.prime.toString(), exponent: f.exponent, valuation: f.valuation } }, unproven_primes: unproven(r.modulus_factors), method };
      }
      return {
        claim: { ...base, outcome: 'SOLVED', count: r.count.toString(), roots: r.roots.map(String), complete: r.complete, modulus_factors: factors(r.modulus_factors) },
        unproven_primes: unproven(r.modulus_factors),
        method,
      };
    }
    case 'symbol': {
      const a = BigInt(input.a);
      const n = BigInt(input.n);
      const value = kronecker(a, n);
      // Rechecked by a second route: Euler's criterion for Legendre, reciprocity written out otherwise.
      const again = input.symbol === 'legendre' ? legendreByEuler(a, n) : kroneckerByReciprocity(a, n);
      if (again !== value) throw new JacobianError('INTERNAL', `the ${input.symbol} symbol failed its own recheck`);
      const method =
        input.symbol === 'legendre' ? 'binary quadratic reciprocity, rechecked by Euler’s criterion a^((p−1)/2) mod p' : 'binary quadratic reciprocity with Kronecker’s (a/2), (a/−1), (a/0), rechecked by a second implementation';
      return { claim: { kind: 'SYMBOL', symbol: input.symbol, a: input.a, n: input.n, value }, unproven_primes: [], method };
    }
  }
}

/** What the kernel is sent: the request, and PARI/GP's tools (for ECPP certificates) when the probe found them. */
export interface ModularKernelRequest {
  request: unknown;
  pari: PariTools | null;
  memory_mb: number;
}

/**
 * Certificates for the primes above the deterministic bound that an answer rests on (certifyPrime:
 * Pratt, or PARI's ECPP when gp is present; each replayed by our code before it is kept), within
 * half the time left; a prime that gets none stays in unproven_primes.
 */
export async function certifyUnproven(output: ModularKernelOutput, deps: { pari: PariTools | null; memoryMb?: number; deadline: number; signal?: AbortSignal }): Promise<ModularKernelOutput> {
  if (output.unproven_primes.length === 0 || !('outcome' in output.claim)) return output;
  const deadline = Date.now() + Math.max(0, (deps.deadline - Date.now()) / 2);
  const certificates: { prime: string; certificate: PrimalityCertificate }[] = [];
  const still: string[] = [];
  for (const prime of output.unproven_primes) {
    try {
      certificates.push({ prime, certificate: await certifyPrime(BigInt(prime), { pari: deps.pari ?? undefined, deadline, signal: deps.signal, memoryMb: deps.memoryMb }) });
    } catch (error) {
      const cause = toAppError(error);
      if (cause.code !== 'EXECUTION_TIMEOUT' && cause.code !== 'PROVIDER_FAILED') throw cause;
      still.push(prime);
    }
  }
  if (certificates.length === 0) return output;
  const claim = ModularClaimSchema.parse({ ...output.claim, prime_certificates: certificates });
  const how = certificates.map((c) => c.certificate.kind).join(', ');
  return { claim, unproven_primes: still, method: `${output.method}; ${certificates.length} prime(s) above 3.3·10^24 certified (${how}), each certificate replayed by our code` };
}

export async function modularKernel(raw: ModularKernelRequest, ctx: KernelContext): Promise<ModularKernelOutput> {
  const output = computeModular(ModularKernelInput.parse(raw.request), { deadline: ctx.deadline, signal: ctx.signal });
  return certifyUnproven(output, { pari: raw.pari, memoryMb: raw.memory_mb, deadline: ctx.deadline, signal: ctx.signal });
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cyclicSystem,
  JacobianError,
  katsuraSystem,
  parsePolynomial,
  parsePolynomials,
  polynomialToJson,
  resolveRing,
  ringSpecOf,
  type GroebnerBasisClaim,
  type KernelContext,
  type MonomialOrder,
  type Polynomial,
  type PolynomialRing,
  type StandardSystem,
} from '@jacobian/shared';
import { findSingular, singularReducedBases } from '@jacobian/shared/testing';
import { checkGroebnerBasisClaim, GroebnerRejectionReason, IdealInclusion } from './groebner-verify.js';
import { verifyGroebnerBasisKernel } from './groebner-verify.kernel.js';

const singular = findSingular();

function claimOf(R: PolynomialRing<unknown>, generators: readonly Polynomial<unknown>[], basis: readonly Polynomial<unknown>[], cofactors?: Polynomial<unknown>[][]): GroebnerBasisClaim {
  return {
    ring: ringSpecOf(R),
    generators: generators.map((g) => polynomialToJson(R, g)),
    basis: basis.map((b) => polynomialToJson(R, b)),
    ...(cofactors === undefined ? {} : { cofactors: cofactors.map((row) => row.map((c) => polynomialToJson(R, c))) }),
  };
}

function rejection(result: ReturnType<typeof checkGroebnerBasisClaim>): Extract<ReturnType<typeof checkGroebnerBasisClaim>, { accepted: false }> {
  if (result.accepted) throw new Error('expected a rejection');
  return result;
}

describe('checkGroebnerBasisClaim: claims built by hand', () => {
  const R = resolveRing({ field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' });
  const P = (s: string): Polynomial<unknown> => parsePolynomial(R, s);
  const generators = [P('x + y'), P('x - y')];
  // lex with x > y: the reduced basis of <x + y, x − y> is [y, x]; y = (f1 − f2)/2, x = (f1 + f2)/2.
  const basis = [P('y'), P('x')];
  const cofactors = [
    [P('1/2'), P('-1/2')],
    [P('1/2'), P('1/2')],
  ];

  it('accepts a correct basis with cofactors, and says both inclusions were shown', () => {
    const result = checkGroebnerBasisClaim(claimOf(R, generators, basis, cofactors));
    expect(result).toMatchObject({ accepted: true, ideal_inclusion: IdealInclusion.EQUAL, counts: { cofactor_rows_checked: 2, generators_reduced: 2 } });
  });
  it('accepts it without cofactors, saying only the generators were shown to lie in the basis ideal', () => {
    expect(checkGroebnerBasisClaim(claimOf(R, generators, basis))).toMatchObject({ accepted: true, ideal_inclusion: IdealInclusion.GENERATORS_IN_BASIS_ONLY });
  });
  it('rejects wrong cofactors, naming the row', () => {
    const wrong = [cofactors[0] as Polynomial<unknown>[], [P('1/2'), P('-1/2')]];
    expect(rejection(checkGroebnerBasisClaim(claimOf(R, generators, basis, wrong)))).toMatchObject({ reason_code: GroebnerRejectionReason.COFACTOR_MISMATCH, path: ['cofactors', 1], witness: '-x + y' });
  });
  it('rejects cofactor rows of the wrong shape', () => {
    expect(rejection(checkGroebnerBasisClaim(claimOf(R, generators, basis, [cofactors[0] as Polynomial<unknown>[]])))).toMatchObject({ reason_code: GroebnerRejectionReason.MALFORMED, path: ['cofactors'] });
  });
  it('rejects a zero element, a non-monic element, a basis of a larger ideal', () => {
    expect(rejection(checkGroebnerBasisClaim(claimOf(R, generators, [P('y'), P('0')])))).toMatchObject({ reason_code: GroebnerRejectionReason.ZERO_ELEMENT, path: ['basis', 1] });
    expect(rejection(checkGroebnerBasisClaim(claimOf(R, generators, [P('y'), P('2*x')])))).toMatchObject({ reason_code: GroebnerRejectionReason.NOT_MONIC, path: ['basis', 1] });
    // [1] is a reduced Groebner basis containing the generators, but of the unit ideal: only cofactors can tell.
    expect(checkGroebnerBasisClaim(claimOf(R, generators, [P('1')]))).toMatchObject({ accepted: true, ideal_inclusion: IdealInclusion.GENERATORS_IN_BASIS_ONLY });
    expect(rejection(checkGroebnerBasisClaim(claimOf(R, generators, [P('1')], [[P('0'), P('0')]])))).toMatchObject({ reason_code: GroebnerRejectionReason.COFACTOR_MISMATCH, path: ['cofactors', 0] });
  });
  it('rejects JSON that is not canonical as MALFORMED, and a claim that is not a claim as INVALID_REQUEST', () => {
    const claim = claimOf(R, generators, basis);
    const swapped = { ...claim, basis: [{ terms: [{ coefficient: '1', exponents: [0, 1] }, { coefficient: '1', exponents: [1, 0] }] }] };
    expect(rejection(checkGroebnerBasisClaim(swapped))).toMatchObject({ reason_code: GroebnerRejectionReason.MALFORMED, path: ['basis', 0, 'terms', 1] });
    expect(() => checkGroebnerBasisClaim({ ...claim, generators: [] })).toThrow(JacobianError);
    expect(() => checkGroebnerBasisClaim({ ...claim, ring: { ...claim.ring, field: { kind: 'GF', characteristic: '15' } } })).toThrow(/not a prime/);
  });
  it('rejects a basis that is not a Groebner basis, naming the S-pair', () => {
    // <x^2 − y, x*y − 1> under lex: the generators themselves are reduced but not a Groebner basis.
    const g = [P('x*y - 1'), P('x^2 - y')];
    const result = rejection(checkGroebnerBasisClaim(claimOf(R, g, g)));
    expect(result).toMatchObject({ reason_code: GroebnerRejectionReason.S_POLYNOMIAL_NOT_REDUCED_TO_ZERO, pair: [0, 1], path: ['basis', 0] });
  });
});

const SYSTEMS: [StandardSystem, MonomialOrder][] = [
  [cyclicSystem(4), 'grevlex'],
  [cyclicSystem(4), 'lex'],
  [katsuraSystem(3), 'grlex'],
  [cyclicSystem(5), 'grevlex'],
  [katsuraSystem(4), 'grevlex'],
];
const FIELDS = [{ kind: 'Q' as const }, { kind: 'GF' as const, characteristic: '32003' }];

describe.skipIf(singular.path === null)(`checkGroebnerBasisClaim on Singular's bases${singular.path === null ? ` (skipped: ${singular.reason})` : ''}`, () => {
  const problems = FIELDS.flatMap((field) =>
    SYSTEMS.map(([system, order]) => {
      const ring = resolveRing({ field, variables: system.variables, order });
      return { name: `${system.name}, ${ring.field.name}, ${order}`, ring, generators: parsePolynomials(ring, system.generators) };
    }),
  );
  const bases = singular.path === null ? [] : singularReducedBases(problems);

  problems.forEach((problem, k) => {
    const R = problem.ring;
    const basis = (bases[k] ?? []);
    const claim = (b: readonly Polynomial<unknown>[]): GroebnerBasisClaim => claimOf(R, problem.generators, b);

    it(`accepts Singular's basis and rejects its mutations: ${problem.name}`, () => {
      const accepted = checkGroebnerBasisClaim(claim(basis));
      expect(accepted).toMatchObject({ accepted: true });
      if (accepted.accepted) expect(accepted.counts.pairs_reduced + accepted.counts.pairs_skipped_chain + accepted.counts.pairs_skipped_coprime).toBe(accepted.counts.pairs_total);

      // Every element dropped in turn: either a generator no longer reduces to zero or an S-pair fails.
      basis.forEach((_, i) => {
        const result = rejection(checkGroebnerBasisClaim(claim(basis.filter((__, j) => j !== i))));
        expect([GroebnerRejectionReason.GENERATOR_NOT_REDUCED_TO_ZERO, GroebnerRejectionReason.S_POLYNOMIAL_NOT_REDUCED_TO_ZERO]).toContain(result.reason_code);
      });

      // A non-reduced element added: the product of the last element by the first variable, plus the first element.
      const first = basis[0] as Polynomial<unknown>;
      const last = basis[basis.length - 1] as Polynomial<unknown>;
      const extra = R.monic(R.add(R.mul(R.variable(0), last), first));
      const withExtra = [...basis, extra].sort((a, b) => R.compare(R.leadingTerm(a).monomial, R.leadingTerm(b).monomial));
      expect(rejection(checkGroebnerBasisClaim(claim(withExtra))).reason_code).toBe(GroebnerRejectionReason.NOT_REDUCED);
    });

    it(`rejects every change of one coefficient: ${problem.name}`, () => {
      const F = R.field;
      const withTerms = basis.map((b, i) => [i, b.length] as const);
      fc.assert(
        fc.property(fc.constantFrom(...withTerms), fc.nat(), fc.integer({ min: 1, max: 1000 }), ([i, length], t, delta) => {
          const term = t % length;
          const changed = basis.map((b, j) =>
            j !== i ? b : b.map((x, s) => (s === term ? { monomial: x.monomial, coefficient: F.add(x.coefficient, F.fromBigInt(BigInt(delta))) } : x)).filter((x) => !F.isZero(x.coefficient)),
          );
          const result = rejection(checkGroebnerBasisClaim(claim(changed)));
          // A leading coefficient changed is caught as non-monic (or, if it cancelled, as not reduced / not a basis); a tail coefficient by the reductions.
          if (term === 0) expect(result.path.slice(0, 2)).toEqual(['basis', i]);
          else expect([GroebnerRejectionReason.GENERATOR_NOT_REDUCED_TO_ZERO, GroebnerRejectionReason.S_POLYNOMIAL_NOT_REDUCED_TO_ZERO, GroebnerRejectionReason.NOT_REDUCED]).toContain(result.reason_code);
        }),
        { numRuns: 12 },
      );
    });
  });
});

describe('verifyGroebnerBasisKernel', () => {
  const ctx = (deadline: number): KernelContext => ({ deadline, signal: new AbortController().signal, progress: () => undefined });
  it('returns the verdict while there is time', () => {
    const R = resolveRing({ field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' });
    const generators = parsePolynomials(R, ['x^2 - y', 'x*y - 1']);
    expect(verifyGroebnerBasisKernel({ claim: claimOf(R, generators, parsePolynomials(R, ['y^3 - 1', 'x - y^2'])) }, ctx(Date.now() + 60_000))).toMatchObject({ accepted: true });
  });
  it('stops with EXECUTION_TIMEOUT, not a verdict, once the deadline has passed', () => {
    const R = resolveRing({ field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' });
    const generators = parsePolynomials(R, ['x*y - 1', 'x^2 - y']);
    // The claim is reduced and holds its generators, so the checker reaches the S-pairs and polls there.
    expect(checkGroebnerBasisClaim(claimOf(R, generators, generators))).toMatchObject({ accepted: false, reason_code: GroebnerRejectionReason.S_POLYNOMIAL_NOT_REDUCED_TO_ZERO });
    try {
      verifyGroebnerBasisKernel({ claim: claimOf(R, generators, generators) }, ctx(Date.now() - 1));
      expect.unreachable('the kernel should have stopped');
    } catch (error) {
      expect((error as JacobianError).code).toBe('EXECUTION_TIMEOUT');
    }
  });
});

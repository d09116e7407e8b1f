// Exact elliptic curve arithmetic against published data (Cremona's tables / LMFDB, typed in):
// 11a1, 37a1, 389a1, 5077a1, Mazur's torsion structures, and properties of the group law.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EllipticCurveClaimSchema, requireEllipticCurve, weierstrassOf } from './elliptic-claim.js';
import {
  addPoints,
  changeModel,
  countPointsModP,
  curveInvariants,
  formatRational,
  hasExactOrder,
  isOnCurve,
  MAZUR_STRUCTURES,
  multiplyPoint,
  negatePoint,
  parseRational,
  pointOrder,
  pointToModel,
  rational,
  torsionSubgroup,
  type CurvePoint,
  type Weierstrass,
} from './elliptic.js';
import { qpolyCompose, qpolyIsZero } from './number-field.js';

const curve = (...a: (number | string)[]): Weierstrass => weierstrassOf(a.map(String));
const pt = (x: number | string, y: number | string): CurvePoint => ({ x: parseRational(String(x))!, y: parseRational(String(y))! });
const text = (P: CurvePoint): string => (P === null ? 'O' : `(${formatRational(P.x)}, ${formatRational(P.y)})`);

const E11a1 = curve(0, -1, 1, -10, -20);
const E37a1 = curve(0, 0, 1, -1, 0);
const E389a1 = curve(0, 1, 1, -2, 0);
const E5077a1 = curve(0, 0, 1, -7, 6);
const E14a1 = curve(1, 0, 1, 4, -6);

describe('invariants', () => {
  it('discriminants and j-invariants of 11a1, 37a1, 389a1, 5077a1 (Cremona)', () => {
    const inv = (a: Weierstrass): [string, string] => {
      const i = curveInvariants(a);
      return [formatRational(i.discriminant), formatRational(i.j!)];
    };
    expect(inv(E11a1)).toEqual(['-161051', '-122023936/161051']);
    expect(inv(E37a1)).toEqual(['37', '110592/37']);
    expect(inv(E389a1)).toEqual(['389', '1404928/389']);
    expect(inv(E5077a1)).toEqual(['5077', '37933056/5077']);
  });

  it('refuses a singular equation naming the rule', () => {
    expect(() => requireEllipticCurve(['0', '0', '0', '0', '0'], ['payload', 'curve'])).toThrow(/rule non-singular/);
    expect(() => requireEllipticCurve(['0', '0', '0', '-3', '2'], ['payload', 'curve'])).toThrow(/singular/); // y² = (x − 1)²(x + 2)
    expect(() => requireEllipticCurve(['0', '0', '0', '-1', '0'], ['payload', 'curve'])).not.toThrow();
  });

  it('the claim schema reads integers and fractions canonically and refuses bad text', () => {
    const claim = EllipticCurveClaimSchema.parse({ curve: [0, '2/4', 0, '-6/3', 1], points: [{ point: ['0', '1'], order: 'infinite' }] });
    expect(claim.curve).toEqual(['0', '1/2', '0', '-2', '1']);
    expect(EllipticCurveClaimSchema.safeParse({ curve: [0, 0, 0, 1] }).success).toBe(false);
    expect(EllipticCurveClaimSchema.safeParse({ curve: [0, 0, 0, '1/0', 1] }).success).toBe(false);
    expect(EllipticCurveClaimSchema.safeParse({ curve: [0, 0, 0, '01', 1] }).success).toBe(false);
    expect(EllipticCurveClaimSchema.safeParse({ curve: [0, 0, 0, 1.5, 1] }).success).toBe(false);
  });
});

describe('group law', () => {
  it('37a1: P = (0, 0) generates; [2]P = (1, 0), [3]P = (−1, −1), [5]P = (1/4, −5/8), and P has infinite order', () => {
    const P = pt(0, 0);
    expect(isOnCurve(E37a1, P)).toBe(true);
    expect(text(multiplyPoint(E37a1, P, 2n))).toBe('(1, 0)');
    expect(text(multiplyPoint(E37a1, P, 3n))).toBe('(-1, -1)');
    expect(text(multiplyPoint(E37a1, P, 5n))).toBe('(1/4, -5/8)');
    expect(pointOrder(E37a1, P)).toBeNull();
    expect(isOnCurve(E37a1, pt(0, 1))).toBe(false);
  });

  it('11a1: (5, 5) has order 5, exactly', () => {
    const P = pt(5, 5);
    expect(isOnCurve(E11a1, P)).toBe(true);
    expect(pointOrder(E11a1, P)).toBe(5);
    expect(hasExactOrder(E11a1, P, 5)).toBe(true);
    expect(hasExactOrder(E11a1, P, 10)).toBe(false);
    expect(hasExactOrder(E11a1, P, 1)).toBe(false);
  });

  it('389a1 (rank 2): (−1, 1) and (0, 0) are on the curve, of infinite order, and P + Q is on the curve', () => {
    const P = pt(-1, 1);
    const Q = pt(0, 0);
    expect([isOnCurve(E389a1, P), isOnCurve(E389a1, Q)]).toEqual([true, true]);
    expect([pointOrder(E389a1, P), pointOrder(E389a1, Q)]).toEqual([null, null]);
    expect(isOnCurve(E389a1, addPoints(E389a1, P, Q))).toBe(true);
  });

  it('Mazur: curves with torsion Z/7, Z/9, Z/12, Z/2 × Z/8 have generators of exactly that order and subgroups of that size', () => {
    const cases: { a: Weierstrass; gens: CurvePoint[]; orders: number[]; size: number }[] = [
      { a: curve(1, -1, 1, -3, 3), gens: [pt(-1, 2)], orders: [7], size: 7 }, // 26b1
      { a: curve(1, -1, 1, -14, 29), gens: [pt(-3, 7)], orders: [9], size: 9 }, // 54b3
      { a: curve(1, 0, 1, -19, 26), gens: [pt(1, 2), pt(3, -2)], orders: [6, 2], size: 12 }, // 30a2: Z/6 × Z/2
      { a: curve(1, 0, 1, 4, -6), gens: [pt(9, 23)], orders: [6], size: 6 }, // 14a1
    ];
    for (const { a, gens, orders, size } of cases) {
      gens.forEach((P, i) => {
        expect(isOnCurve(a, P), text(P)).toBe(true);
        expect(pointOrder(a, P), text(P)).toBe(orders[i]);
      });
      expect(torsionSubgroup(a, gens)?.length).toBe(size);
    }
  });

  it("Mazur's fifteen structures, one curve each (Cremona labels where we are sure of them, else the conductor; structures confirmed with PARI/GP when written): generators of exactly the stated orders, a subgroup of the stated size, and a reduction bound that the order divides", () => {
    const cases: [string, Weierstrass, [number, number], CurvePoint[]][] = [
      ['37a1', curve(0, 0, 1, -1, 0), [1, 1], []],
      ['conductor 30', curve(1, 0, 1, -14, -64), [1, 2], [pt(5, -3)]],
      ['conductor 27', curve(0, 0, 1, 0, 0), [1, 3], [pt(0, 0)]],
      ['conductor 15, Z/4', curve(1, 1, 1, -80, 242), [1, 4], [pt(5, -2)]],
      ['11a3', curve(0, -1, 1, 0, 0), [1, 5], [pt(0, 0)]],
      ['14a1', curve(1, 0, 1, 4, -6), [1, 6], [pt(9, 23)]],
      ['26b1', curve(1, -1, 1, -3, 3), [1, 7], [pt(-1, 2)]],
      ['15a4', curve(1, 1, 1, 35, -28), [1, 8], [pt(2, 6)]],
      ['54b3', curve(1, -1, 1, -14, 29), [1, 9], [pt(-3, 7)]],
      ['66c1', curve(1, 0, 0, -45, 81), [1, 10], [pt(0, 9)]],
      ['90c3', curve(1, -1, 1, -122, 1721), [1, 12], [pt(-9, 49)]],
      ['conductor 48', curve(0, 1, 0, -4, -4), [2, 2], [pt(-2, 0), pt(-1, 0)]],
      ['15a1', curve(1, 1, 1, -10, -10), [2, 4], [pt(-2, 3), pt(-1, 0)]],
      ['30a2', curve(1, 0, 1, -19, 26), [2, 6], [pt(1, 2), pt(3, -2)]],
      ['210e2', curve(1, 0, 0, -1070, 7812), [2, 8], [pt(4, 58), pt(-36, 18)]],
    ];
    expect(cases.map(([, , structure]) => structure)).toEqual(MAZUR_STRUCTURES.map(([a, b]) => [a, b]));
    for (const [label, a, [n1, n2], gens] of cases) {
      gens.forEach((P, i) => {
        expect(isOnCurve(a, P), label).toBe(true);
        expect(hasExactOrder(a, P, i === 0 ? n2 : n1), label).toBe(true);
      });
      expect(torsionSubgroup(a, gens)?.length, label).toBe(n1 * n2);
      let bound = 0n;
      for (const p of [3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n, 43n]) {
        const disc = curveInvariants(a).discriminant;
        if (disc.num % p === 0n) continue;
        bound = gcdBig(bound, countPointsModP(a, p));
      }
      expect(bound % BigInt(n1 * n2), label).toBe(0n);
    }
  });

  it('210e2 = [1, 0, 0, −1070, 7812] has torsion Z/2 × Z/8: an order-8 and an order-2 point generate 16 points, and point counts bound the torsion by 16', () => {
    const a = curve(1, 0, 0, -1070, 7812);
    const P8 = pt(4, 58);
    const Q2 = pt(-36, 18);
    expect(isOnCurve(a, P8)).toBe(true);
    const order8 = pointOrder(a, P8);
    const order2 = pointOrder(a, Q2);
    expect([order8, order2, isOnCurve(a, Q2)]).toEqual([8, 2, true]);
    expect(torsionSubgroup(a, [P8, Q2])?.length).toBe(16);
    const disc = curveInvariants(a).discriminant.num;
    let g = 0n;
    for (const p of [3n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n]) {
      if (disc % p === 0n) continue;
      const n = countPointsModP(a, p);
      g = g === 0n ? n : gcdBig(g, n);
    }
    expect(g).toBe(16n);
  });

  it('property: on 37a1 and 389a1, [m]P + [n]P = [m + n]P, P + (−P) = O, and every multiple stays on the curve', () => {
    fc.assert(
      fc.property(fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 }), fc.constantFrom<[Weierstrass, CurvePoint]>([E37a1, pt(0, 0)], [E389a1, pt(-1, 1)], [E389a1, pt(0, 0)]), (m, n, [a, P]) => {
        const mP = multiplyPoint(a, P, BigInt(m));
        const nP = multiplyPoint(a, P, BigInt(n));
        expect(isOnCurve(a, mP)).toBe(true);
        expect(text(addPoints(a, mP, nP))).toBe(text(multiplyPoint(a, P, BigInt(m + n))));
        expect(addPoints(a, mP, negatePoint(a, mP))).toBeNull();
      }),
      { numRuns: 60 },
    );
  });
});

describe('models', () => {
  it('[1/2, 0, 0, 3, 1] with [u, r, s, t] = [1/2, 0, 0, 0] becomes [1, 0, 0, 48, 64], points move with it, Δ scales by u^-12', () => {
    const a = curve('1/2', 0, 0, 3, 1);
    const change = { u: rational(1n, 2n), r: rational(0n), s: rational(0n), t: rational(0n) };
    const b = changeModel(a, change);
    expect(b.map(formatRational)).toEqual(['1', '0', '0', '48', '64']);
    const da = curveInvariants(a).discriminant;
    const db = curveInvariants(b).discriminant;
    expect(formatRational(db)).toBe(formatRational(rational(da.num * 4096n, da.den)));
  });

  it('property: a random change of variables keeps j, maps points on E to points on E′, and respects the group law', () => {
    const q = fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: 1, max: 5 })).map(([n, d]) => rational(BigInt(n), BigInt(d)));
    fc.assert(
      fc.property(q.filter((u) => u.num !== 0n), q, q, q, fc.integer({ min: 1, max: 4 }), (u, r, s, t, k) => {
        const change = { u, r, s, t };
        // 389a1 (a1 = 0) and 14a1 (a1 = a3 = 1, so every term of the formulas is exercised).
        for (const [a, P0, Q] of [[E389a1, pt(-1, 1), pt(0, 0)], [E14a1, pt(9, 23), pt(1, -3)]] as const) {
          const b = changeModel(a, change);
          expect(formatRational(curveInvariants(b).j!)).toBe(formatRational(curveInvariants(a).j!));
          const P = multiplyPoint(a, P0, BigInt(k));
          const P2 = pointToModel(P, change);
          expect(isOnCurve(b, P2)).toBe(true);
          expect(text(pointToModel(addPoints(a, P, Q), change))).toBe(text(addPoints(b, P2, pointToModel(Q, change))));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('#Ẽ(F_p) of 11a1 at p = 3, 7, 13: a_p = 2 − #, with a_3 = −1, a_7 = −2, a_13 = 4 (LMFDB)', () => {
    expect([3n, 7n, 13n].map((p) => p + 1n - countPointsModP(E11a1, p))).toEqual([-1n, -2n, 4n]);
    expect(() => countPointsModP(E11a1, 11n)).toThrow(/discriminant/);
  });

  it('Q[x]/(T): x² − 2 composed into T = x² − 2 vanishes; x + 1 does not', () => {
    const T = [rational(-2n), rational(0n), rational(1n)];
    expect(qpolyIsZero(qpolyCompose(T, [rational(0n), rational(1n)], T))).toBe(true);
    expect(qpolyIsZero(qpolyCompose(T, [rational(1n), rational(1n)], T))).toBe(false);
  });
});

function gcdBig(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

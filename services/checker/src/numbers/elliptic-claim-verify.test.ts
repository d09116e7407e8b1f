// elliptic_curve.claim.verify: accepted claims on known curves (Cremona / LMFDB values typed in),
// VERIFIED with a signed record; tampered claims rejected naming the part and rule; property
// tests against the shared arithmetic (a second implementation) on random multiples and models.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeModel, formatRational, multiplyPoint, parseRational, rational, verifyRecordSignature, weierstrassOf, type CapabilityResult, type InstalledCapability } from '@jacobian/shared';
import { completedOutput, createCheckerHarness, type CheckerHarness } from '../checker-test-support.js';
import { checkEllipticCurveClaim } from './elliptic-claim-verify.js';
import { verifyEllipticCurveClaim, type EllipticClaimVerifyOutput } from './elliptic-claim-verify-capability.js';

const E11a1 = [0, -1, 1, -10, -20];
const E37a1 = [0, 0, 1, -1, 0];
const E210e2 = [1, 0, 0, -1070, 7812];
const E14a1 = [1, 0, 1, 4, -6];

const reason = (claim: unknown): string | null => {
  const r = checkEllipticCurveClaim(claim);
  return r.accepted ? null : r.reason_code;
};

describe('the elliptic curve claim check', () => {
  it('accepts true claims: 11a1 torsion Z/5 complete, 210e2 Z/2 × Z/8 complete, 37a1 (0, 0) of infinite order, 389a1 points, a model change', () => {
    expect(reason({ curve: E11a1, torsion: { structure: [5], generators: [['5', '5']], bound_primes: [3, 7] } })).toBeNull();
    expect(reason({ curve: E210e2, torsion: { structure: [8, 2], generators: [['4', '58'], ['-36', '18']], bound_primes: [11, 13, 17, 19, 23] } })).toBeNull();
    expect(reason({ curve: E37a1, points: [{ point: ['0', '0'], order: 'infinite' }, { point: ['1/4', '-5/8'], order: 'infinite' }] })).toBeNull();
    expect(reason({ curve: [0, 1, 1, -2, 0], points: [{ point: ['-1', '1'], order: 'infinite' }, { point: ['0', '0'], order: 'infinite' }] })).toBeNull();
    expect(reason({ curve: ['1/2', 0, 0, 3, 1], model_change: { change: { u: '1/2', r: 0, s: 0, t: 0 }, model: [1, 0, 0, 48, 64] } })).toBeNull();
    expect(reason({ curve: E37a1, torsion: { structure: [], generators: [], bound_primes: [3, 5] } })).toBeNull();
  });

  it('rejects: a singular curve, a point off the curve, a wrong order, a torsion point claimed infinite', () => {
    expect(reason({ curve: [0, 0, 0, -3, 2] })).toBe('SINGULAR');
    expect(reason({ curve: E37a1, points: [{ point: ['0', '1/2'], order: 'infinite' }] })).toBe('NOT_ON_CURVE');
    expect(reason({ curve: E11a1, points: [{ point: ['5', '5'], order: 10 }] })).toBe('WRONG_ORDER');
    expect(reason({ curve: E11a1, points: [{ point: ['5', '5'], order: 'infinite' }] })).toBe('FINITE_ORDER');
    expect(reason({ curve: E37a1, points: [{ point: ['0', '0'], order: 5 }] })).toBe('WRONG_ORDER');
  });

  it('rejects tampered torsion: a structure outside Mazur\'s list, dependent generators, a missing bound, a bad prime', () => {
    expect(reason({ curve: E11a1, torsion: { structure: [11], generators: [['5', '5']] } })).toBe('TORSION_SHAPE');
    // (4, 58) has order 8 and [4](4, 58) has order 2: the pair generates only Z/8.
    const P = { x: parseRational('4')!, y: parseRational('58')! };
    const fourP = multiplyPoint(weierstrassOf(E210e2.map(String)), P, 4n)!;
    expect(reason({ curve: E210e2, torsion: { structure: [8, 2], generators: [['4', '58'], [formatRational(fourP.x), formatRational(fourP.y)]] } })).toBe('SUBGROUP_ORDER');
    // 11a2 has trivial torsion but every #Ẽ(F_p) is divisible by 5: the bound cannot prove completeness.
    expect(reason({ curve: [0, -1, 1, -7820, -263580], torsion: { structure: [], generators: [], bound_primes: [3, 7, 13, 17] } })).toBe('BOUND_NOT_MET');
    // Only Z/5 of the Z/2 × Z/8 is claimed, with a complete bound: false.
    expect(reason({ curve: E210e2, torsion: { structure: [8], generators: [['4', '58']], bound_primes: [11, 13] } })).toBe('BOUND_NOT_MET');
    expect(reason({ curve: E11a1, torsion: { structure: [5], generators: [['5', '5']], bound_primes: [11] } })).toBe('BOUND_PRIME_INVALID');
    expect(reason({ curve: E11a1, torsion: { structure: [5], generators: [['5', '5']], bound_primes: [9] } })).toBe('BOUND_PRIME_INVALID');
  });

  it('rejects a wrong model change and u = 0', () => {
    expect(reason({ curve: ['1/2', 0, 0, 3, 1], model_change: { change: { u: '1/2', r: 0, s: 0, t: 0 }, model: [1, 0, 0, 48, 63] } })).toBe('MODEL_MISMATCH');
    expect(reason({ curve: ['1/2', 0, 0, 3, 1], model_change: { change: { u: '1/2', r: 1, s: 0, t: 0 }, model: [1, 0, 0, 48, 64] } })).toBe('MODEL_MISMATCH');
    expect(reason({ curve: E37a1, model_change: { change: { u: 0, r: 0, s: 0, t: 0 }, model: E37a1 } })).toBe('MODEL_CHANGE_INVALID');
  });

  it('property: agrees with the shared arithmetic on random changes of variables (accepts the true model, rejects a perturbed one)', () => {
    const q = fc.tuple(fc.integer({ min: -7, max: 7 }), fc.integer({ min: 1, max: 4 })).map(([n, d]) => rational(BigInt(n), BigInt(d)));
    fc.assert(
      fc.property(q.filter((u) => u.num !== 0n), q, q, q, fc.integer({ min: 0, max: 4 }), (u, r, s, t, k) => {
        // 37a1 (a1 = 0) and 14a1 (a1 = a3 = 1: every term of the change formulas matters).
        for (const curve of [E37a1, E14a1]) {
          const model = changeModel(weierstrassOf(curve.map(String)), { u, r, s, t }).map(formatRational);
          const change = { u: formatRational(u), r: formatRational(r), s: formatRational(s), t: formatRational(t) };
          expect(reason({ curve, model_change: { change, model } })).toBeNull();
          const wrong = model.map((c, i) => (i === k ? formatRational(rational(BigInt(parseRational(c)!.num) + parseRational(c)!.den, parseRational(c)!.den)) : c));
          expect(reason({ curve, model_change: { change, model: wrong } })).toBe('MODEL_MISMATCH');
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe('elliptic_curve.claim.verify as a capability', () => {
  let h: CheckerHarness;
  let verify: InstalledCapability;
  let unauthorized: InstalledCapability;
  const out = (result: CapabilityResult): EllipticClaimVerifyOutput => completedOutput<EllipticClaimVerifyOutput>(result);

  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-elliptic-checker-');
    verify = await h.install(verifyEllipticCurveClaim);
    unauthorized = await h.install(verifyEllipticCurveClaim, false);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('verifies every advertised example with a signed record', async () => {
    for (const example of verify.descriptor.examples) {
      const result = await h.run(verify, example.payload);
      const output = out(result);
      expect(output.verdict, example.title).toBe('ACCEPTED');
      expect(result.assurance.level).toBe('VERIFIED');
      const record = await h.artifacts.get(output.verification_record_uri as string);
      expect(verifyRecordSignature(record.payload, h.trusted)).toMatchObject({ body: { candidate_uri: output.claim_uri } });
    }
  });

  it('rejects a tampered claim with COMPUTED assurance naming the path', async () => {
    const result = await h.run(verify, { claim: { curve: E11a1, torsion: { structure: [5], generators: [['5', '6']] } } });
    const output = out(result);
    expect(output).toMatchObject({ verdict: 'REJECTED', reason_code: 'NOT_ON_CURVE', failure: { path: ['torsion', 'generators', 0] } });
    expect(result.assurance.level).toBe('COMPUTED');
  });

  it('refuses to verify when the operator has not authorized it', async () => {
    const result = await h.run(unauthorized, { claim: { curve: E37a1 } });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]?.code).toBe('CHECKER_NOT_AUTHORIZED');
  });
});

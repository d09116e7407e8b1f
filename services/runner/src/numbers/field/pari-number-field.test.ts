/**
 * Number fields and elliptic curves on the real PARI/GP, against values published in the LMFDB
 * and Cremona's tables (typed in here): class numbers of quadratic and cubic fields, discriminants,
 * conductors 11, 37, 389, 5077, torsion structures, ranks. Skipped only where gp is not installed.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeModel, curveInvariants, formatRational, multiplyPoint, rational, weierstrassOf, type CapabilityDefinition, type CapabilityResult, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { gpRational } from './support.js';
import { gpProgram, PARI_PROVIDER, probePari, runGp, type PariTools } from '../../providers/pari.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../../testing/fixtures.js';
import { ellipticInvariants, ellipticRankBound, ellipticTorsion, kodairaSymbol } from './elliptic-curve.js';
import { numberFieldClassGroup, numberFieldInvariants } from './number-field.js';
import type { PariBackendOptions } from './support.js';

/** The pack's factories, typed loosely enough to hold them all. */
const FACTORIES: readonly ((runtime: ProviderRuntime, options: PariBackendOptions) => CapabilityDefinition<never, unknown>)[] = [numberFieldInvariants, numberFieldClassGroup, ellipticInvariants, ellipticTorsion, ellipticRankBound] as never;

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));
const PARI: ProviderRuntime = { ...FAKE_RUNTIME, provider: PARI_PROVIDER };

it('Kodaira codes of PARI/GP read as symbols', () => {
  expect([0, 1, 2, 3, 5, 9, -1, -2, -3, -4, -5, -7].map(kodairaSymbol)).toEqual(['I0', 'II', 'III', 'IV', 'I1', 'I5', 'I0*', 'II*', 'III*', 'IV*', 'I1*', 'I3*']);
});

it('refuses to register on any provider but PARI/GP', () => {
  for (const create of FACTORIES) expect(() => create(FAKE_RUNTIME, {})).toThrow(/PARI\/GP only/);
  // On PARI/GP's runtime it installs; a run reads the tools the probe found (PROVIDER_UNAVAILABLE without them).
  for (const create of FACTORIES) expect(() => create({ ...FAKE_RUNTIME, provider: PARI_PROVIDER }, {})).not.toThrow();
});

describe.skipIf(GP === undefined)('number fields and elliptic curves on PARI/GP', () => {
  let h: CapabilityHarness;
  let tools: PariTools;
  const installed = new Map<string, InstalledCapability>();
  beforeAll(async () => {
    h = await createCapabilityHarness();
    tools = (await probePari({ binary: GP as string })).tools;
    for (const create of FACTORIES) {
      const capability = h.install(create(PARI, { pari: { tools } }), PARI);
      installed.set(capability.descriptor.id, capability);
    }
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  async function run(id: string, payload: Record<string, unknown>): Promise<CapabilityResult> {
    return h.run(installed.get(id) as InstalledCapability, { capability_id: id, payload });
  }
  async function output<O>(id: string, payload: Record<string, unknown>): Promise<{ output: O; result: CapabilityResult }> {
    const result = await run(id, payload);
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(result.assurance.level).toBe('COMPUTED');
    return { output: result.output as O, result };
  }

  it('every advertised example completes', async () => {
    for (const capability of installed.values()) {
      for (const example of capability.descriptor.examples) {
        const result = await run(capability.descriptor.id, example.payload);
        expect(result.execution.status, `${capability.descriptor.id}: ${example.title} ${JSON.stringify(result.diagnostics)}`).toBe('COMPLETED');
      }
    }
  });

  it('invariants: the cubic field of x³ − x² − 2x + 1 (disc 49, totally real), Q(√−5) (disc −20), and a non-monic 3x² + 5 ≅ Q(√−15)', async () => {
    type Inv = { degree: number; signature: { r1: number; r2: number }; discriminant: string; discriminant_factorization: { prime: string; exponent: number }[]; integral_basis: string[][]; reduced_polynomial: string[]; monic_model: { scale: string }; maximal_order_certified: boolean; isomorphism: { checked: boolean } };
    const cubic = (await output<Inv>('number_field.invariants.compute', { polynomial: [1, -1, -2, 1] })).output;
    expect(cubic).toMatchObject({ degree: 3, signature: { r1: 3, r2: 0 }, discriminant: '49', discriminant_factorization: [{ prime: '7', exponent: 2 }], maximal_order_certified: true });
    expect(cubic.reduced_polynomial).toEqual(['1', '-1', '-2', '1']);
    const q5 = (await output<Inv>('number_field.invariants.compute', { polynomial: [1, 0, 5] })).output;
    expect(q5).toMatchObject({ signature: { r1: 0, r2: 1 }, discriminant: '-20', integral_basis: [['1', '0'], ['0', '1']] });
    const nonMonic = (await output<Inv>('number_field.invariants.compute', { polynomial: [3, 0, 5] })).output;
    // θ² = −5/3; the ring of integers of Q(√−15) has discriminant −15 and reduced polynomial x² − x + 4.
    expect(nonMonic).toMatchObject({ discriminant: '-15', monic_model: { scale: '3' }, reduced_polynomial: ['1', '-1', '4'], isomorphism: { checked: true } });
    expect(nonMonic.integral_basis[0]).toEqual(['1', '0']);
    // (1 + 3θ)/2 = (1 + √−15)/2 is the other basis element (up to sign and adding integers).
    expect(nonMonic.integral_basis[1]?.[1]).toMatch(/^-?3\/2$/);
  });

  it('class numbers: Q(√−5) = 2, Q(√−23) = 3, Q(√79) = 3 with unit 80 + 9√79 (up to sign and inverse), the cubic x³ − x² − 2x + 1 = 1 with two units; GRH unless certified', async () => {
    type Cl = { class_number: string; class_group: string[]; fundamental_units: string[][]; torsion_units: { order: number }; grh_assumed: boolean; certified: boolean; regulator: string };
    const q5 = await output<Cl>('number_field.class_group.compute', { polynomial: [1, 0, 5] });
    expect(q5.output).toMatchObject({ class_number: '2', class_group: ['2'], fundamental_units: [], torsion_units: { order: 2 }, grh_assumed: true, certified: false });
    expect(q5.result.obligations.map((o) => [o.id, o.status])).toEqual([['grh', 'OPEN']]);
    expect(q5.result.assurance.basis).toMatch(/Generalized Riemann Hypothesis/);
    const certified = await output<Cl>('number_field.class_group.compute', { polynomial: [1, 0, 5], certify: true });
    expect(certified.output).toMatchObject({ class_number: '2', grh_assumed: false, certified: true });
    expect(certified.result.obligations).toEqual([]);
    expect(certified.result.assurance.basis).toMatch(/bnfcertify/);
    expect((await output<Cl>('number_field.class_group.compute', { polynomial: [1, 0, 23] })).output).toMatchObject({ class_number: '3', class_group: ['3'] });
    const q79 = (await output<Cl>('number_field.class_group.compute', { polynomial: [1, 0, -79] })).output;
    expect(q79).toMatchObject({ class_number: '3', torsion_units: { order: 2 } });
    const [unit] = q79.fundamental_units;
    expect(unit?.map((c) => c.replace('-', ''))).toEqual(['80', '9']);
    expect(q79.regulator).toMatch(/^5\.0751/);
    const cubic = (await output<Cl>('number_field.class_group.compute', { polynomial: [1, -1, -2, 1] })).output;
    expect(cubic).toMatchObject({ class_number: '1', class_group: [] });
    expect(cubic.fundamental_units).toHaveLength(2);
  });

  it('seeded random polynomials of degree 2 … 5, monic or not: every recheck passes (or the polynomial is refused as reducible), and both capabilities agree on degree and signature', async () => {
    let seed = 35;
    const next = (lo: number, hi: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return lo + (Math.floor(seed / 65536) % (hi - lo + 1));
    };
    let completed = 0;
    for (let i = 0; i < 14; i++) {
      const degree = next(2, 5);
      const polynomial = [next(1, 4), ...Array.from({ length: degree - 1 }, () => next(-9, 9)), next(1, 9) * (next(0, 1) === 0 ? -1 : 1)];
      const invariants = await run('number_field.invariants.compute', { polynomial });
      if (invariants.execution.status === 'ERROR') {
        expect(JSON.stringify(invariants.diagnostics), JSON.stringify(polynomial)).toMatch(/rule irreducible/);
        continue;
      }
      expect(invariants.execution.status, `${JSON.stringify(polynomial)} ${JSON.stringify(invariants.diagnostics)}`).toBe('COMPLETED');
      const classes = await run('number_field.class_group.compute', { polynomial });
      expect(classes.execution.status, `${JSON.stringify(polynomial)} ${JSON.stringify(classes.diagnostics)}`).toBe('COMPLETED');
      const [a, b] = [invariants.output as { degree: number; signature: unknown }, classes.output as { degree: number; signature: unknown }];
      expect([b.degree, b.signature]).toEqual([a.degree, a.signature]);
      completed++;
    }
    expect(completed).toBeGreaterThanOrEqual(8);
  });

  it('a certification that cannot finish in the budget leaves the GRH answer with a diagnostic (Q(√−(10^16 + 61)): bnfcertify takes minutes)', async () => {
    const result = await h.run(installed.get('number_field.class_group.compute') as InstalledCapability, {
      capability_id: 'number_field.class_group.compute',
      payload: { polynomial: [1, 0, '10000000000000061'], certify: true },
      budget: { wall_time_ms: 8000 },
    });
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    expect(result.output).toMatchObject({ class_number: '117989442', grh_assumed: true, certified: false });
    expect(result.obligations.map((o) => [o.id, o.status])).toEqual([['grh', 'OPEN']]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['CERTIFICATION_INCOMPLETE']);
  });

  it('refuses a reducible polynomial and a constant term 0, naming the rule', async () => {
    const reducible = await run('number_field.invariants.compute', { polynomial: [1, 0, -4] });
    expect(reducible.execution.status).toBe('ERROR');
    expect(reducible.diagnostics[0]?.message).toMatch(/rule irreducible/);
    const zero = await run('number_field.class_group.compute', { polynomial: [1, 0, 0] });
    expect(zero.execution.status).toBe('ERROR');
    expect(JSON.stringify(zero.diagnostics)).toMatch(/irreducible/);
  });

  it('curve invariants: conductors 11, 37, 389, 5077 (Cremona), 11a1 has I5 with c_11 = 5, and a non-minimal model with a fraction is minimalized exactly', async () => {
    type EI = { conductor: string; j_invariant: string; discriminant: string; local_data: { prime: string; kodaira_symbol: string; tamagawa_number: string; conductor_exponent: number }[]; minimal_model: { coefficients: string[]; change: Record<string, string>; minimality_checked_by_us: boolean } };
    const conductors: [unknown[], string][] = [
      [[0, -1, 1, -10, -20], '11'],
      [[0, 0, 1, -1, 0], '37'],
      [[0, 1, 1, -2, 0], '389'],
      [[0, 0, 1, -7, 6], '5077'],
    ];
    for (const [curve, N] of conductors) expect((await output<EI>('elliptic_curve.invariants.compute', { curve })).output.conductor).toBe(N);
    const e11 = (await output<EI>('elliptic_curve.invariants.compute', { curve: [0, -1, 1, -10, -20] })).output;
    expect(e11.local_data).toEqual([{ prime: '11', conductor_exponent: 1, reduction: 'multiplicative', kodaira_symbol: 'I5', tamagawa_number: '5', discriminant_valuation: 5 }]);
    expect(e11.j_invariant).toBe('-122023936/161051');
    const scaled = (await output<EI>('elliptic_curve.invariants.compute', { curve: ['1/2', 0, 0, 3, 1] })).output;
    expect(scaled.minimal_model.coefficients).toEqual(['1', '0', '0', '48', '64']);
    expect(scaled.minimal_model.change).toEqual({ u: '1/2', r: '0', s: '0', t: '0' });
    // y² = x³ + 2^12·(x + 1)... scaled by u = 2 from y² = x³ − x: [0, 0, 0, −16, 0] is not minimal at 2.
    const big = (await output<EI>('elliptic_curve.invariants.compute', { curve: [0, 0, 0, -16 * 81, 0] })).output;
    expect(big.conductor).toBe('32');
    // y² = x³ − 40x is minimal, but at 2 the valuations of c4, c6, Δ do not decide it (Kraus): left to PARI/GP, and said so.
    const kraus = (await output<EI & { minimal_model: { minimality_left_to_pari: string[] } }>('elliptic_curve.invariants.compute', { curve: [0, 0, 0, -40, 0] })).output;
    expect(kraus).toMatchObject({ conductor: '6400', minimal_model: { coefficients: ['0', '0', '0', '-40', '0'], minimality_checked_by_us: false, minimality_left_to_pari: ['2'] } });
  });

  it('agrees with PARI/GP directly on seeded random curves and changes of variables (Δ, j, ellchangecurve) and on multiples of points (ellmul)', async () => {
    let seed = 20261208;
    const next = (lo: number, hi: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return lo + (seed % (hi - lo + 1));
    };
    const definitions: string[] = [];
    const expected: string[][] = [];
    for (let i = 0; i < 25; i++) {
      const texts = [next(-3, 3), next(-3, 3), next(-3, 3), next(-50, 50), next(-50, 50)].map(String);
      texts[next(0, 4)] = `${next(-9, 9)}/${next(1, 7)}`;
      const a = weierstrassOf(texts.map((t) => formatRational(rational(BigInt(t.split('/')[0] as string), BigInt(t.split('/')[1] ?? '1')))));
      const inv = curveInvariants(a);
      if (inv.discriminant.num === 0n) continue;
      const change = { u: rational(BigInt(next(1, 5)), BigInt(next(1, 3))), r: rational(BigInt(next(-4, 4)), 2n), s: rational(BigInt(next(-3, 3))), t: rational(BigInt(next(-4, 4)), 3n) };
      const literal = (x: ReturnType<typeof rational>): string => gpRational(formatRational(x));
      definitions.push(`E${i}=ellinit([${a.map(literal).join(',')}]);C${i}=ellchangecurve(E${i},[${[change.u, change.r, change.s, change.t].map(literal).join(',')}]);`);
      expected.push([formatRational(inv.discriminant), formatRational(inv.j as ReturnType<typeof rational>), ...changeModel(a, change).map(formatRational)]);
    }
    const names = expected.map((_, i) => `c${i}`);
    const answer = await runGp(tools.binary, gpProgram(definitions, names.map((name, i) => ({ name, statements: `jv(concat([E${i}.disc,E${i}.j],[C${i}.a1,C${i}.a2,C${i}.a3,C${i}.a4,C${i}.a6]));` }))), names, { deadline: Date.now() + 20_000, maxOutputBytes: 1 << 20 });
    expect(expected.length).toBeGreaterThan(15);
    expected.forEach((row, i) => expect(answer.sections[`c${i}`]?.[0], `curve ${i}`).toEqual(row));

    const E389 = weierstrassOf(['0', '1', '1', '-2', '0']);
    const multiples = [2, 3, 7, 12, -5];
    const P = { x: rational(-1n), y: rational(1n) };
    const mul = await runGp(tools.binary, gpProgram(['E=ellinit([0,1,1,-2,0]);'], [{ name: 'm', statements: `foreach([${multiples.join(',')}],k,jv(ellmul(E,[-1,1],k)));` }]), ['m'], { deadline: Date.now() + 20_000, maxOutputBytes: 1 << 20 });
    expect(mul.sections['m']).toEqual(multiples.map((k) => {
      const Q = multiplyPoint(E389, P, BigInt(k));
      return Q === null ? ['0'] : [formatRational(Q.x), formatRational(Q.y)];
    }));
  });

  it('refuses a singular curve before gp runs', async () => {
    const singular = await run('elliptic_curve.torsion.compute', { curve: [0, 0, 0, -3, 2] });
    expect(singular.execution.status).toBe('ERROR');
    expect(singular.diagnostics[0]?.message).toMatch(/rule non-singular/);
  });

  it('torsion: 14a1 Z/6, 11a1 Z/5, 30a2 Z/6 × Z/2, 210e2 Z/2 × Z/8, 37a1 trivial, completeness proven by reduction; 11a2 (trivial, isogenous to Z/5) left to PARI/GP', async () => {
    type T = { order: number; structure: number[]; structure_text: string; completeness_proven_by_us: boolean; torsion_bound: string; result_uri: string | null };
    const cases: [unknown[], number, string][] = [
      [[1, 0, 1, 4, -6], 6, 'Z/6'],
      [[0, -1, 1, -10, -20], 5, 'Z/5'],
      [[1, 0, 1, -19, 26], 12, 'Z/2 × Z/6'],
      [[1, 0, 0, -1070, 7812], 16, 'Z/2 × Z/8'],
      [[0, 0, 1, -1, 0], 1, 'trivial'],
    ];
    for (const [curve, order, text] of cases) {
      const t = (await output<T>('elliptic_curve.torsion.compute', { curve })).output;
      expect(t, JSON.stringify(curve)).toMatchObject({ order, structure_text: text, completeness_proven_by_us: true, torsion_bound: String(order) });
      expect(t.result_uri).toMatch(/^artifact:\/\//);
    }
    const e11a2 = (await output<T>('elliptic_curve.torsion.compute', { curve: [0, -1, 1, -7820, -263580] })).output;
    expect(e11a2).toMatchObject({ order: 1, completeness_proven_by_us: false, torsion_bound: '5' });
  });

  it('rank bounds: 11a1 rank 0, 37a1 rank 1, 389a1 rank 2, 5077a1 rank 3, each point on the curve; bounds are never called a rank when they differ', async () => {
    type R = { rank_lower_bound: number; rank_upper_bound: number; rank: number | null; rank_determined: boolean; points: string[][] };
    for (const [curve, rank] of [
      [[0, -1, 1, -10, -20], 0],
      [[0, 0, 1, -1, 0], 1],
      [[0, 1, 1, -2, 0], 2],
      [[0, 0, 1, -7, 6], 3],
    ] as const) {
      const { output: r, result } = await output<R>('elliptic_curve.rank.bound', { curve });
      expect(r, JSON.stringify(curve)).toMatchObject({ rank_lower_bound: rank, rank_upper_bound: rank, rank, rank_determined: true });
      expect(result.qualifiers).toContain('BOUNDED');
      expect(r.points.length).toBeLessThanOrEqual(rank);
    }
    // Without rational 2-torsion (389a1) the descent uses bnfinit on a cubic field: GRH stays open; with it (y² = x³ − x, rank 0) it does not.
    const cubic = await output<R>('elliptic_curve.rank.bound', { curve: [0, 1, 1, -2, 0] });
    expect(cubic.result.obligations.map((o) => [o.id, o.status])).toEqual([['grh', 'OPEN']]);
    expect(cubic.output).toMatchObject({ two_torsion_point: null });
    const split = await output<R & { two_torsion_point: string[] | null; assumptions: string }>('elliptic_curve.rank.bound', { curve: [0, 0, 0, -1, 0] });
    expect(split.output).toMatchObject({ rank: 0, rank_determined: true });
    expect(split.output.two_torsion_point?.[1]).toBe('0');
    expect(split.result.obligations).toEqual([]);
    expect(split.output.assumptions).toMatch(/does not rest on GRH/);
    // y² = x³ − 127²x: PARI's documented example, rank 1 with no point found at effort 0.
    const noPoint = await output<R>('elliptic_curve.rank.bound', { curve: [0, 0, 0, -(127 ** 2), 0] });
    expect(noPoint.output).toMatchObject({ rank_lower_bound: 1, rank_upper_bound: 1, points: [] });
    // Its lower bound comes from parity alone (no point): it assumes Ш[2^∞] finite; it has 2-torsion, so no GRH.
    expect(noPoint.result.obligations.map((o) => o.id)).toEqual(['sha-finite']);
  });
});

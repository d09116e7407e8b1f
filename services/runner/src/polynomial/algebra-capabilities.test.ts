import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapabilityResultSchema,
  FACTORIZATION_SCHEMA_URI,
  FactorizationClaimSchema,
  MEMBERSHIP_SCHEMA_URI,
  MembershipClaimSchema,
  POLYNOMIAL_LIST_SCHEMA_URI,
  type CapabilityDefinition, type CapabilityResult, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { findSingular } from '@jacobian/shared/testing';
import { probeSingular, SINGULAR_PROVIDER, type SingularTools } from '../providers/singular.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import {
  ALGEBRA_TS_PROVIDER,
  type AlgebraBackendOptions,
  algebraTsProvider,
  expressionNormalize,
  factorCompute,
  gcdCompute,
  resultantCompute,
  type FactorOutput,
  type GcdOutput,
  type NormalizeOutput,
  type ResultantOutput,
} from './algebra-capabilities.js';
import { idealMembershipDecide, type MembershipOutput } from './membership-capability.js';

const singularFound = findSingular();
const TS: ProviderRuntime = { ...FAKE_RUNTIME, provider: ALGEBRA_TS_PROVIDER };
const Q = { kind: 'Q' as const };
const QX = { field: Q, variables: ['x'], order: 'lex' };
const QXY = { field: Q, variables: ['x', 'y'], order: 'grevlex' };
const LEX_XY = { field: Q, variables: ['x', 'y'], order: 'lex' };

function ok<O>(result: CapabilityResult): O {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  return result.output as O;
}

describe('polynomial algebra capabilities on our TypeScript provider', () => {
  let h: CapabilityHarness;
  let normalize: InstalledCapability;
  let gcd: InstalledCapability;
  let resultant: InstalledCapability;
  let membership: InstalledCapability;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    normalize = h.install(expressionNormalize(TS));
    gcd = h.install(gcdCompute(TS));
    resultant = h.install(resultantCompute(TS));
    membership = h.install(idealMembershipDecide(TS));
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('the provider probes with a source digest', async () => {
    const runtime = await algebraTsProvider().probe();
    expect(runtime).toMatchObject({ provider: ALGEBRA_TS_PROVIDER, digest_kind: 'SOURCE_TREE', availability: 'AVAILABLE' });
  });

  it('normalizes texts to canonical form and stores them as a polynomial list', async () => {
    const out = ok<NormalizeOutput>(await h.run(normalize, { capability_id: 'polynomial.expression.normalize', mode: 'EXPLORE', payload: { ring: QXY, polynomials: ['(x + y)^2 - 2*x*y', 'x/2 + 1/2', 'x - x'] } }));
    expect(out).toMatchObject({ polynomials: ['x^2 + y^2', '1/2*x + 1/2', '0'], terms: [2, 2, 0], degrees: [2, 1, -1] });
    expect((await h.artifacts.get(out.result_uri as string)).manifest.schema_uri).toBe(POLYNOMIAL_LIST_SCHEMA_URI);
    const bad = await h.run(normalize, { capability_id: 'polynomial.expression.normalize', mode: 'EXPLORE', payload: { ring: QXY, polynomials: ['x + ', 'z'] } });
    expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'polynomials', 0] });
  });

  it('computes normalized gcds (Euclid and recursive remainder sequences)', async () => {
    const uni = ok<GcdOutput>(await h.run(gcd, { capability_id: 'polynomial.gcd.compute', mode: 'EXPLORE', payload: { ring: QX, polynomials: ['2*x^2 - 2', '4*x^2 + 8*x + 4'] } }));
    expect(uni).toMatchObject({ gcd: 'x + 1', degree: 1 });
    expect(uni.engine.method).toContain('Euclid');
    const multi = ok<GcdOutput>(await h.run(gcd, { capability_id: 'polynomial.gcd.compute', mode: 'EXPLORE', payload: { ring: { ...QXY, field: { kind: 'GF', characteristic: '101' } }, polynomials: ['(x + y)*(x - 2*y)', '(x + y)^2'] } }));
    expect(multi.gcd).toBe('x + y');
    expect(multi.engine.method).toContain('remainder sequence');
    const bad = await h.run(gcd, { capability_id: 'polynomial.gcd.compute', mode: 'EXPLORE', payload: { ring: { ...QX, field: { kind: 'GF', characteristic: '12' } }, polynomials: ['x'] } });
    expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'ring', 'field', 'characteristic'] });
  });

  it('computes resultants and names a bad variable', async () => {
    const out = ok<ResultantOutput>(await h.run(resultant, { capability_id: 'polynomial.resultant.compute', mode: 'EXPLORE', payload: { ring: LEX_XY, f: 'x^2 + y^2 - 1', g: 'x - y', variable: 'y' } }));
    expect(out).toMatchObject({ resultant: '2*x^2 - 1', degrees: { f: 2, g: 1 } });
    const bad = await h.run(resultant, { capability_id: 'polynomial.resultant.compute', mode: 'EXPLORE', payload: { ring: LEX_XY, f: 'x', g: 'y', variable: 'z' } });
    expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'variable'] });
  });

  it('refuses a resultant whose Sylvester matrix is over the TypeScript limit before computing, naming the fields', async () => {
    expect(resultant.descriptor.limits).toMatchObject({ max_sylvester_size: 200 });
    // deg_y f + deg_y g = 150 + 51 = 201: one above the limit; 200 is accepted.
    const over = await h.run(resultant, { capability_id: 'polynomial.resultant.compute', mode: 'EXPLORE', payload: { ring: LEX_XY, f: 'y^150 + x', g: 'y^51 - 1', variable: 'y' } });
    expect(over.execution.status).toBe('ERROR');
    expect(over.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'g'] });
    expect(over.diagnostics[0]?.message).toContain('201');
    expect(over.artifact_uris).toEqual([]);
    const at = ok<ResultantOutput>(await h.run(resultant, { capability_id: 'polynomial.resultant.compute', mode: 'EXPLORE', payload: { ring: LEX_XY, f: 'y^199 + x', g: 'y - 1', variable: 'y' } }));
    expect(at.degrees).toEqual({ f: 199, g: 1 });
    expect(at.resultant).toBe('-x - 1');
  });

  it('decides membership with a stored certificate, and non-membership with the normal form', async () => {
    const yes = await h.run(membership, { capability_id: 'polynomial.ideal_membership.decide', mode: 'EXPLORE', payload: { ring: LEX_XY, generators: ['x^2 - y', 'x*y - 1'], polynomial: 'y^3 - 1' } });
    const member = ok<MembershipOutput>(yes);
    expect(member).toMatchObject({ verdict: 'MEMBER', remainder: null, basis: ['y^3 - 1', 'x - y^2'] });
    expect(member.cofactors).toHaveLength(2);
    const stored = await h.artifacts.get(member.result_uri as string);
    expect(stored.manifest.schema_uri).toBe(MEMBERSHIP_SCHEMA_URI);
    expect(MembershipClaimSchema.parse(stored.payload).verdict).toBe('MEMBER');
    expect(yes.obligations.map((o) => o.id)).toEqual(['independent-verification']);
    const no = ok<MembershipOutput>(await h.run(membership, { capability_id: 'polynomial.ideal_membership.decide', mode: 'EXPLORE', payload: { ring: LEX_XY, generators: ['x^2 - y', 'x*y - 1'], polynomial: 'x + 1' } }));
    expect(no).toMatchObject({ verdict: 'NOT_MEMBER', cofactors: null, remainder: 'y^2 + 1' });
    const claim = MembershipClaimSchema.parse((await h.artifacts.get(no.result_uri as string)).payload);
    expect(claim.basis_cofactors).toHaveLength(2);
    const bad = await h.run(membership, { capability_id: 'polynomial.ideal_membership.decide', mode: 'EXPLORE', payload: { ring: LEX_XY, generators: ['x^2 - y'], polynomial: 'x^^2' } });
    expect(bad.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'polynomial'] });
  });

  it('stops a long gcd at the budget with TIMEOUT and nothing concluded', async () => {
    const payload = { ring: { ...QXY, variables: ['x', 'y', 'z'] }, polynomials: ['(x^3*y - 2*z + 1)^5*(x + y*z)^4*(x - y + 3)^3', '(x^3*y - 2*z + 1)^4*(x + y*z)^3*(x + y + z)^8'] };
    const result = await h.run(gcd, { capability_id: 'polynomial.gcd.compute', mode: 'EXPLORE', payload, budget: { wall_time_ms: 1000 } });
    expect(result.execution.status).toBe('TIMEOUT');
    expect(result.output).toBeNull();
  }, 30_000);

  it('refuses to register on a provider it does not run on', () => {
    expect(() => factorCompute(TS)).toThrow(/REGISTRATION|singular/i);
    expect(() => gcdCompute(FAKE_RUNTIME)).toThrow(/not test-provider/);
    expect(() => gcdCompute({ ...FAKE_RUNTIME, provider: SINGULAR_PROVIDER })).toThrow(/tools/);
  });

  it('carries small examples that run', async () => {
    for (const definition of [expressionNormalize(TS), gcdCompute(TS), resultantCompute(TS), idealMembershipDecide(TS)] as unknown as CapabilityDefinition<unknown, unknown>[]) {
      const installed = h.install(definition);
      for (const example of definition.examples) {
        const result = await h.run(installed, { capability_id: definition.id, mode: example.mode, payload: example.payload });
        expect(result.execution.status, `${definition.id}: ${example.title}`).toBe('COMPLETED');
      }
    }
  }, 60_000);
});

describe.skipIf(singularFound.path === null)('polynomial algebra capabilities on Singular', () => {
  let h: CapabilityHarness;
  let tools: SingularTools;
  let runtime: ProviderRuntime;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    const probed = await probeSingular();
    tools = probed.tools;
    runtime = probed.runtime;
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('gcd, resultant and membership agree with our TypeScript provider', async () => {
    const cases = [
      { id: 'polynomial.gcd.compute', payload: { ring: QXY, polynomials: ['(x^2 - y^2)*(3*x + 2*y)^2', '(x + y)*(6*x + 4*y)*(x - 7)'] } },
      { id: 'polynomial.gcd.compute', payload: { ring: { ...QXY, field: { kind: 'GF', characteristic: '32003' } }, polynomials: ['(x*y + 3)*(x - y)^2', '(x*y + 3)*(x + y)'] } },
      { id: 'polynomial.resultant.compute', payload: { ring: { field: Q, variables: ['x', 'a', 'b', 'c'], order: 'lex' }, f: 'a*x^2 + b*x + c', g: '2*a*x + b', variable: 'x' } },
      { id: 'polynomial.resultant.compute', payload: { ring: LEX_XY, f: 'x^3*y - 2*y^2 + x', g: '3*x*y^2 - x^2 + 5', variable: 'x' } },
      { id: 'polynomial.ideal_membership.decide', payload: { ring: LEX_XY, generators: ['x^2 - y', 'x*y - 1'], polynomial: 'y^3 - 1 + x^5*(x*y - 1)' } },
      { id: 'polynomial.ideal_membership.decide', payload: { ring: QXY, generators: ['x^2 - y', 'x*y - 1'], polynomial: 'x^3 + y' } },
    ];
    const make = { 'polynomial.gcd.compute': gcdCompute, 'polynomial.resultant.compute': resultantCompute, 'polynomial.ideal_membership.decide': idealMembershipDecide } as const;
    for (const c of cases) {
      const factory = make[c.id as keyof typeof make] as unknown as (r: ProviderRuntime, o?: AlgebraBackendOptions) => CapabilityDefinition<unknown, unknown>;
      const native = ok<Record<string, unknown>>(await h.run(h.install(factory(runtime, { singular: { tools } }), runtime), { capability_id: c.id, mode: 'EXPLORE', payload: c.payload }));
      const ours = ok<Record<string, unknown>>(await h.run(h.install(factory(TS)), { capability_id: c.id, mode: 'EXPLORE', payload: c.payload }));
      for (const key of ['gcd', 'resultant', 'verdict', 'remainder', 'basis']) expect(native[key], `${c.id} ${key}`).toEqual(ours[key]);
    }
  }, 60_000);

  it('factors over Q and GF(p), stores the claim, and keeps irreducibility open', async () => {
    const factor = h.install(factorCompute(runtime, { singular: { tools } }), runtime);
    const run = (ring: unknown, polynomial: string): Promise<CapabilityResult> => h.run(factor, { capability_id: 'polynomial.factor.compute', mode: 'EXPLORE', payload: { ring, polynomial } });
    const q = await run(QX, '2*x^4 - 2');
    const out = ok<FactorOutput>(q);
    expect(out.unit).toBe('2');
    expect(out.factors.map((f) => f.factor).sort()).toEqual(['x + 1', 'x - 1', 'x^2 + 1'].sort());
    expect(q.obligations.map((o) => o.id)).toEqual(['factors-irreducible']);
    const claim = await h.artifacts.get(out.result_uri as string);
    expect(claim.manifest.schema_uri).toBe(FACTORIZATION_SCHEMA_URI);
    expect(FactorizationClaimSchema.parse(claim.payload).factors).toHaveLength(3);
    const gf = ok<FactorOutput>(await run({ field: { kind: 'GF', characteristic: '5' }, variables: ['x'], order: 'lex' }, '3*x^2 + 3'));
    expect(gf.unit).toBe('3');
    expect(gf.factors.map((f) => f.factor).sort()).toEqual(['x + 2', 'x + 3']);
    const multi = ok<FactorOutput>(await run(QXY, '6*x^3*y - 6*x*y^3'));
    expect(multi.unit).toBe('6');
    expect(multi.factors.map((f) => `${f.factor}^${f.multiplicity}`).sort()).toEqual(['x + y^1', 'x - y^1', 'x^1', 'y^1'].sort());
    const square = ok<FactorOutput>(await run(QX, 'x^2 - 2*x + 1'));
    expect(square.factors).toEqual([{ factor: 'x - 1', multiplicity: 2 }]);
    const zero = await run(QX, 'x - x');
    expect(zero.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'polynomial'] });
    const big = await run({ field: { kind: 'GF', characteristic: '2147483647' }, variables: ['x'], order: 'lex' }, 'x^2 + 1');
    expect(big.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'ring', 'field', 'characteristic'] });
    for (const example of factorCompute(runtime, { singular: { tools } }).examples) {
      expect((await h.run(factor, { capability_id: 'polynomial.factor.compute', mode: example.mode, payload: example.payload })).execution.status).toBe('COMPLETED');
    }
  }, 60_000);
});

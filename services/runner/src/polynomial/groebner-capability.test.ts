import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapabilityResultSchema,
  cyclicSystem,
  GROEBNER_BASIS_SCHEMA_URI,
  GROEBNER_BASIS_SEMANTICS_URI,
  GroebnerBasisClaimSchema,
  JacobianError,
  katsuraSystem,
  parsePolynomial,
  POLYNOMIAL_LIST_SCHEMA_URI,
  polynomialFromJson,
  resolveRing,
  type CapabilityResult,
  type InstalledCapability,
  type MonomialOrder,
  type Polynomial,
  type ProviderRuntime,
  type StandardSystem,
} from '@jacobian/shared';
import { findSingular } from '@jacobian/shared/testing';
import { probeSingular, type SingularTools } from '../providers/singular.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { GROEBNER_TS_PROVIDER, groebnerBasisCompute, groebnerTsProvider, type GroebnerBasisOutput } from './groebner-capability.js';
import { mulberry32 as random } from '@jacobian/shared/testing';

const singularFound = findSingular();
const TS_RUNTIME: ProviderRuntime = { ...FAKE_RUNTIME, provider: GROEBNER_TS_PROVIDER };
const ID = 'polynomial.groebner_basis.compute';
const GF = { kind: 'GF' as const, characteristic: '32003' };
const Q = { kind: 'Q' as const };


/** Random ideals in x, y, z: 2–3 generators of 2–4 terms of degree ≤ 3 with small coefficients (some rational). */
function randomIdeals(count: number, seed: number): string[][] {
  const next = random(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return Array.from({ length: count }, () =>
    Array.from({ length: int(2, 3) }, () =>
      Array.from({ length: int(2, 4) }, () => {
        const e = [0, 0, 0];
        for (let d = int(0, 3); d > 0; d--) (e[int(0, 2)] as number)++;
        const c = int(-9, 9) || 1;
        return `${c}${int(0, 3) === 0 ? `/${int(2, 5)}` : ''}*x^${e[0]}*y^${e[1]}*z^${e[2]}`;
      }).join(' + '),
    ),
  );
}

function outputOf(result: CapabilityResult): GroebnerBasisOutput {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  return result.output as GroebnerBasisOutput;
}

/** Σ_j cofactors[i][j]·generators[j] = basis[i] for every i, in the shared reference arithmetic. */
function cofactorsHold(ring: Parameters<typeof resolveRing>[0], generators: readonly string[], output: GroebnerBasisOutput): boolean {
  const R = resolveRing(ring);
  const gens = generators.map((g) => parsePolynomial(R, g));
  const rows = output.cofactors ?? [];
  if (rows.length !== output.basis.length) return false;
  return output.basis.every((text, i) => {
    let sum: Polynomial<unknown> = [];
    (rows[i] ?? []).forEach((c, j) => {
      sum = R.add(sum, R.mul(parsePolynomial(R, c), gens[j] as Polynomial<unknown>));
    });
    return R.equals(sum, parsePolynomial(R, text));
  });
}

describe('polynomial.groebner_basis.compute on our TypeScript engine', () => {
  let h: CapabilityHarness;
  let ts: InstalledCapability;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    ts = h.install(groebnerBasisCompute(TS_RUNTIME));
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('computes a basis, states its scope, and stores the claim and the basis list', async () => {
    const ring = { field: Q, variables: ['x', 'y'], order: 'lex' };
    const result = await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring, generators: ['x^2 - y', 'x*y - 1'], cofactors: true } });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    const out = outputOf(result);
    expect(out).toMatchObject({ basis: ['y^3 - 1', 'x - y^2'], count: 2, leading_monomials: ['y^3', 'x'], ideal: 'PROPER', max_degree: 3, generators: 2 });
    expect(cofactorsHold(ring, ['x^2 - y', 'x*y - 1'], out)).toBe(true);
    expect(result.completeness.status).toBe('COMPLETE');
    expect(result.scope?.statement).toContain('Q[x, y], lex with x > y');
    expect(result.assurance.level).toBe('COMPUTED');
    expect(result.obligations.map((o) => o.id)).toEqual(['independent-verification']);
    const claim = await h.artifacts.get(out.result_uri as string);
    expect(claim.manifest).toMatchObject({ schema_uri: GROEBNER_BASIS_SCHEMA_URI, semantics_uri: GROEBNER_BASIS_SEMANTICS_URI });
    expect(GroebnerBasisClaimSchema.parse(claim.payload).cofactors).toHaveLength(2);
    const list = await h.artifacts.get(out.basis_uri as string);
    expect(list.manifest).toMatchObject({ schema_uri: POLYNOMIAL_LIST_SCHEMA_URI, parents: [out.result_uri] });
    expect(result.artifact_uris).toEqual([out.result_uri, out.basis_uri]);
  });

  it('names the zero and the unit ideal, and keeps the certificate obligation without cofactors', async () => {
    const ring = { field: GF, variables: ['x', 'y'], order: 'grevlex' };
    const zero = outputOf(await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring, generators: ['0', 'x - x'] } }));
    expect(zero).toMatchObject({ basis: [], count: 0, ideal: 'ZERO', max_degree: -1, cofactors: null });
    const unit = await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring, generators: ['x*y - 1', 'x'] } });
    expect(outputOf(unit)).toMatchObject({ basis: ['1'], ideal: 'UNIT' });
    expect(unit.obligations.map((o) => o.id)).toEqual(['independent-verification', 'basis-in-ideal-certificate']);
  });

  it('reads a stored basis back as generators_uri, in another order', async () => {
    const system = katsuraSystem(3);
    const grevlex = { field: Q, variables: system.variables, order: 'grevlex' };
    const first = outputOf(await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring: grevlex, generators: system.generators } }));
    const lex = { ...grevlex, order: 'lex' };
    const viaUri = await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring: lex, generators_uri: first.basis_uri } });
    const direct = outputOf(await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring: lex, generators: system.generators } }));
    expect(outputOf(viaUri).basis).toEqual(direct.basis);
    expect(outputOf(viaUri).generators_uri).toBe(first.basis_uri);
    expect(viaUri.relationships).toContainEqual({ subject: outputOf(viaUri).result_uri, predicate: 'COMPUTED_FROM', object: first.basis_uri });
    expect(viaUri.scope?.input_uris).toEqual([first.basis_uri]);

    const otherVariables = await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring: { ...lex, variables: ['a', 'b', 'c', 'd'] }, generators_uri: first.basis_uri } });
    expect(otherVariables.execution.status).toBe('ERROR');
    expect(otherVariables.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'ring'] });
    const wrongType = await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring: lex, generators_uri: first.result_uri } });
    expect(wrongType.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'generators_uri'] });
    const missing = await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring: lex, generators_uri: `artifact://sha256/${'0'.repeat(64)}` } });
    expect(missing.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_NOT_FOUND', path: ['payload', 'generators_uri'] });
  });

  it('rejects bad requests with an error naming the field and the rule, writing nothing', async () => {
    const before = await h.files();
    const ring = { field: Q, variables: ['x', 'y'], order: 'grevlex' };
    const run = (payload: Record<string, unknown>): Promise<CapabilityResult> => h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload });
    const syntax = await run({ ring, generators: ['x + y', 'x*w'] });
    expect(syntax.execution.status).toBe('ERROR');
    expect(syntax.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'generators', 1] });
    expect(syntax.diagnostics[0]?.message).toMatch(/column 3.*rule: variable/);
    const bracket = await run({ ring, generators: ['(x + y'] });
    expect(bracket.diagnostics[0]?.message).toMatch(/payload\.generators\.0, column \d+/);
    const notPrime = await run({ ring: { ...ring, field: { kind: 'GF', characteristic: '32001' } }, generators: ['x'] });
    expect(notPrime.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'ring', 'field', 'characteristic'] });
    const both = await run({ ring, generators: ['x'], generators_uri: `artifact://sha256/${'0'.repeat(64)}` });
    expect(both.diagnostics[0]?.path).toEqual(['payload', 'generators_uri']);
    const neither = await run({ ring });
    expect(neither.diagnostics[0]?.path).toEqual(['payload', 'generators']);
    const order = await run({ ring: { ...ring, order: 'deglex' }, generators: ['x'] });
    expect(order.diagnostics[0]?.path).toEqual(['payload', 'ring', 'order']);
    const duplicate = await run({ ring: { ...ring, variables: ['x', 'x'] }, generators: ['x'] });
    expect(duplicate.diagnostics[0]?.path).toEqual(['payload', 'ring', 'variables']);
    expect(await h.files()).toEqual(before);
  });

  it('answers TIMEOUT, concluding nothing, when the budget ends first', async () => {
    const before = await h.files();
    const system = cyclicSystem(7);
    const result = await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring: { field: Q, variables: system.variables, order: 'grevlex' }, generators: system.generators }, budget: { wall_time_ms: 500 } });
    expect(result.execution.status).toBe('TIMEOUT');
    expect(result.output).toBeNull();
    expect(result.diagnostics[0]?.code).toBe('EXECUTION_TIMEOUT');
    expect(await h.files()).toEqual(before);
  });

  it('registers only on its two providers, and the TypeScript provider digests its sources', async () => {
    expect(() => groebnerBasisCompute({ ...FAKE_RUNTIME, provider: 'z3-solver' })).toThrow(JacobianError);
    expect(() => groebnerBasisCompute({ ...FAKE_RUNTIME, provider: 'singular' })).toThrow(/needs the tools/);
    const runtime = await groebnerTsProvider().probe();
    expect(runtime).toMatchObject({ provider: GROEBNER_TS_PROVIDER, digest_kind: 'SOURCE_TREE' });
  });
});

describe.skipIf(singularFound.path === null)(`polynomial.groebner_basis.compute: Singular against our TypeScript engine${singularFound.path === null ? ` (skipped: ${singularFound.reason})` : ''}`, () => {
  let h: CapabilityHarness;
  let ts: InstalledCapability;
  let sing: InstalledCapability;
  let tools: SingularTools;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    ts = h.install(groebnerBasisCompute(TS_RUNTIME));
    const probed = await probeSingular();
    tools = probed.tools;
    sing = h.install(groebnerBasisCompute(probed.runtime, { singular: { tools } }), probed.runtime);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  const both = async (payload: Record<string, unknown>): Promise<[GroebnerBasisOutput, GroebnerBasisOutput]> => {
    const a = outputOf(await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload, budget: { wall_time_ms: 120_000 } }));
    const b = outputOf(await h.run(sing, { capability_id: ID, mode: 'EXPLORE', payload, budget: { wall_time_ms: 120_000 } }));
    return [a, b];
  };

  const SYSTEMS: StandardSystem[] = [cyclicSystem(4), cyclicSystem(5), katsuraSystem(3), katsuraSystem(4), katsuraSystem(5)];
  for (const field of [Q, GF]) {
    for (const order of ['grevlex', 'grlex'] as MonomialOrder[]) {
      it(`gives the same reduced bases on cyclic-4/5 and katsura-3/4/5: ${field.kind === 'Q' ? 'Q' : 'GF(32003)'}, ${order}`, { timeout: 300_000 }, async () => {
        for (const system of SYSTEMS) {
          const [a, b] = await both({ ring: { field, variables: system.variables, order }, generators: system.generators });
          expect(b.basis, system.name).toEqual(a.basis);
          expect(b.count).toBeGreaterThan(0);
          expect(a.engine.provider).toBe(GROEBNER_TS_PROVIDER);
          expect(b.engine).toMatchObject({ provider: 'singular', stats: null });
          // Equal claims are equal artifacts: the canonical JSON leaves nothing to the provider.
          expect(b.basis_uri).toBe(a.basis_uri);
        }
      });
    }
  }

  it('gives Singular\'s basis on cyclic-6 over Q, through the modular trace, and says how it was reached', { timeout: 300_000 }, async () => {
    const system = cyclicSystem(6);
    const [a, b] = await both({ ring: { field: Q, variables: system.variables, order: 'grevlex' }, generators: system.generators });
    expect(a.basis).toEqual(b.basis);
    expect(a.engine.method).toMatch(/steered by a run modulo 67108859 \(\d+ of its \d+ pairs reduced to zero there and were skipped over Q\), the result certified exactly over Q/);
    // A system that stays plain says nothing of a trace.
    const [small] = await both({ ring: { field: Q, variables: cyclicSystem(4).variables, order: 'grevlex' }, generators: cyclicSystem(4).generators });
    expect(small.engine.method).not.toContain('modulo');
  });

  it('gives the same bases on seeded random ideals, each provider with cofactors that combine the generators into the basis', { timeout: 300_000 }, async () => {
    const ideals = randomIdeals(12, 20_240_611);
    for (const [k, generators] of ideals.entries()) {
      const ring = { field: k % 2 === 0 ? Q : GF, variables: ['x', 'y', 'z'], order: (['grevlex', 'lex', 'grlex'] as const)[k % 3] };
      const [a, b] = await both({ ring, generators, cofactors: true });
      expect(b.basis, generators.join('; ')).toEqual(a.basis);
      expect(cofactorsHold(ring, generators, a), `TS cofactors of ${generators.join('; ')}`).toBe(true);
      expect(cofactorsHold(ring, generators, b), `Singular cofactors of ${generators.join('; ')}`).toBe(true);
    }
  });

  it('feeds Singular only renamed variables, so names it reserves compute like any other', async () => {
    const ring = { field: Q, variables: ['ring', 'std', 'quit'], order: 'lex' };
    const [a, b] = await both({ ring, generators: ['ring^2 - std', 'ring*std - quit', 'quit^2 - 1'], cofactors: true });
    expect(b.basis).toEqual(a.basis);
    expect(cofactorsHold(ring, ['ring^2 - std', 'ring*std - quit', 'quit^2 - 1'], b)).toBe(true);
  });

  it('refuses a prime above Singular\'s range, naming the field, where our engine computes', async () => {
    const ring = { field: { kind: 'GF', characteristic: '1000000000000000000000007' }, variables: ['x', 'y'], order: 'grevlex' };
    const result = await h.run(sing, { capability_id: ID, mode: 'EXPLORE', payload: { ring, generators: ['x^2 - y', 'x*y - 1'] } });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'ring', 'field', 'characteristic'] });
    expect(outputOf(await h.run(ts, { capability_id: ID, mode: 'EXPLORE', payload: { ring, generators: ['x^2 - y', 'x*y - 1'] } })).basis).toEqual(['x^2 + 1000000000000000000000006*y', 'x*y + 1000000000000000000000006', 'y^2 + 1000000000000000000000006*x'].reverse());
  });

  it('kills Singular at the end of the budget: TIMEOUT, nothing stored', async () => {
    const before = await h.files();
    const system = cyclicSystem(8);
    const result = await h.run(sing, { capability_id: ID, mode: 'EXPLORE', payload: { ring: { field: Q, variables: system.variables, order: 'grevlex' }, generators: system.generators }, budget: { wall_time_ms: 500 } });
    expect(result.execution.status).toBe('TIMEOUT');
    expect(result.diagnostics[0]?.code).toBe('EXECUTION_TIMEOUT');
    expect(await h.files()).toEqual(before);
  });

  it('decodes its stored claim strictly', async () => {
    const out = outputOf(await h.run(sing, { capability_id: ID, mode: 'EXPLORE', payload: { ring: { field: GF, variables: ['x', 'y', 'z'], order: 'grevlex' }, generators: ['2*x + 3*y', 'y^2 - z', 'x*z'], cofactors: true } }));
    const claim = GroebnerBasisClaimSchema.parse((await h.artifacts.get(out.result_uri as string)).payload);
    const R = resolveRing(claim.ring);
    expect(claim.basis.map((json) => polynomialFromJson(R, json))).toHaveLength(4);
    expect(out.basis).toEqual(['x + 16003*y', 'z^2', 'y*z', 'y^2 + 32002*z']);
  });
});

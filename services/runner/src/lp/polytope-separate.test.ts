import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, RATIONALS, type CapabilityResult, type InstalledCapability, type ProviderRuntime, type Rational } from '@jacobian/shared';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { polytopeSeparate, POLYTOPE_SEPARATE_ID, type PolytopeSeparateOutput } from './polytope-separate.js';
import { HIGHS_PROVIDER, LP_TS_PROVIDER } from './provider.js';

const Q = RATIONALS;
const q = (text: string | number): Rational => Q.parseCanonical(String(text)) ?? Q.zero;
const dot = (a: readonly (string | number)[], b: readonly (string | number)[]): Rational => a.reduce<Rational>((s, x, i) => Q.add(s, Q.mul(q(x), q(b[i] as string))), Q.zero);
const cmp = (a: Rational, b: Rational): number => Math.sign(Number(a.num * b.den - b.num * a.den));

function ok(result: CapabilityResult): PolytopeSeparateOutput {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  return result.output as PolytopeSeparateOutput;
}

/** Our own reading of an answer about a V-polytope: the combination sums to the point, or the hyperplane separates. */
function expectCertificate(out: PolytopeSeparateOutput, point: (string | number)[], vertices: (string | number)[][]): void {
  if (out.outcome === 'INSIDE') {
    const lambda = out.convex_combination ?? [];
    expect(lambda.every((l) => q(l).num >= 0n)).toBe(true);
    expect(lambda.reduce((s, l) => Q.add(s, q(l)), Q.zero)).toEqual(Q.one);
    point.forEach((p, t) => expect(dot(lambda, vertices.map((v) => v[t] as number))).toEqual(q(p)));
  } else {
    const { normal, offset } = out.hyperplane ?? { normal: [], offset: '0' };
    for (const v of vertices) expect(cmp(dot(normal, v), q(offset))).toBeLessThanOrEqual(0);
    expect(cmp(dot(normal, point), q(offset))).toBe(1);
  }
}

describe('polytope.separate', () => {
  let h: CapabilityHarness;
  const caps: InstalledCapability[] = [];
  beforeAll(async () => {
    h = await createCapabilityHarness();
    for (const provider of [LP_TS_PROVIDER, HIGHS_PROVIDER]) {
      const runtime: ProviderRuntime = { ...FAKE_RUNTIME, provider };
      caps.push(h.install(polytopeSeparate(runtime), runtime));
    }
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (capability: InstalledCapability, payload: unknown): Promise<CapabilityResult> => h.run(capability, { capability_id: POLYTOPE_SEPARATE_ID, payload });

  it('runs every example, on both providers', async () => {
    for (const capability of caps) for (const example of capability.descriptor.examples) ok(await run(capability, example.payload));
  });

  it('the unit square: the centre inside, (2, 1/2) separated by x ≤ 1, a vertex inside', async () => {
    const square = [[0, 0], [1, 0], [0, 1], [1, 1]];
    for (const capability of caps) {
      const centre = ok(await run(capability, { point: ['1/2', '1/2'], vertices: square }));
      expect(centre.outcome).toBe('INSIDE');
      expectCertificate(centre, ['1/2', '1/2'], square);
      const outside = ok(await run(capability, { point: [2, '1/2'], vertices: square }));
      expect(outside).toMatchObject({ outcome: 'SEPARATED', hyperplane: { normal: ['1', '0'], offset: '1' } });
      expectCertificate(outside, [2, '1/2'], square);
      expectCertificate(ok(await run(capability, { point: [1, 1], vertices: square })), [1, 1], square);
    }
  });

  it('random points and random hulls in 3 dimensions: every answer certified, both outcomes seen', async () => {
    let seed = 7;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const seen = { INSIDE: 0, SEPARATED: 0 };
    for (let trial = 0; trial < 30; trial++) {
      const vertices = Array.from({ length: 3 + Math.floor(rand() * 6) }, () => Array.from({ length: 3 }, () => Math.floor(rand() * 11) - 5));
      const point = Array.from({ length: 3 }, () => Q.format(Q.fromFraction(BigInt(Math.floor(rand() * 9) - 4), BigInt(1 + Math.floor(rand() * 3)))));
      const out = ok(await run(caps[trial % 2] as InstalledCapability, { point, vertices }));
      seen[out.outcome]++;
      expectCertificate(out, point, vertices);
    }
    expect(seen.INSIDE).toBeGreaterThan(0);
    expect(seen.SEPARATED).toBeGreaterThan(0);
  });

  it('H-polytopes: inside when every inequality holds, else the violated one; dimensions checked before any work', async () => {
    const triangle = [{ coefficients: [-1, 0], rhs: 0 }, { coefficients: [0, -1], rhs: 0 }, { coefficients: [1, 1], rhs: 1 }];
    const capability = caps[0] as InstalledCapability;
    expect(ok(await run(capability, { point: ['1/3', '1/3'], inequalities: triangle }))).toMatchObject({ outcome: 'INSIDE', hyperplane: null });
    expect(ok(await run(capability, { point: [1, '1/2'], inequalities: triangle }))).toMatchObject({ outcome: 'SEPARATED', violated_inequality: 2, hyperplane: { normal: ['1', '1'], offset: '1' } });
    const bad = await run(capability, { point: [1, 1], vertices: [[0, 0], [1, 0, 0]] });
    expect(bad.execution.status).toBe('ERROR');
    expect(bad.diagnostics.find((d) => d.severity === 'ERROR')).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'vertices', 1] });
    expect((await run(capability, { point: [1], vertices: [[0]], inequalities: [] })).execution.status).toBe('ERROR');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, makeRational, MATRIX_LIMITS, RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI, RationalCanonicalFormClaimSchema, RATIONALS, type CapabilityDefinition, type CapabilityResult, type InstalledCapability, type ProviderRuntime, type Rational } from '@jacobian/shared';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { constructMatrix, type ConstructMatrixOutput } from './construct-explicit.js';
import { eigenvaluesCompute, type EigenvaluesOutput } from './eigenvalues.js';
import { LINEAR_ALGEBRA_TS_PROVIDER } from './provider.js';
import { rationalCanonicalFormCompute, type RationalCanonicalFormOutput } from './rational-canonical-form.js';

const TS: ProviderRuntime = { ...FAKE_RUNTIME, provider: LINEAR_ALGEBRA_TS_PROVIDER };
const Z = { kind: 'Z' as const };
const Q = { kind: 'Q' as const };
const RCF = 'matrix.rational_canonical_form.compute';
const EIGEN = 'matrix.eigenvalues.compute';

function ok<O>(result: CapabilityResult): O {
  expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
  expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
  expect(result.assurance.level).toBe('COMPUTED');
  return result.output as O;
}

function error(result: CapabilityResult): { code: string; path: (string | number)[] | null; message: string } {
  expect(result.execution.status).toBe('ERROR');
  const diagnostic = result.diagnostics.find((d) => d.severity === 'ERROR');
  if (diagnostic === undefined) throw new Error(`no ERROR diagnostic in ${JSON.stringify(result.diagnostics)}`);
  return diagnostic;
}

/** Integer matrix product, the test's own. */
const mul = (A: bigint[][], B: bigint[][]): bigint[][] => A.map((row) => (B[0] ?? []).map((_, j) => row.reduce((s, a, k) => s + a * ((B[k] as bigint[])[j] as bigint), 0n)));

describe('rational canonical form and eigenvalue capabilities', () => {
  let h: CapabilityHarness;
  const cap: Record<string, InstalledCapability> = {};
  beforeAll(async () => {
    h = await createCapabilityHarness();
    for (const definition of [constructMatrix, rationalCanonicalFormCompute(TS), eigenvaluesCompute(TS)] as unknown as CapabilityDefinition<never, unknown>[]) cap[definition.id] = h.install(definition, TS);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (id: string, payload: unknown, budget?: Record<string, number>): Promise<CapabilityResult> =>
    h.run(cap[id] as InstalledCapability, { capability_id: id, payload, ...(budget === undefined ? {} : { budget }) });

  it('runs every advertised example to a conclusion', async () => {
    for (const id of [RCF, EIGEN]) {
      for (const example of (cap[id] as InstalledCapability).descriptor.examples) ok(await run(id, example.payload));
    }
  });

  it('the Frobenius form of diag(2, 2, 3) by matrix_uri: A P = P F over Z, the claim stored with the matrix as parent', async () => {
    const rows = [[2, 0, 0], [0, 2, 0], [0, 0, 3]];
    const stored = ok<ConstructMatrixOutput>(await run('matrix.construct.explicit', { ring: Z, rows }));
    const result = await run(RCF, { matrix_uri: stored.matrix_uri, variable: 't' });
    const out = ok<RationalCanonicalFormOutput>(result);
    expect(out.invariant_factors).toEqual([
      { polynomial: 't - 2', coefficients: ['-2', '1'], degree: 1 },
      { polynomial: 't^2 - 5*t + 6', coefficients: ['6', '-5', '1'], degree: 2 },
    ]);
    expect(out.form).toEqual([['2', '0', '0'], ['0', '0', '-6'], ['0', '1', '5']]);
    expect(out.blocks).toBe(2);
    const A = rows.map((row) => row.map(BigInt));
    const P = out.transform.map((row) => row.map(BigInt));
    const F = out.form.map((row) => row.map(BigInt));
    expect(mul(A, P)).toEqual(mul(P, F));
    const { manifest, payload } = await h.artifacts.get(out.result_uri ?? '');
    expect(manifest.schema_uri).toBe(RATIONAL_CANONICAL_FORM_CLAIM_SCHEMA_URI);
    expect(manifest.parents).toEqual([stored.matrix_uri]);
    expect(RationalCanonicalFormClaimSchema.parse(payload)).toMatchObject({ invariant_factors: [['-2', '1'], ['6', '-5', '1']], transform: out.transform });
  });

  it('a 20×20 Q matrix whose transform entries are longer than the entry text limit: P stored in the claim, the Krylov basis scaled to integers', async () => {
    // A e_i = a_i e_(i+1) (i < n), A e_n = c, a_i = (10^150 + i)/(i + 2): e_1 is cyclic and its Krylov
    // basis is A^k e_1 = (a_1 ⋯ a_k) e_(k+1), so P is diagonal with P_kk / P_00 = a_1 ⋯ a_k (2,850 digits at k = 19).
    const n = 20;
    const a = Array.from({ length: n - 1 }, (_, i) => makeRational(10n ** 150n + BigInt(i), BigInt(i + 2)));
    const c = Array.from({ length: n }, (_, i) => String((i % 5) - 2 || 1));
    const rows = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j === n - 1 ? (c[i] as string) : i === j + 1 ? RATIONALS.format(a[j] as Rational) : '0')));
    const out = ok<RationalCanonicalFormOutput>(await run(RCF, { matrix: { ring: Q, rows } }));
    expect(out.blocks).toBe(1);
    const P = out.transform.map((row) => row.map((t) => RATIONALS.parseCanonical(t) as Rational));
    let product = RATIONALS.one;
    for (let k = 0; k < n; k++) {
      if (k > 0) product = RATIONALS.mul(product, a[k - 1] as Rational);
      for (let j = 0; j < n; j++) if (j !== k) expect(RATIONALS.isZero((P[k] as Rational[])[j] as Rational)).toBe(true);
      expect(RATIONALS.format(RATIONALS.div((P[k] as Rational[])[k] as Rational, (P[0] as Rational[])[0] as Rational))).toBe(RATIONALS.format(product));
    }
    const longest = Math.max(...out.transform.flat().map((t) => t.length));
    expect(longest).toBeGreaterThan(MATRIX_LIMITS.maxEntryTextLength);
    expect(out.result_uri).not.toBeNull();
    const stored = RationalCanonicalFormClaimSchema.parse((await h.artifacts.get(out.result_uri ?? '')).payload);
    expect(stored.transform).toEqual(out.transform);
  });

  it('eigenvalues over Q: rational ones with both multiplicities, the rest as irreducible factors', async () => {
    // A Jordan block for 2, a rotation (x^2 + 1), and 1/2 on the diagonal.
    const rows = [[2, 1, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 0, -1, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, '1/2']];
    const out = ok<EigenvaluesOutput>(await run(EIGEN, { matrix: { ring: Q, rows } }));
    expect(out.eigenvalues).toEqual([
      { value: '1/2', algebraic_multiplicity: 1, geometric_multiplicity: 1 },
      { value: '2', algebraic_multiplicity: 2, geometric_multiplicity: 1 },
    ]);
    expect(out.other_factors).toEqual([{ polynomial: 'x^2 + 1', coefficients: ['1', '0', '1'], degree: 2, multiplicity: 1 }]);
    expect(out).toMatchObject({ factorization: '(x - 1/2)*(x - 2)^2*(x^2 + 1)', splits: false, diagonalizable_over_field: false, field: 'Q' });
    const scalar = ok<EigenvaluesOutput>(await run(EIGEN, { matrix: { ring: Z, rows: [[-3, 0], [0, -3]] } }));
    expect(scalar).toMatchObject({ eigenvalues: [{ value: '-3', algebraic_multiplicity: 2, geometric_multiplicity: 2 }], factorization: '(x + 3)^2', splits: true, diagonalizable_over_field: true });
  });

  it('eigenvalues over GF(p): x^2 + 1 splits modulo 5 but not modulo 7; a nilpotent matrix has only 0', async () => {
    const rotation = [[0, -1], [1, 0]];
    const mod5 = ok<EigenvaluesOutput>(await run(EIGEN, { matrix: { ring: { kind: 'GF', characteristic: '5' }, rows: rotation } }));
    expect(mod5.eigenvalues.map((e) => e.value)).toEqual(['2', '3']);
    expect(mod5).toMatchObject({ splits: true, diagonalizable_over_field: true, field: 'GF(5)', factorization: '(x + 3)*(x + 2)' });
    const mod7 = ok<EigenvaluesOutput>(await run(EIGEN, { matrix: { ring: { kind: 'GF', characteristic: '7' }, rows: rotation } }));
    expect(mod7).toMatchObject({ eigenvalues: [], splits: false, other_factors: [{ polynomial: 'x^2 + 1', multiplicity: 1 }] });
    const nilpotent = ok<EigenvaluesOutput>(await run(EIGEN, { matrix: { ring: { kind: 'GF', characteristic: '2' }, rows: [[0, 1, 1], [0, 0, 1], [0, 0, 0]] } }));
    expect(nilpotent).toMatchObject({ eigenvalues: [{ value: '0', algebraic_multiplicity: 3, geometric_multiplicity: 1 }], factorization: 'x^3' });
  });

  it('a 26×26 conjugate of companion blocks of known irreducibles: the factors and multiplicities come back, and the invariant factors are the blocks', async () => {
    // Blocks: Φ_5 = x^4 + x^3 + x^2 + x + 1 twice, x^4 + 1, Swinnerton-Dyer x^4 − 10x^2 + 1, x − 3 four times, (x − 3)·(x^2 − 2) = x^3 − 3x^2 − 2x + 6 twice.
    const blocks = [[1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 0, -10, 0, 1], [-3, 1], [-3, 1], [-3, 1], [-3, 1], [6, -2, -3, 1], [6, -2, -3, 1]];
    const n = blocks.reduce((s, b) => s + b.length - 1, 0);
    const C = Array.from({ length: n }, () => new Array<bigint>(n).fill(0n));
    let offset = 0;
    for (const b of blocks) {
      const m = b.length - 1;
      for (let i = 0; i < m; i++) {
        if (i > 0) (C[offset + i] as bigint[])[offset + i - 1] = 1n;
        (C[offset + i] as bigint[])[offset + m - 1] = -BigInt(b[i] as number);
      }
      offset += m;
    }
    // S = I + N with N strictly upper triangular (unimodular), S⁻¹ = Σ (−N)^k.
    const N = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j > i && (i * 7 + j * 3) % 5 === 0 ? BigInt(((i + j) % 3) - 1) : 0n)));
    const I: bigint[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1n : 0n)));
    const S = I.map((row, i) => row.map((x, j) => x + ((N[i] as bigint[])[j] as bigint)));
    let Sinv = I;
    let term = I;
    for (let k = 1; k < n; k++) {
      term = mul(term, N.map((row) => row.map((x) => -x)));
      Sinv = Sinv.map((row, i) => row.map((x, j) => x + ((term[i] as bigint[])[j] as bigint)));
    }
    expect(mul(S, Sinv)).toEqual(I);
    const A = mul(mul(S, C), Sinv).map((row) => row.map(String));
    const eigen = ok<EigenvaluesOutput>(await run(EIGEN, { matrix: { ring: Z, rows: A } }));
    expect(eigen.eigenvalues).toEqual([{ value: '3', algebraic_multiplicity: 6, geometric_multiplicity: 6 }]);
    expect(eigen.other_factors.map((f) => [f.polynomial, f.multiplicity])).toEqual([
      ['x^2 - 2', 2],
      ['x^4 - 10*x^2 + 1', 1],
      ['x^4 + 1', 1],
      ['x^4 + x^3 + x^2 + x + 1', 2],
    ]);
    const rcf = ok<RationalCanonicalFormOutput>(await run(RCF, { matrix: { ring: Z, rows: A } }));
    // x − 3 six times (four blocks and two cubics), Φ_5 and x^2 − 2 twice: four times x − 3, then (x − 3)(x^2 − 2)Φ_5, then the lcm of all blocks.
    expect(rcf.invariant_factors.map((d) => d.degree)).toEqual([1, 1, 1, 1, 7, 15]);
    const P = rcf.transform.map((row) => row.map((x) => BigInt(x)));
    expect(mul(A.map((row) => row.map(BigInt)), P)).toEqual(mul(P, rcf.form.map((row) => row.map(BigInt))));
  });

  it('stops a computation that outruns its budget, concluding nothing', async () => {
    let seed = 12345n;
    const next = (): string => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 2000n);
      return `${seed}/${(seed % 1000n) + 1n}`;
    };
    const rows = Array.from({ length: 120 }, () => Array.from({ length: 120 }, next));
    for (const id of [RCF, EIGEN]) {
      const result = await run(id, { matrix: { ring: Q, rows } }, { wall_time_ms: 500 });
      expect(result.execution.status).toBe('TIMEOUT');
      expect(result.output).toBeNull();
    }
  });

  it('refuses a non-square matrix before any work, naming the place and the rule', async () => {
    for (const id of [RCF, EIGEN]) {
      const nonSquare = error(await run(id, { matrix: { ring: Z, rows: [[1, 2, 3], [4, 5, 6]] } }));
      expect(nonSquare).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'matrix', 'rows'] });
      expect(nonSquare.message).toMatch(/square matrices only; this one is 2×3 \(rule square\)/);
    }
  });
});

/**
 * group_action.cycle_index.compute and group_action.polya_count.compute against published counts
 * (OEIS A000031 necklaces, A000029 bracelets, cube colourings, multisets for S_n) and against a
 * brute force of our own: the group closed by products of generators, and the orbits of all k^n
 * colourings found one by one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGraph6, type CapabilityResult, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { automorphismGroup, type AutomorphismGroupOutput } from '../graph/automorphism-group.js';
import { SYMMETRY_TS_PROVIDER } from '../graph/symmetry.js';
import { mulberry32, PETERSEN } from '../graph/test-graphs.js';
import { cycleIndexCompute, type CycleIndexOutput } from './cycle-index.js';
import { polyaCount, type PolyaCountOutput } from './polya-count.js';

const cyclic = (n: number): number[][] => [Array.from({ length: n }, (_, i) => (i + 1) % n)];
const dihedral = (n: number): number[][] => [...cyclic(n), Array.from({ length: n }, (_, i) => (n - i) % n)];
const symmetric = (n: number): number[][] => (n === 1 ? [[0]] : [[1, 0, ...Array.from({ length: n - 2 }, (_, i) => i + 2)], ...cyclic(n)]);
/** Rotations of the cube on its faces 0=U 1=D 2=F 3=B 4=L 5=R: quarter turns about U–D and F–B. */
const CUBE_FACES = ['(2 5 3 4)', '(0 5 1 4)'];

/** All elements, by closing the generators under products (independent of Schreier–Sims). */
function closure(n: number, generators: readonly number[][]): number[][] {
  const identity = Array.from({ length: n }, (_, i) => i);
  const seen = new Map<string, number[]>([[identity.join(','), identity]]);
  const queue = [identity];
  for (let head = 0; head < queue.length; head++) {
    const g = queue[head] as number[];
    for (const s of generators) {
      const h = g.map((x) => s[x] as number);
      const key = h.join(',');
      if (!seen.has(key)) {
        seen.set(key, h);
        queue.push(h);
      }
    }
  }
  return [...seen.values()];
}

/** Orbits of the group on all k^n colourings, counted one by one; with content, only colourings of that content. */
function bruteOrbits(n: number, k: number, elements: readonly number[][], content?: readonly number[]): number {
  const seen = new Set<string>();
  let orbits = 0;
  const total = k ** n;
  for (let code = 0; code < total; code++) {
    const colouring = Array.from({ length: n }, (_, i) => Math.floor(code / k ** i) % k);
    if (content !== undefined && content.some((m, c) => colouring.filter((x) => x === c).length !== m)) continue;
    const key = colouring.join('');
    if (seen.has(key)) continue;
    orbits++;
    for (const g of elements) {
      const image = new Array<number>(n);
      for (let i = 0; i < n; i++) image[g[i] as number] = colouring[i] as number;
      seen.add(image.join(''));
    }
  }
  return orbits;
}

const A000031 = [2, 3, 4, 6, 8, 14, 20, 36, 60, 108, 188, 352];
const A000029 = [2, 3, 4, 6, 8, 13, 18, 30, 46, 78, 126, 224];

describe('group_action capabilities', () => {
  let harness: CapabilityHarness;
  const runtime: ProviderRuntime = { ...FAKE_RUNTIME, provider: 'jacobian-group-action-ts' };
  const installed = {} as Record<'index' | 'polya' | 'aut', InstalledCapability>;

  beforeAll(async () => {
    harness = await createCapabilityHarness();
    installed.index = harness.install(cycleIndexCompute, runtime);
    installed.polya = harness.install(polyaCount, runtime);
    installed.aut = harness.install(automorphismGroup({ kind: 'typescript' }), { ...FAKE_RUNTIME, provider: SYMMETRY_TS_PROVIDER });
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  const completed = <T>(result: CapabilityResult): T => {
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    return result.output as T;
  };
  const cycleIndex = async (payload: Record<string, unknown>): Promise<CycleIndexOutput> =>
    completed(await harness.run(installed.index, { capability_id: cycleIndexCompute.id, payload }));
  const polya = async (payload: Record<string, unknown>): Promise<PolyaCountOutput> => completed(await harness.run(installed.polya, { capability_id: polyaCount.id, payload }));
  const refusal = async (which: 'index' | 'polya', payload: Record<string, unknown>): Promise<{ message: string; path: unknown }> => {
    const id = which === 'index' ? cycleIndexCompute.id : polyaCount.id;
    const result = await harness.run(installed[which], { capability_id: id, payload });
    expect(result.execution.status).toBe('ERROR');
    const error = result.diagnostics.find((d) => d.code === 'INVALID_REQUEST');
    expect(error, JSON.stringify(result.diagnostics)).toBeDefined();
    return { message: error?.message ?? '', path: error?.path };
  };

  it('counts binary necklaces (C_n, OEIS A000031) and bracelets (D_n, A000029), agreeing with brute force', async () => {
    for (let n = 1; n <= A000031.length; n++) {
      const necklaces = await polya({ generators: cyclic(n), colours: 2 });
      const bracelets = await polya({ generators: dihedral(n), colours: 2 });
      expect(necklaces.orbits, `C_${n}`).toBe(String(A000031[n - 1]));
      expect(bracelets.orbits, `D_${n}`).toBe(String(A000029[n - 1]));
      expect(necklaces.order).toBe(String(n));
      expect(bracelets.order).toBe(String(n <= 2 ? n : 2 * n));
      if (n <= 8) {
        expect(necklaces.orbits).toBe(String(bruteOrbits(n, 2, closure(n, cyclic(n)))));
        expect(bracelets.orbits).toBe(String(bruteOrbits(n, 2, closure(n, dihedral(n)))));
      }
    }
  });

  it('counts cube face colourings under its 24 rotations: 10 with 2 colours, 57 with 3', async () => {
    const index = await cycleIndex({ generators: CUBE_FACES });
    expect(index.order).toBe('24');
    expect(index.cycle_index).toBe('(1/24)(x1^6 + 3 x1^2 x2^2 + 6 x1^2 x4 + 6 x2^3 + 8 x3^2)');
    const two = await polya({ generators: CUBE_FACES, colours: 2 });
    const three = await polya({ generators: CUBE_FACES, colours: 3 });
    expect([two.orbits, three.orbits]).toEqual(['10', '57']);
    // The same two quarter turns as image arrays, closed by brute force.
    const elements = closure(6, [[0, 1, 5, 4, 2, 3], [5, 4, 2, 3, 0, 1]]);
    expect(elements).toHaveLength(24);
    expect(Number(three.orbits)).toBe(bruteOrbits(6, 3, elements));
  });

  it('S_n: colourings up to S_n are multisets, C(n+k-1, k-1); the cycle index of S_3', async () => {
    const binomial = (a: number, b: number): number => (b === 0 ? 1 : (binomial(a - 1, b - 1) * a) / b);
    for (let n = 1; n <= 7; n++) {
      for (const k of [2, 3, 5]) expect((await polya({ generators: symmetric(n), colours: k })).orbits, `S_${n}, k=${k}`).toBe(String(binomial(n + k - 1, k - 1)));
    }
    expect((await cycleIndex({ generators: symmetric(3) })).cycle_index).toBe('(1/6)(x1^3 + 3 x1 x2 + 2 x3)');
    expect((await cycleIndex({ generators: symmetric(9) })).order).toBe('362880');
  });

  it('takes the Petersen graph\'s automorphism group as graph.automorphism_group.compute prints it (order 120)', async () => {
    const aut = completed<AutomorphismGroupOutput>(await harness.run(installed.aut, { capability_id: 'graph.automorphism_group.compute', payload: { graph6: encodeGraph6(PETERSEN), max_generators: 256 } }));
    expect(aut.order).toBe('120');
    const index = await cycleIndex({ automorphism_group: aut });
    expect(index.order).toBe('120');
    expect(index.point_orbits).toHaveLength(1);
    const elements = closure(10, aut.generators);
    expect(elements).toHaveLength(120);
    for (const k of [2, 3]) expect((await polya({ automorphism_group: aut, colours: k })).orbits).toBe(String(bruteOrbits(10, k, elements)));
    const split = await polya({ automorphism_group: aut, content: [4, 6] });
    expect(split.content?.orbits).toBe(String(bruteOrbits(10, 2, elements, [4, 6])));
    expect(await refusal('polya', { automorphism_group: { ...aut, generators_truncated: true } })).toMatchObject({ message: /rule incomplete-group/ });
    expect(await refusal('polya', { automorphism_group: { ...aut, order: '60' } })).toMatchObject({ message: /generate a group of order 120, not the stated 60 \(rule order-mismatch\)/ });
  });

  it('agrees with brute force on random groups: order, cycle-type counts, colourings by content', async () => {
    const random = mulberry32(36);
    const permutation = (n: number): number[] => {
      const p = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [p[i], p[j]] = [p[j] as number, p[i] as number];
      }
      return p;
    };
    for (let trial = 0; trial < 40; trial++) {
      const n = 2 + (trial % 6);
      // Sparse permutations (a few transpositions) so that proper subgroups turn up as well as S_n and A_n.
      const generators = Array.from({ length: 1 + (trial % 3) }, () => (random() < 0.5 ? permutation(n) : [1, 0, ...Array.from({ length: n - 2 }, (_, i) => i + 2)].map((_, i, a) => a[(i + trial) % n] as number)));
      const elements = closure(n, generators);
      const index = await cycleIndex({ generators, degree: n });
      expect(index.order, JSON.stringify(generators)).toBe(String(elements.length));
      const types = new Map<string, number>();
      for (const g of elements) {
        const seen = new Set<number>();
        const lengths: number[] = [];
        for (let i = 0; i < n; i++) {
          let length = 0;
          for (let p = i; !seen.has(p); p = g[p] as number, length++) seen.add(p);
          if (length > 0) lengths.push(length);
        }
        const key = lengths.sort((a, b) => a - b).join(' ');
        types.set(key, (types.get(key) ?? 0) + 1);
      }
      const found = new Map(index.monomials.map((m) => [m.cycle_type.flatMap(({ length, count }) => Array<number>(count).fill(length)).join(' '), Number(m.elements)]));
      expect(found).toEqual(types);
      const content = [Math.floor(n / 2), n - Math.floor(n / 2)];
      const counted = await polya({ generators, degree: n, content });
      expect(counted.orbits).toBe(String(bruteOrbits(n, 2, elements)));
      expect(counted.content?.orbits).toBe(String(bruteOrbits(n, 2, elements, content)));
    }
  });

  it('refuses bad generators and groups above the order limit with the field and the rule', async () => {
    expect(await refusal('index', { generators: [[0, 0, 1]] })).toMatchObject({ path: ['payload', 'generators', 0, 1], message: /not a bijection \(rule bijection\)/ });
    expect(await refusal('index', { generators: [[1, 0], [0, 2, 1]] })).toMatchObject({ path: ['payload', 'generators', 1], message: /rule degree-consistency/ });
    expect(await refusal('index', { generators: ['(0 1 1)'] })).toMatchObject({ message: /rule bijection/ });
    expect(await refusal('index', { generators: ['(0 1'] })).toMatchObject({ message: /rule permutation-syntax/ });
    expect(await refusal('index', { generators: ['(0 5)'], degree: 4 })).toMatchObject({ message: /rule point-range/ });
    expect(await refusal('index', { generators: symmetric(10) })).toMatchObject({ message: /order (at least )?[0-9]+, above the limit of 1000000 .*rule group-order-limit/ });
    // S_64: Schreier–Sims stops once a proven lower bound of the order passes the limit.
    const big = await refusal('polya', { generators: symmetric(64), colours: 2 });
    expect(big).toMatchObject({ path: ['payload', 'generators'], message: /rule group-order-limit/ });
    expect(BigInt(/order (?:at least )?([0-9]+)/.exec(big.message)?.[1] ?? '0')).toBeGreaterThan(1_000_000n);
    // Just below the limit: C_2^19 on 38 points (524288 elements) is enumerated.
    const pairs = Array.from({ length: 19 }, (_, i) => `(${2 * i} ${2 * i + 1})`);
    expect((await polya({ generators: pairs, colours: 2 })).orbits).toBe(String(3 ** 19));
    expect(await refusal('index', { generators: [...pairs, '(38 39)'] })).toMatchObject({ message: /1048576.*rule group-order-limit/ });
    expect(await refusal('polya', { generators: cyclic(6), content: [2, 3] })).toMatchObject({ path: ['payload', 'content'], message: /rule content-sum/ });
    const invalid = await harness.run(installed.index, { capability_id: cycleIndexCompute.id, payload: {} });
    expect(invalid.execution.status).toBe('ERROR');
  });

  it('reads cycle notation and image arrays alike, and a trivial group of a given degree', async () => {
    expect(await cycleIndex({ generators: ['(0 1 2 3)'] })).toEqual(await cycleIndex({ generators: [[1, 2, 3, 0]] }));
    const trivial = await polya({ generators: [], degree: 5, colours: 3 });
    expect([trivial.order, trivial.orbits, trivial.point_orbits]).toEqual(['1', '243', 5]);
  });
});

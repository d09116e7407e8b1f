import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateLaws, parseLaws, resolveSignature, type SignatureInput } from '@jacobian/shared';
import { algebraOfCells } from './enumerate-models.kernel.js';
import { cellLayout, enumerateModels, factorial, type CellLayout, type EnumerationResult } from './model-enumeration.js';

const ASSOCIATIVITY = 'x * (y * z) = (x * y) * z';
const MAGMA: SignatureInput = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z'] };
const GROUP: SignatureInput = {
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: 'e', arity: 0 },
    { name: 'i', arity: 1 },
  ],
  variables: ['x', 'y', 'z'],
};
const MONOID: SignatureInput = {
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: 'e', arity: 0 },
  ],
  variables: ['x', 'y', 'z'],
};
/** Quasigroups as an equational class: multiplication with left and right division. */
const QUASIGROUP: SignatureInput = {
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: '\\', arity: 2, infix: true },
    { name: '/', arity: 2, infix: true },
  ],
  variables: ['x', 'y'],
};
const QUASIGROUP_LAWS = ['x \\ (x * y) = y', '(x * y) / y = x', 'x * (x \\ y) = y', '(x / y) * y = x'];
const LOOP: SignatureInput = { operations: [...QUASIGROUP.operations, { name: 'e', arity: 0 }], variables: ['x', 'y'] };
const LATTICE: SignatureInput = {
  operations: [
    { name: '∧', arity: 2, infix: true },
    { name: '∨', arity: 2, infix: true },
  ],
  variables: ['x', 'y', 'z'],
};
const LATTICE_LAWS = ['x ∧ y = y ∧ x', 'x ∨ y = y ∨ x', 'x ∧ (y ∧ z) = (x ∧ y) ∧ z', 'x ∨ (y ∨ z) = (x ∨ y) ∨ z', 'x ∧ (x ∨ y) = x', 'x ∨ (x ∧ y) = x'];

function enumerate(signature: SignatureInput, laws: readonly string[], order: number, maxModels = 1_000_000): EnumerationResult {
  const resolved = resolveSignature(signature);
  return enumerateModels({ signature: resolved, laws: parseLaws(laws, resolved), order }, { maxModels });
}

/**
 * Published counts, n = 1, 2, …: isomorphism classes and, where published, labelled models
 * (models on the set 0 … n−1, which the search reports as Σ n!/|Aut| over the classes).
 */
const PUBLISHED: { name: string; signature: SignatureInput; laws: string[]; classes: number[]; labelled?: number[] }[] = [
  // A027851 (semigroups up to isomorphism) and A023814 (associative operations on an n-set).
  { name: 'semigroups', signature: MAGMA, laws: [ASSOCIATIVITY], classes: [1, 5, 24, 188, 1915], labelled: [1, 8, 113, 3492, 183732] },
  // A000001. Labelled: Σ n!/|Aut(G)| over the groups, by hand (e.g. 8!·(1/4 + 1/8 + 1/8 + 1/24 + 1/168) = 22080).
  {
    name: 'groups',
    signature: GROUP,
    laws: [ASSOCIATIVITY, 'e * x = x', 'i(x) * x = e'],
    classes: [1, 1, 1, 2, 1, 2, 1, 5],
    labelled: [1, 2, 3, 16, 30, 480, 840, 22080],
  },
  // A058129 (monoids up to isomorphism).
  { name: 'monoids', signature: MONOID, laws: [ASSOCIATIVITY, 'e * x = x', 'x * e = x'], classes: [1, 2, 7, 35, 228] },
  // A057991 (quasigroups up to isomorphism) and A002860 (Latin squares).
  { name: 'quasigroups', signature: QUASIGROUP, laws: QUASIGROUP_LAWS, classes: [1, 1, 5, 35, 1411], labelled: [1, 2, 12, 576, 161280] },
  // A057771 (loops up to isomorphism).
  { name: 'loops', signature: LOOP, laws: [...QUASIGROUP_LAWS, 'e * x = x', 'x * e = x'], classes: [1, 1, 1, 2, 6, 109] },
  // A001426 (commutative semigroups up to isomorphism).
  { name: 'commutative semigroups', signature: MAGMA, laws: [ASSOCIATIVITY, 'x * y = y * x'], classes: [1, 3, 12, 58, 325] },
  // A006966 (lattices up to isomorphism) and A006455 (labelled lattices).
  { name: 'lattices', signature: LATTICE, laws: LATTICE_LAWS, classes: [1, 1, 1, 2, 5, 15], labelled: [1, 2, 6, 36, 380, 6390] },
  // A001329 (magmas up to isomorphism); labelled n^(n²).
  { name: 'magmas', signature: MAGMA, laws: [], classes: [1, 10, 3330], labelled: [1, 16, 19683] },
];

describe('enumerateModels against published counts', () => {
  for (const { name, signature, laws, classes, labelled } of PUBLISHED) {
    it(`counts ${name} of orders 1 to ${classes.length}: ${classes.join(', ')}`, () => {
      const results = classes.map((_, index) => enumerate(signature, laws, index + 1));
      expect(results.map((result) => result.stopped)).toEqual(classes.map(() => null));
      expect(results.map((result) => result.models.length)).toEqual(classes);
      if (labelled !== undefined) expect(results.map((result) => result.labelledCount)).toEqual(labelled);
    });
  }

  it('finds the automorphism groups of the five groups of order 8: Z8 (4), Z4×Z2 (8), D4 (8), Q8 (24), Z2³ (168)', () => {
    const result = enumerate(GROUP, [ASSOCIATIVITY, 'e * x = x', 'i(x) * x = e'], 8);
    expect(result.models.map((model) => model.automorphisms).sort((a, b) => a - b)).toEqual([4, 8, 8, 24, 168]);
  });
});

/** Every algebra of a layout, as flat cells: all n^cells vectors. */
function* allAlgebras(layout: CellLayout): Generator<number[]> {
  const n = layout.order;
  const cells = new Array<number>(layout.cells).fill(0);
  for (;;) {
    yield [...cells];
    let i = cells.length - 1;
    while (i >= 0 && cells[i] === n - 1) cells[i--] = 0;
    if (i < 0) return;
    cells[i] = (cells[i] as number) + 1;
  }
}

/** The least relabelling of an algebra's cells over all n! permutations, as text: a canonical form by brute force. */
function bruteCanonical(layout: CellLayout, cells: readonly number[]): string {
  const n = layout.order;
  let best: string | null = null;
  const permute = (image: number[]): void => {
    if (image.length === n) {
      // image: old element → new label.
      const relabelled = new Array<number>(layout.cells);
      const to = (v: number): number => image[v] as number;
      for (const { arity, base } of layout.operations) {
        if (arity === 0) relabelled[base] = to(cells[base] as number);
        else if (arity === 1) for (let a = 0; a < n; a++) relabelled[base + to(a)] = to(cells[base + a] as number);
        else for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) relabelled[base + to(a) * n + to(b)] = to(cells[base + a * n + b] as number);
      }
      const text = relabelled.join(',');
      if (best === null || text < best) best = text;
      return;
    }
    for (let v = 0; v < n; v++) if (!image.includes(v)) permute([...image, v]);
  };
  permute([]);
  return best ?? '';
}

/** Random terms over x, y, z and the given operations (prefix form), printed fully parenthesized. */
function termArbitrary(operations: readonly { name: string; arity: number }[]): fc.Arbitrary<string> {
  return fc.letrec<{ term: string }>((tie) => ({
    term: fc.oneof(
      { maxDepth: 3, withCrossShrink: true },
      fc.constantFrom('x', 'y', 'z'),
      ...operations.map((operation) =>
        operation.arity === 0
          ? fc.constant(operation.name)
          : fc.array(tie('term'), { minLength: operation.arity, maxLength: operation.arity }).map((args) => `${operation.name}(${args.join(', ')})`),
      ),
    ),
  })).term;
}

function lawsArbitrary(operations: readonly { name: string; arity: number }[]): fc.Arbitrary<string[]> {
  const term = termArbitrary(operations);
  return fc.array(
    fc.tuple(term, term).map(([l, r]) => `${l} = ${r}`),
    { minLength: 1, maxLength: 2 },
  );
}

describe('enumerateModels against brute force', () => {
  /** Isomorphism classes and labelled models of `laws` at order n by trying every algebra. */
  function brute(signature: SignatureInput, laws: string[], n: number): { classes: Set<string>; labelled: number } {
    const resolved = resolveSignature(signature);
    const parsed = parseLaws(laws, resolved);
    const layout = cellLayout(resolved, n);
    const classes = new Set<string>();
    let labelled = 0;
    for (const cells of allAlgebras(layout)) {
      if (!evaluateLaws(algebraOfCells(layout, cells), parsed).every((evaluation) => evaluation.holds)) continue;
      labelled++;
      classes.add(bruteCanonical(layout, cells));
    }
    return { classes, labelled };
  }

  function agrees(signature: SignatureInput, laws: string[], n: number): void {
    const result = enumerate(signature, laws, n);
    const expected = brute(signature, laws, n);
    expect(result.stopped).toBeNull();
    expect(result.models.length).toBe(expected.classes.size);
    expect(result.labelledCount).toBe(expected.labelled);
    // The same classes: each listed model's brute-force canonical form is a class, once.
    const layout = cellLayout(resolveSignature(signature), n);
    expect(new Set(result.models.map((model) => bruteCanonical(layout, model.cells)))).toEqual(expected.classes);
  }

  it('property: for random laws over one binary operation, the classes and labelled models match at orders 2 and 3', () => {
    fc.assert(
      fc.property(lawsArbitrary([{ name: '*', arity: 2 }]), fc.constantFrom(2, 3), (laws, n) => agrees(MAGMA, laws, n)),
      { numRuns: 25 },
    );
  });

  it('property: the same with a constant, a unary and a binary operation at order 2', () => {
    const signature: SignatureInput = {
      operations: [
        { name: 'm', arity: 2 },
        { name: 'c', arity: 0 },
        { name: 'f', arity: 1 },
      ],
      variables: ['x', 'y', 'z'],
    };
    fc.assert(
      fc.property(lawsArbitrary(signature.operations), (laws) => agrees(signature, laws, 2)),
      { numRuns: 40 },
    );
  });

  it('property: the same with two unary operations and a constant at order 3', () => {
    const signature: SignatureInput = {
      operations: [
        { name: 'f', arity: 1 },
        { name: 'g', arity: 1 },
        { name: 'c', arity: 0 },
      ],
      variables: ['x', 'y', 'z'],
    };
    fc.assert(
      fc.property(lawsArbitrary(signature.operations), (laws) => agrees(signature, laws, 3)),
      { numRuns: 25 },
    );
  });

  it('lists models that satisfy the laws, pairwise non-isomorphic, and the same whatever the order of the laws', () => {
    const laws = [ASSOCIATIVITY, 'x * x = x'];
    const forward = enumerate(MAGMA, laws, 4);
    const backward = enumerate(MAGMA, [...laws].reverse(), 4);
    // Bands (idempotent semigroups) of order 4: 46 up to isomorphism (A058112).
    expect(forward.models.length).toBe(46);
    expect(backward.models).toEqual(forward.models);
    const resolved = resolveSignature(MAGMA);
    const layout = cellLayout(resolved, 4);
    const parsed = parseLaws(laws, resolved);
    for (const model of forward.models) expect(evaluateLaws(algebraOfCells(layout, model.cells), parsed).every((e) => e.holds)).toBe(true);
    expect(new Set(forward.models.map((model) => bruteCanonical(layout, model.cells))).size).toBe(46);
    for (const model of forward.models) expect(factorial(4) % model.automorphisms).toBe(0);
  });
});

describe('enumerateModels edge cases and stopping', () => {
  it('finds one model of order 1 and none of order 2 for an inconsistent law, and every constant-free algebra of order 1', () => {
    expect(enumerate(MAGMA, ['x = y'], 1).models).toEqual([{ cells: [0], automorphisms: 1 }]);
    expect(enumerate(MAGMA, ['x = y'], 2)).toMatchObject({ models: [], stopped: null, labelledCount: 0 });
    expect(enumerate(GROUP, [], 1).models).toEqual([{ cells: [0, 0, 0], automorphisms: 1 }]);
  });

  it('stops at max_models with exactly that many classes listed', () => {
    const result = enumerate(MAGMA, [ASSOCIATIVITY], 4, 10);
    expect(result.stopped).toBe('MODEL_LIMIT');
    expect(result.models.length).toBe(10);
  });

  it('stops when told to, with the classes found so far', () => {
    const resolved = resolveSignature(MAGMA);
    let polls = 0;
    const result = enumerateModels({ signature: resolved, laws: parseLaws([ASSOCIATIVITY], resolved), order: 5 }, { maxModels: 100_000, shouldStop: () => ++polls >= 3 });
    expect(result.stopped).toBe('DEADLINE');
    expect(result.models.length).toBeLessThan(1915);
  });
});

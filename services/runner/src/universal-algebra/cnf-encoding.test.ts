import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateLaws, parseLaw, printTerm, resolveSignature, type FiniteAlgebra, type Signature, type Term } from '@jacobian/shared';
import { findCadical, runCadical } from '../providers/cadical.js';
import { decodeModel, encodeCountermodel, estimateClauses, symmetryCells, variableLayout, type CountermodelProblem, type LawFlattening, type SymmetryBreaking } from './cnf-encoding.js';
import { checkRupRefutation } from './rup-check.testing.js';

const MAGMA = resolveSignature({ operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z'] });
const MAGMA4 = resolveSignature({ operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z', 'w'] });
const GROUP = resolveSignature({
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: 'e', arity: 0 },
    { name: 'i', arity: 1 },
  ],
  variables: ['x', 'y', 'z'],
});

function problem(
  signature: Signature,
  laws: string[],
  target: string,
  order: number,
  symmetryBreaking: SymmetryBreaking = 'LEAST_NUMBER',
  flattening: LawFlattening = 'AUTO',
): CountermodelProblem {
  return { signature, laws: laws.map((text) => parseLaw(text, signature)), target: parseLaw(target, signature), order, symmetryBreaking, flattening };
}

function dimacs(p: CountermodelProblem): { text: string; clauses: number[][] } {
  const clauses: number[][] = [];
  const summary = encodeCountermodel(p, (clause) => clauses.push([...clause]));
  expect(summary.clauses).toBe(clauses.length);
  return { text: `p cnf ${summary.variables} ${clauses.length}\n${clauses.map((c) => `${[...c, 0].join(' ')}`).join('\n')}\n`, clauses };
}

/** Every algebra of the signature at order n, as evaluation-ready tables. */
function* allAlgebras(signature: Signature, n: number): Generator<FiniteAlgebra> {
  const sizes = signature.operations.map((operation) => n ** operation.arity);
  const total = sizes.reduce((a, b) => a + b, 0);
  const values = new Array<number>(total).fill(0);
  for (;;) {
    let offset = 0;
    const operations = new Map(
      signature.operations.map((operation, index) => {
        const size = sizes[index] as number;
        const slice = values.slice(offset, offset + size);
        offset += size;
        return [operation.name, { arity: operation.arity, values: slice }];
      }),
    );
    yield { order: n, operations };
    let position = total - 1;
    while (position >= 0 && values[position] === n - 1) values[position--] = 0;
    if (position < 0) return;
    values[position] = (values[position] as number) + 1;
  }
}

/** The value of a term in an algebra under an assignment, by plain recursion. */
function valueAt(algebra: FiniteAlgebra, term: Term, assignment: Record<string, number>): number {
  if (term.kind === 'variable') return assignment[term.name] as number;
  const { values } = algebra.operations.get(term.operation) as { values: readonly number[] };
  const args = term.args.map((arg) => valueAt(algebra, arg, assignment));
  return values[args.reduce((cell, arg) => cell * algebra.order + arg, 0)] as number;
}

/** Brute force: does some algebra of order n satisfy the laws and violate the target? */
function countermodelExists(p: CountermodelProblem): boolean {
  for (const algebra of allAlgebras(p.signature, p.order)) {
    const results = evaluateLaws(algebra, [...p.laws, p.target]);
    if (results.slice(0, -1).every((r) => r.holds) && results.at(-1)?.holds === false) return true;
  }
  return false;
}

describe('countermodel CNF encoding', () => {
  let dir: string;
  let binary: string;
  let count = 0;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'jacobian-cnf-test-'));
    binary = await findCadical();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Solve with cadical; for UNSAT also check the proof with the independent RUP checker. */
  async function solve(p: CountermodelProblem): Promise<{ sat: boolean; algebra: FiniteAlgebra | null; witness: Record<string, number> | null }> {
    const { text } = dimacs(p);
    const cnfPath = path.join(dir, `p${++count}.cnf`);
    const proofPath = path.join(dir, `p${count}.drat`);
    await writeFile(cnfPath, text);
    const run = await runCadical({ binary, cnfPath, proofPath, signal: new AbortController().signal, stopAt: Date.now() + 30_000, maxStdoutBytes: 1 << 20, maxProofBytes: 1 << 26 });
    if (run.result === 'UNSATISFIABLE') {
      expect(checkRupRefutation(text, await readFile(proofPath, 'utf8'))).toMatchObject({ ok: true });
      return { sat: false, algebra: null, witness: null };
    }
    expect(run.result).toBe('SATISFIABLE');
    const model = run.model as Int8Array;
    const decoded = decodeModel(variableLayout(p), (v) => model[v] === 1);
    const operations = new Map(
      p.signature.operations.map((operation) => {
        const table = decoded.tables[operation.name];
        const values = typeof table === 'number' ? [table] : (table as (number | number[])[]).flat();
        return [operation.name, { arity: operation.arity, values }];
      }),
    );
    return { sat: true, algebra: { order: p.order, operations }, witness: decoded.witness };
  }

  it('numbers the variables as documented', () => {
    const layout = variableLayout(problem(GROUP, [], 'x * y = y * x', 2));
    expect(layout.tables).toEqual([
      { operation: '*', arity: 2, first: 1, cells: 4 },
      { operation: 'e', arity: 0, first: 9, cells: 1 },
      { operation: 'i', arity: 1, first: 11, cells: 2 },
    ]);
    expect(layout.witness).toEqual([
      { variable: 'x', first: 15 },
      { variable: 'y', first: 17 },
    ]);
    expect(layout.targetValues.map((block) => block.term)).toEqual(['*(x,y)', '*(y,x)']);
    expect(layout.variables).toBe(22);
  });

  it('orders symmetry breaking along the witnesses of the target, the constants, then the first unary operation or the diagonal', () => {
    expect(symmetryCells(problem(GROUP, [], 'x = x', 3)).map((c) => c.label)).toEqual(['witness x', 'e', 'i(0)', 'i(1)', 'i(2)']);
    expect(symmetryCells(problem(MAGMA, [], 'x * y = y * x', 3)).map((c) => c.label)).toEqual(['witness x', 'witness y', '0 * 0', '1 * 1', '2 * 2']);
    expect(symmetryCells(problem(MAGMA, [], 'x = x', 3, 'NONE'))).toEqual([]);
  });

  it('emits no more clauses than its estimate', () => {
    for (const flattening of ['AUTO', 'DIRECT', 'DEFINITIONAL'] as const) {
      for (const p of [
        problem(GROUP, ['x * (y * z) = (x * y) * z', 'e * x = x', 'i(x) * x = e'], 'x * y = y * x', 4, 'LEAST_NUMBER', flattening),
        problem(MAGMA, ['x * x = x', '(x * y) * x = x * y', 'x = y'], '(x * y) * z = x', 3, 'LEAST_NUMBER', flattening),
        problem(MAGMA4, ['(x * y) * (z * w) = (x * z) * (y * w)', 'x * (y * x) = x', '(x * y) * (y * x) = x * (z * x)'], 'x * y = y * x', 3, 'NONE', flattening),
      ]) {
        expect(dimacs(p).clauses.length).toBeLessThanOrEqual(estimateClauses(p));
      }
    }
  });

  it('flattens a four-variable law through auxiliary functions, sharing the pattern both sides need', async () => {
    const medial = (order: number, flattening: LawFlattening): CountermodelProblem =>
      problem(MAGMA4, ['(x * y) * (z * w) = (x * z) * (y * w)'], 'x * (y * z) = (x * y) * (x * z)', order, 'LEAST_NUMBER', flattening);
    // DIRECT: one family over 4 variables and 5 slots, n^9 clauses; at order 8 far beyond the clause limit of the capability.
    expect(estimateClauses(medial(8, 'DIRECT'))).toBeGreaterThan(8 ** 9);
    const layout = variableLayout(medial(8, 'AUTO'));
    // The medial side as a function of its 4 variables, and #0 * (#1 * #2), which both sides reach by abstracting x * y or x * z.
    expect(layout.auxiliaries.map((block) => [block.pattern, block.arity, block.cells])).toEqual([
      ['*(*(#0,#1),*(#2,#3))', 4, 8 ** 4],
      ['*(#0,*(#1,#2))', 3, 8 ** 3],
    ]);
    expect(estimateClauses(medial(8, 'AUTO'))).toBeLessThan(1_000_000);
    // AUTO keeps the DIRECT flattening where it is not larger: x * x = x and commutativity have no auxiliaries.
    expect(variableLayout(problem(MAGMA, ['x * x = x', 'x * y = y * x'], 'x * (y * z) = (x * y) * z', 8)).auxiliaries).toEqual([]);
    // Both flattenings agree with brute force at orders 2 and 3 (with idempotence, no countermodel).
    for (const order of [2, 3]) {
      for (const flattening of ['DIRECT', 'DEFINITIONAL'] as const) {
        const p = medial(order, flattening);
        const withIdempotence = { ...p, laws: [...p.laws, parseLaw('x * x = x', MAGMA4)] };
        expect((await solve(p)).sat).toBe(countermodelExists(p));
        expect((await solve(withIdempotence)).sat).toBe(false);
      }
    }
    expect(countermodelExists(medial(2, 'AUTO'))).toBe(true);
  });

  /**
   * The central property: for random laws, the CNF is satisfiable exactly when brute force over
   * every algebra finds a countermodel, with and without symmetry breaking, whichever way the
   * laws are flattened; every model decodes into tables that satisfy the laws and violate the
   * target at the decoded witness, and every refutation's DRAT proof passes the independent RUP
   * checker.
   */
  it('agrees with brute force over all algebras of orders 1 to 3', async () => {
    const term = (signature: Signature, depth: number): fc.Arbitrary<Term> =>
      fc.letrec<{ term: Term }>((tie) => ({
        term: fc.oneof(
          { depthSize: 'small', maxDepth: depth },
          fc.constantFrom('x', 'y', 'z').map((name): Term => ({ kind: 'variable', name })),
          ...(signature.operationByName.has('e') ? [fc.constant<Term>({ kind: 'application', operation: 'e', args: [] })] : []),
          ...(signature.operationByName.has('i') ? [tie('term').map((a): Term => ({ kind: 'application', operation: 'i', args: [a] }))] : []),
          fc.tuple(tie('term'), tie('term')).map(([a, b]): Term => ({ kind: 'application', operation: '*', args: [a, b] })),
        ),
      })).term;
    const law = (signature: Signature): fc.Arbitrary<string> =>
      fc.tuple(term(signature, 2), term(signature, 2)).map(([l, r]) => `${printTerm(l, signature)} = ${printTerm(r, signature)}`);
    const cases = fc.oneof(
      fc.record({ signature: fc.constant(MAGMA), order: fc.integer({ min: 1, max: 3 }), laws: fc.array(law(MAGMA), { maxLength: 2 }), target: law(MAGMA) }),
      fc.record({ signature: fc.constant(GROUP), order: fc.integer({ min: 1, max: 2 }), laws: fc.array(law(GROUP), { maxLength: 2 }), target: law(GROUP) }),
    );
    let sat = 0;
    let unsat = 0;
    let auxiliary = 0;
    await fc.assert(
      fc.asyncProperty(cases, fc.constantFrom<SymmetryBreaking>('LEAST_NUMBER', 'NONE'), fc.constantFrom<LawFlattening>('AUTO', 'DIRECT', 'DEFINITIONAL'), async (c, symmetry, flattening) => {
        const p = problem(c.signature, c.laws, c.target, c.order, symmetry, flattening);
        if (variableLayout(p).auxiliaries.length > 0) auxiliary++;
        const expected = countermodelExists(p);
        const found = await solve(p);
        expect(found.sat).toBe(expected);
        if (found.algebra !== null) {
          const results = evaluateLaws(found.algebra, [...p.laws, p.target]);
          expect(results.slice(0, -1).every((r) => r.holds)).toBe(true);
          expect(results.at(-1)?.holds).toBe(false);
          // The decoded witness is a violating assignment: both sides of the target differ there.
          const witness = found.witness as Record<string, number>;
          expect(valueAt(found.algebra, p.target.left, witness)).not.toBe(valueAt(found.algebra, p.target.right, witness));
          sat++;
        } else {
          unsat++;
        }
      }),
      { numRuns: 180, seed: 20_240_601 },
    );
    // The random cases exercise both answers, and auxiliary functions.
    expect(sat).toBeGreaterThan(10);
    expect(unsat).toBeGreaterThan(10);
    expect(auxiliary).toBeGreaterThan(10);
  }, 120_000);

  it('decodes only assignments that give every cell exactly one value', () => {
    const layout = variableLayout(problem(MAGMA, [], 'x * y = y * x', 2));
    expect(() => decodeModel(layout, () => false)).toThrow(expect.objectContaining({ code: 'PROVIDER_FAILED' }) as Error);
    expect(() => decodeModel(layout, () => true)).toThrow(expect.objectContaining({ code: 'PROVIDER_FAILED' }) as Error);
  });
});

describe('least-number symmetry breaking', () => {
  /** The constraint, restated independently: each cell ≤ 1 + max(earlier cells, floor), the witnesses first. */
  function satisfies(signature: Signature, algebra: FiniteAlgebra, witness: readonly number[]): boolean {
    const n = algebra.order;
    const sequence: { value: number; floor: number }[] = witness.map((value) => ({ value, floor: -1 }));
    for (const operation of signature.operations) if (operation.arity === 0) sequence.push({ value: algebra.operations.get(operation.name)?.values[0] as number, floor: -1 });
    const unary = signature.operations.find((o) => o.arity === 1);
    const binary = signature.operations.find((o) => o.arity === 2);
    for (let d = 0; d < n; d++) {
      if (unary !== undefined) sequence.push({ value: algebra.operations.get(unary.name)?.values[d] as number, floor: d });
      else if (binary !== undefined) sequence.push({ value: algebra.operations.get(binary.name)?.values[d * n + d] as number, floor: d });
    }
    let max = -1;
    for (const { value, floor } of sequence) {
      if (value > Math.max(max, floor) + 1) return false;
      max = Math.max(max, value);
    }
    return true;
  }

  function relabel(algebra: FiniteAlgebra, pi: readonly number[]): FiniteAlgebra {
    const n = algebra.order;
    const inverse = new Array<number>(n);
    pi.forEach((image, element) => (inverse[image] = element));
    const operations = new Map(
      [...algebra.operations].map(([name, { arity, values }]) => {
        const relabelled = values.map((_, cell) => {
          // The cell of the relabelled algebra at (a, b) holds π(f(π⁻¹a, π⁻¹b)).
          const args = arity === 0 ? [] : arity === 1 ? [cell] : [Math.floor(cell / n), cell % n];
          const source = args.map((a) => inverse[a] as number);
          const index = source.length === 0 ? 0 : source.length === 1 ? (source[0] as number) : (source[0] as number) * n + (source[1] as number);
          return pi[values[index] as number] as number;
        });
        return [name, { arity, values: relabelled }];
      }),
    );
    return { order: n, operations };
  }

  function permutations(n: number): number[][] {
    if (n === 0) return [[]];
    return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
  }

  function randomAlgebra(signature: Signature, n: number, random: () => number): FiniteAlgebra {
    return {
      order: n,
      operations: new Map(signature.operations.map((o) => [o.name, { arity: o.arity, values: Array.from({ length: n ** o.arity }, () => Math.floor(random() * n)) }])),
    };
  }

  /** Every assignment of `count` variables in an algebra of order n. */
  function assignments(n: number, count: number): number[][] {
    if (count === 0) return [[]];
    return assignments(n, count - 1).flatMap((rest) => Array.from({ length: n }, (_, value) => [...rest, value]));
  }

  it('keeps an isomorphic copy of every magma of order ≤ 3 and every algebra of the group signature of order ≤ 2, with any witness', () => {
    for (const [signature, n] of [
      [MAGMA, 1],
      [MAGMA, 2],
      [MAGMA, 3],
      [GROUP, 1],
      [GROUP, 2],
    ] as const) {
      const perms = permutations(n);
      for (const algebra of allAlgebras(signature, n)) {
        for (const witness of assignments(n, 2)) {
          expect(perms.some((pi) => satisfies(signature, relabel(algebra, pi), witness.map((w) => pi[w] as number)))).toBe(true);
        }
      }
    }
  });

  it('keeps an isomorphic copy of random algebras of orders 3 to 5', () => {
    let state = 7;
    const random = (): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    for (const n of [3, 4, 5]) {
      const perms = permutations(n);
      for (let sample = 0; sample < 300; sample++) {
        for (const signature of [MAGMA, GROUP]) {
          const algebra = randomAlgebra(signature, n, random);
          const witness = Array.from({ length: 3 }, () => Math.floor(random() * n));
          expect(perms.some((pi) => satisfies(signature, relabel(algebra, pi), witness.map((w) => pi[w] as number)))).toBe(true);
        }
      }
    }
  });

  it('does cut labellings: some magmas of order 3 violate it as labelled', () => {
    let violating = 0;
    for (const algebra of allAlgebras(MAGMA, 3)) if (!satisfies(MAGMA, algebra, [])) violating++;
    expect(violating).toBeGreaterThan(0);
    // The first witness is element 0.
    const [first] = allAlgebras(MAGMA, 3);
    expect(satisfies(MAGMA, first as FiniteAlgebra, [0])).toBe(true);
    expect(satisfies(MAGMA, first as FiniteAlgebra, [1])).toBe(false);
  });
});

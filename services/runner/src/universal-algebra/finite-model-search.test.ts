import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateLaws, evaluateTerm, parseLaw, printTerm, resolveSignature, validateAlgebra, type Law, type Signature, type Term } from '@jacobian/shared';
import { findCadical } from '../providers/cadical.js';
import { encodeCountermodel, type SymmetryBreaking } from './cnf-encoding.js';
import { groundInstances, searchFiniteModel, type FiniteModelProblem } from './finite-model-search.js';

const MAGMA = resolveSignature({ operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z', 'w'] });
const MIXED = resolveSignature({
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: 'f', arity: 1 },
    { name: 'c', arity: 0 },
  ],
  variables: ['x', 'y', 'z'],
});

const laws = (signature: Signature, texts: string[]): Law[] => texts.map((text) => parseLaw(text, signature));
const problem = (signature: Signature, sources: string[], target: string, order: number, symmetryBreaking: SymmetryBreaking = 'LEAST_NUMBER'): FiniteModelProblem => ({
  signature,
  laws: laws(signature, sources),
  target: parseLaw(target, signature),
  order,
  symmetryBreaking,
});
const forever = (): number => performance.now() + 60_000;

/** The model satisfies every source law and violates the target at the returned witness, by the plain evaluator. */
function expectCountermodel(p: FiniteModelProblem, tables: unknown, witness: Record<string, number>): void {
  const algebra = validateAlgebra(p.signature, { order: p.order, tables });
  const results = evaluateLaws(algebra, [...p.laws, p.target]);
  expect(results.slice(0, -1).every((result) => result.holds)).toBe(true);
  expect(results.at(-1)?.holds).toBe(false);
  expect(Object.keys(witness).sort()).toEqual([...p.target.variables].sort());
  expect(evaluateTerm(algebra, p.target.left, witness)).not.toBe(evaluateTerm(algebra, p.target.right, witness));
}

describe('searchFiniteModel', () => {
  it('finds the smallest countermodels of known implications, each a genuine countermodel', () => {
    const cases: [string[], string, number][] = [
      [['x * (y * z) = (x * y) * z'], 'x * y = y * x', 2],
      [['x * x = x'], 'x * (y * z) = (x * y) * z', 3],
      [['(y * x) * (x * z) = x'], 'x * y = y * x', 4],
      [['x * x = x', 'x * y = y * x', 'x * (x * y) = y'], 'x * (y * z) = (x * y) * (x * z)', 7],
    ];
    for (const [sources, target, smallest] of cases) {
      for (let order = 1; order < smallest; order++) expect(searchFiniteModel(problem(MAGMA, sources, target, order), { stopAt: forever() }).kind).toBe('NONE');
      const p = problem(MAGMA, sources, target, smallest);
      const found = searchFiniteModel(p, { stopAt: forever() });
      expect(found.kind).toBe('FOUND');
      if (found.kind === 'FOUND') expectCountermodel(p, found.tables, found.witness);
    }
  });

  it('handles constants and unary operations: the smallest non-abelian group has order 6', () => {
    const group = resolveSignature({ operations: [{ name: '*', arity: 2, infix: true }, { name: 'e', arity: 0 }, { name: 'i', arity: 1 }], variables: ['x', 'y', 'z'] });
    const sources = ['x * (y * z) = (x * y) * z', 'e * x = x', 'i(x) * x = e'];
    expect(searchFiniteModel(problem(group, sources, 'x * y = y * x', 4), { stopAt: forever() }).kind).toBe('NONE');
    const p = problem(group, sources, 'x * y = y * x', 6);
    const found = searchFiniteModel(p, { stopAt: forever() });
    expect(found.kind).toBe('FOUND');
    if (found.kind === 'FOUND') expectCountermodel(p, found.tables, found.witness);
  });

  it('finds nothing when a source law is x = y (order ≥ 2) or the target is trivial, and nothing at order 1', () => {
    expect(searchFiniteModel(problem(MAGMA, ['x = y'], 'x * y = y * x', 3), { stopAt: forever() }).kind).toBe('NONE');
    expect(searchFiniteModel(problem(MAGMA, [], 'x * y = x * y', 3), { stopAt: forever() }).kind).toBe('NONE');
    expect(searchFiniteModel(problem(MAGMA, [], 'x = y', 1), { stopAt: forever() }).kind).toBe('NONE');
    const p = problem(MAGMA, [], 'x = y', 2);
    expect(searchFiniteModel(p, { stopAt: forever() })).toMatchObject({ kind: 'FOUND', witness: { x: 0, y: 1 } });
  });

  it('gives up at its node limit or its stop time, and passes on what its checkpoint throws', () => {
    const hard = problem(MAGMA, ['(x * y) * (z * w) = (x * z) * (y * w)', 'x * x = x'], 'x * (y * z) = (x * y) * (x * z)', 5);
    expect(searchFiniteModel(hard, { stopAt: forever(), maxNodes: 1000 })).toMatchObject({ kind: 'GAVE_UP', why: 'NODES' });
    let clock = 0;
    expect(searchFiniteModel(hard, { stopAt: 10, now: () => clock++ })).toMatchObject({ kind: 'GAVE_UP', why: 'TIME' });
    expect(() =>
      searchFiniteModel(hard, {
        stopAt: forever(),
        checkpoint: () => {
          throw new Error('stop');
        },
      }),
    ).toThrow('stop');
  });

  it('counts ground instances as the sum of n^k', () => {
    expect(groundInstances(laws(MAGMA, ['x * (y * z) = (x * y) * z', 'x * x = x']), 4)).toBe(64 + 4);
  });
});

/** Random terms over `*`, f, c and x, y, z, at most `depth` deep. */
function termArbitrary(depth: number): fc.Arbitrary<Term> {
  const variable = fc.constantFrom<Term>({ kind: 'variable', name: 'x' }, { kind: 'variable', name: 'y' }, { kind: 'variable', name: 'z' });
  if (depth <= 1) return fc.oneof(variable, fc.constant<Term>({ kind: 'application', operation: 'c', args: [] }));
  const smaller = termArbitrary(depth - 1);
  return fc.oneof(
    { arbitrary: variable, weight: 3 },
    { arbitrary: fc.constant<Term>({ kind: 'application', operation: 'c', args: [] }), weight: 1 },
    { arbitrary: smaller.map((t): Term => ({ kind: 'application', operation: 'f', args: [t] })), weight: 1 },
    { arbitrary: fc.tuple(smaller, smaller).map(([a, b]): Term => ({ kind: 'application', operation: '*', args: [a, b] })), weight: 3 },
  );
}

const lawText = fc.tuple(termArbitrary(3), termArbitrary(3)).map(([left, right]) => `${printTerm(left, MIXED)} = ${printTerm(right, MIXED)}`);

describe('searchFiniteModel agrees with the SAT path (CNF encoding solved by CaDiCaL)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'jacobian-fms-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let file = 0;

  /** Whether the CNF of the problem is satisfiable, by the cadical binary the provider would use. */
  async function satisfiable(p: FiniteModelProblem): Promise<boolean> {
    const binary = await findCadical();
    const lines: string[] = [];
    const summary = encodeCountermodel(p, (clause) => lines.push(`${clause.join(' ')} 0`));
    const cnf = path.join(dir, `p${file++}.cnf`);
    writeFileSync(cnf, `p cnf ${summary.variables} ${summary.clauses}\n${lines.join('\n')}\n`);
    const run = spawnSync(binary, ['-q', '-n', cnf], { encoding: 'utf8', timeout: 30_000 });
    if (run.status !== 10 && run.status !== 20) throw new Error(`cadical exited with ${String(run.status)}: ${run.stderr}`);
    return run.status === 10;
  }

  it('gives the same existence answer at orders 1 to 3 on random law sets, with and without symmetry breaking', async () => {
    let found = 0;
    let none = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(lawText, { minLength: 0, maxLength: 2 }), lawText, async (sources, target) => {
        for (let order = 1; order <= 3; order++) {
          const expected = await satisfiable(problem(MIXED, sources, target, order));
          for (const method of ['LEAST_NUMBER', 'NONE'] as const) {
            const p = problem(MIXED, sources, target, order, method);
            const result = searchFiniteModel(p, { stopAt: forever() });
            expect(result.kind, `${sources.join(', ')} ⇒ ${target} at order ${order} (${method})`).toBe(expected ? 'FOUND' : 'NONE');
            if (result.kind === 'FOUND') expectCountermodel(p, result.tables, result.witness);
          }
          if (expected) found++;
          else none++;
        }
      }),
      { numRuns: 60, seed: 20261130 },
    );
    // Both answers occur, so the comparison is not vacuous.
    expect(found).toBeGreaterThan(10);
    expect(none).toBeGreaterThan(10);
  });
});

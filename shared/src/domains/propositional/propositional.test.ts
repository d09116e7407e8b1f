import { describe, expect, it } from 'vitest';
import { JacobianError } from '../../errors.js';
import { clauseOf, type Cnf } from '../sat/dimacs.js';
import { seededRandom } from '../sat/generators.js';
import {
  evaluatePropositional,
  formulaStats,
  parsePropositional,
  parsePropositionalPayload,
  parsePropositionalStructure,
  printPropositional,
  PROPOSITIONAL_LIMITS,
  propositionalPayload,
  tseitin,
  type PropositionalFormula,
} from './index.js';

const atom = (name: string): PropositionalFormula => ({ kind: 'atom', name });
const not = (operand: PropositionalFormula): PropositionalFormula => ({ kind: 'not', operand });
const and = (...operands: PropositionalFormula[]): PropositionalFormula => ({ kind: 'and', operands });
const or = (...operands: PropositionalFormula[]): PropositionalFormula => ({ kind: 'or', operands });
const implies = (antecedent: PropositionalFormula, consequent: PropositionalFormula): PropositionalFormula => ({ kind: 'implies', antecedent, consequent });
const iff = (left: PropositionalFormula, right: PropositionalFormula): PropositionalFormula => ({ kind: 'iff', left, right });
const group = (inner: PropositionalFormula): PropositionalFormula => ({ kind: 'group', inner });
const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map(atom) as [PropositionalFormula, PropositionalFormula, PropositionalFormula, PropositionalFormula, PropositionalFormula];

function errorOf(f: () => unknown): JacobianError {
  try {
    f();
  } catch (error) {
    if (error instanceof JacobianError) return error;
    throw error;
  }
  throw new Error('expected a JacobianError');
}

/**
 * A random formula in our grammar, over atoms p0 … p(atoms−1): an abstract tree, then a group
 * node wherever precedence needs one, and now and then where it does not (kept as written).
 */
function randomFormula(random: () => number, atoms: number, size: number): PropositionalFormula {
  const PREC = { iff: 0, implies: 1, or: 2, and: 3, unary: 4 } as const;
  const precOf = (f: PropositionalFormula): number => (f.kind === 'iff' ? 0 : f.kind === 'implies' ? 1 : f.kind === 'or' ? 2 : f.kind === 'and' ? 3 : 4);
  const fit = (f: PropositionalFormula, min: number): PropositionalFormula => (precOf(f) < min || random() < 0.1 ? group(f) : f);
  const build = (n: number): PropositionalFormula => {
    if (n <= 1) return atom(`p${Math.floor(random() * atoms)}`);
    const r = random();
    if (r < 0.15) return not(fit(build(n - 1), PREC.unary));
    const left = Math.max(1, Math.floor(random() * (n - 1)));
    const l = build(left);
    const rt = build(n - 1 - left);
    if (r < 0.4) return and(fit(l, PREC.unary), fit(rt, PREC.unary));
    if (r < 0.65) return or(fit(l, PREC.and), fit(rt, PREC.and));
    if (r < 0.85) return implies(fit(l, PREC.or), fit(rt, PREC.implies));
    return iff(fit(l, PREC.implies), fit(rt, PREC.implies));
  };
  // Keep the depth inside the limit by grouping less deep formulas only: retry with a smaller size.
  for (let s = size; ; s = Math.max(1, s - 2)) {
    const f = build(s);
    if (formulaStats(f).depth <= PROPOSITIONAL_LIMITS.maxDepth) return f;
  }
}

/** Merge directly nested same-kind chains the way the parser reads them (a & b written without parentheses is one node). */
function normalizeChains(f: PropositionalFormula): PropositionalFormula {
  switch (f.kind) {
    case 'atom':
      return f;
    case 'not':
      return not(normalizeChains(f.operand));
    case 'group':
      return group(normalizeChains(f.inner));
    case 'implies':
      return implies(normalizeChains(f.antecedent), normalizeChains(f.consequent));
    case 'iff':
      return iff(normalizeChains(f.left), normalizeChains(f.right));
    case 'and':
    case 'or': {
      const operands = f.operands.map(normalizeChains).flatMap((o) => (o.kind === f.kind ? o.operands : [o]));
      return { kind: f.kind, operands };
    }
  }
}

function allAssignments(atoms: string[]): Record<string, boolean>[] {
  return Array.from({ length: 2 ** atoms.length }, (_, bits) => Object.fromEntries(atoms.map((name, i) => [name, ((bits >> i) & 1) === 1])));
}

/** Unit propagation to a fixpoint: null on conflict, else the values (0 unassigned). */
function propagate(cnf: Cnf, units: number[]): Int8Array | null {
  const values = new Int8Array(cnf.variables + 1);
  for (const u of units) values[Math.abs(u)] = u > 0 ? 1 : -1;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < cnf.clauseCount; i++) {
      const clause = clauseOf(cnf, i);
      const open: number[] = [];
      let satisfied = false;
      for (const lit of clause) {
        const v = values[Math.abs(lit)] as number;
        if (v === 0) open.push(lit);
        else if ((v > 0) === lit > 0) satisfied = true;
      }
      if (satisfied) continue;
      if (open.length === 0) return null;
      if (open.length === 1) {
        const lit = open[0] as number;
        values[Math.abs(lit)] = lit > 0 ? 1 : -1;
        changed = true;
      }
    }
  }
  return values;
}

describe('the propositional grammar', () => {
  it.each([
    ['a | b & c', or(a, and(b, c))],
    ['a & b | c & d', or(and(a, b), and(c, d))],
    ['!a & b', and(not(a), b)],
    ['~~a', not(not(a))],
    ['a -> b -> c', implies(a, implies(b, c))],
    ['(a -> b) -> c', implies(group(implies(a, b)), c)],
    ['a | b -> c & d', implies(or(a, b), and(c, d))],
    ['a <-> b -> c', iff(a, implies(b, c))],
    ['a & b & c', and(a, b, c)],
    ['(a & b) & c', and(group(and(a, b)), c)],
    ['a & (b & c)', and(a, group(and(b, c)))],
    ['((a))', group(group(a))],
    ['not a and b or c implies d iff e', iff(implies(or(and(not(a), b), c), d), e)],
    ['p_1&q2|_r', or(and(atom('p_1'), atom('q2')), atom('_r'))],
  ])('reads %s with standard precedence, implication to the right, grouping kept', (text, tree) => {
    expect(parsePropositional(text)).toEqual(tree);
  });

  it.each([
    ['', 'EMPTY_FORMULA', null],
    ['  \n ', 'EMPTY_FORMULA', null],
    ['a &', 'EXPECTED_OPERAND', { line: 1, column: 4 }],
    ['a & (b | c', 'UNCLOSED_PARENTHESIS', { line: 1, column: 11 }],
    ['a b', 'UNEXPECTED_TOKEN', { line: 1, column: 3 }],
    ['a ) & b', 'UNMATCHED_PARENTHESIS', { line: 1, column: 3 }],
    ['a <-> b <-> c', 'CHAINED_IFF', { line: 1, column: 9 }],
    ['a # b', 'UNEXPECTED_CHARACTER', { line: 1, column: 3 }],
    ['a &\n  & b', 'EXPECTED_OPERAND', { line: 2, column: 3 }],
    ['and & b', 'EXPECTED_OPERAND', { line: 1, column: 1 }],
    ['a - > b', 'UNEXPECTED_CHARACTER', { line: 1, column: 3 }],
    ['()', 'EXPECTED_OPERAND', { line: 1, column: 2 }],
    [`${'!'.repeat(PROPOSITIONAL_LIMITS.maxDepth)}a`, 'TOO_DEEP', { line: 1, column: PROPOSITIONAL_LIMITS.maxDepth + 1 }],
    [`a & ${'x'.repeat(PROPOSITIONAL_LIMITS.maxAtomLength + 1)}`, 'ATOM_NAME', { line: 1, column: 5 }],
  ])('refuses %j naming the rule %s and the position', (text, rule, position) => {
    const error = errorOf(() => parsePropositional(text, ['payload', 'formula']));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.path).toEqual(['payload', 'formula']);
    expect(error.data?.['rule']).toBe(rule);
    expect(error.message).toContain(`rule ${rule}`);
    if (position !== null) {
      expect({ line: error.data?.['line'], column: error.data?.['column'] }).toEqual(position);
      expect(error.message).toContain(`line ${position.line}, column ${position.column}`);
    }
  });

  it('accepts a formula at the depth limit and refuses one level more', () => {
    expect(formulaStats(parsePropositional(`${'!'.repeat(PROPOSITIONAL_LIMITS.maxDepth - 1)}a`)).depth).toBe(PROPOSITIONAL_LIMITS.maxDepth);
    const chain = (n: number): string => Array.from({ length: n }, (_, i) => `p${i}`).join(' -> ');
    expect(formulaStats(parsePropositional(chain(PROPOSITIONAL_LIMITS.maxDepth))).depth).toBe(PROPOSITIONAL_LIMITS.maxDepth);
    expect(errorOf(() => parsePropositional(chain(PROPOSITIONAL_LIMITS.maxDepth + 1))).data?.['rule']).toBe('TOO_DEEP');
  });

  it('refuses text beyond the length limit before reading it', () => {
    expect(errorOf(() => parsePropositional('a'.repeat(PROPOSITIONAL_LIMITS.maxTextLength + 1))).data?.['rule']).toBe('TOO_LONG');
  });
});

describe('structures', () => {
  it('round-trip through printing (symbols and words), JSON and the stored payload, on random formulas', () => {
    const random = seededRandom(7);
    for (let i = 0; i < 400; i++) {
      const tree = normalizeChains(randomFormula(random, 6, 2 + Math.floor(random() * 25)));
      const text = printPropositional(tree);
      expect(parsePropositional(text), text).toEqual(tree);
      expect(parsePropositional(printPropositional(tree, 'words'))).toEqual(tree);
      expect(parsePropositionalStructure(JSON.parse(JSON.stringify(tree)))).toEqual(tree);
      const payload = propositionalPayload(tree);
      expect(payload.text).toBe(text);
      expect(parsePropositionalPayload(JSON.parse(JSON.stringify(payload)) as typeof payload)).toEqual(tree);
    }
  });

  it.each([
    [{ kind: 'and', operands: [{ kind: 'atom', name: 'a' }] }, 'NODE_SHAPE', ['s', 'operands']],
    [{ kind: 'and', operands: [{ kind: 'or', operands: [a, b] }, c] }, 'PRECEDENCE', ['s', 'operands', 0]],
    [{ kind: 'and', operands: [{ kind: 'and', operands: [a, b] }, c] }, 'PRECEDENCE', ['s', 'operands', 0]],
    [{ kind: 'implies', antecedent: implies(a, b), consequent: c }, 'PRECEDENCE', ['s', 'antecedent']],
    [{ kind: 'iff', left: iff(a, b), right: c }, 'PRECEDENCE', ['s', 'left']],
    [{ kind: 'not', operand: and(a, b) }, 'PRECEDENCE', ['s', 'operand']],
    [{ kind: 'xor', left: a, right: b }, 'NODE_SHAPE', ['s', 'kind']],
    [{ kind: 'atom', name: 'a', negated: true }, 'NODE_SHAPE', ['s', 'negated']],
    [{ kind: 'atom', name: 'or' }, 'ATOM_NAME', ['s', 'name']],
    [{ kind: 'atom', name: '1a' }, 'ATOM_NAME', ['s', 'name']],
    [{ kind: 'group' }, 'NODE_SHAPE', ['s', 'inner']],
    ['a', 'NODE_SHAPE', ['s']],
  ])('refuses the tree %j naming the node and the rule', (tree, rule, path) => {
    const error = errorOf(() => parsePropositionalStructure(tree, ['s']));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.data?.['rule']).toBe(rule);
    expect(error.path).toEqual(path);
  });

  it('keeps a grouped nested conjunction apart from a flat one', () => {
    expect(parsePropositionalStructure(and(group(and(a, b)), c))).toEqual(parsePropositional('(a & b) & c'));
    expect(printPropositional(and(group(and(a, b)), c))).toBe('(a & b) & c');
  });

  it('refuses a payload whose text or counts are not its tree’s', () => {
    const payload = propositionalPayload(parsePropositional('(p -> q) & p'));
    expect(errorOf(() => parsePropositionalPayload({ ...payload, text: 'p -> q & p' })).path).toEqual(['text']);
    expect(errorOf(() => parsePropositionalPayload({ ...payload, nodes: payload.nodes + 1 })).path).toEqual(['nodes']);
    expect(errorOf(() => parsePropositionalPayload({ ...payload, atoms: ['q', 'p'] })).path).toEqual(['atoms']);
  });

  it('counts nodes (groups included), depth and atoms in order of first appearance', () => {
    expect(formulaStats(parsePropositional('(q -> p) & !q'))).toEqual({ nodes: 7, depth: 4, atoms: ['q', 'p'] });
  });
});

describe('the Tseitin encoding', () => {
  it('agrees with the truth table under every assignment of the atoms, for F and for ¬F, on random formulas up to 10 atoms', () => {
    const random = seededRandom(2026);
    for (let i = 0; i < 150; i++) {
      const atoms = 1 + Math.floor(random() * 10);
      const formula = randomFormula(random, atoms, 2 + Math.floor(random() * 20));
      const positive = tseitin(formula, 'FORMULA');
      const negative = tseitin(formula, 'NEGATION');
      expect(positive.atoms).toEqual(formulaStats(formula).atoms);
      for (const assignment of allAssignments(positive.atoms)) {
        const truth = evaluatePropositional(formula, assignment);
        const units = positive.atoms.map((name) => (assignment[name] ? 1 : -1) * (positive.atomVariables[name] as number));
        // The definitions fix every gate variable from the atoms, so propagation decides.
        const forF = propagate(positive.cnf, units);
        const forNotF = propagate(negative.cnf, units);
        expect(forF !== null, printPropositional(formula)).toBe(truth);
        expect(forNotF !== null).toBe(!truth);
        for (const values of [forF, forNotF]) if (values !== null) expect(values.slice(1).every((v) => v !== 0)).toBe(true);
      }
    }
  });

  it('numbers atoms first, in order of first appearance, then one variable per binary connective', () => {
    const encoding = tseitin(parsePropositional('(q -> p) & !q'), 'NEGATION');
    expect(encoding.atomVariables).toEqual({ q: 1, p: 2 });
    expect(encoding.cnf.variables).toBe(4);
    expect(clauseOf(encoding.cnf, encoding.cnf.clauseCount - 1)).toEqual([-4]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JacobianError } from '../../errors.js';
import { clauseOf, cnfFromClauses, parseDimacs, serializeDimacs } from './dimacs.js';
import { dratFromSteps, dratStepClause, looksLikeBinaryDrat, parseDrat, parseDratBinary, parseDratText, serializeDratText } from './drat.js';
import { pigeonhole, randomKSat } from './generators.js';
import { parseLrat, serializeLrat } from './lrat.js';
import { parseCnfPayload } from './artifacts.js';

/** The error a call throws, asserted to be a JacobianError. */
function errorOf(run: () => unknown): JacobianError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    return error as JacobianError;
  }
  throw new Error('expected an error');
}

describe('DIMACS CNF', () => {
  it('parses comments, a header, clauses across lines and several on a line, and the SATLIB % end', () => {
    const cnf = parseDimacs('c a comment\np cnf 3 3\n1 -2 0 2\n3 0\n-1 0\n%\n0\n');
    expect(cnf.variables).toBe(3);
    expect(cnf.clauseCount).toBe(3);
    expect([0, 1, 2].map((i) => clauseOf(cnf, i))).toEqual([[1, -2], [2, 3], [-1]]);
  });

  it('accepts the empty clause and an empty formula', () => {
    expect(clauseOf(parseDimacs('p cnf 0 1\n0\n'), 0)).toEqual([]);
    expect(parseDimacs('p cnf 5 0\n').clauseCount).toBe(0);
  });

  it.each([
    ['1 2 0\np cnf 2 1\n', 'HEADER_MISSING', 1],
    ['p cnf 2\n1 0\n', 'HEADER_MALFORMED', 1],
    ['p dnf 2 1\n1 0\n', 'HEADER_MALFORMED', 1],
    ['p cnf 2 1\np cnf 2 1\n1 0\n', 'HEADER_DUPLICATE', 2],
    ['p cnf 2 1\n1 x 0\n', 'TOKEN_MALFORMED', 2],
    ['p cnf 2 1\n1 2.5 0\n', 'TOKEN_MALFORMED', 2],
    ['p cnf 2 1\n\n\n1 -3 0\n', 'LITERAL_OUT_OF_RANGE', 4],
    ['p cnf 2 2\n1 0\n2 -1\n', 'CLAUSE_UNTERMINATED', 3],
    ['p cnf 2 1\n1 0\n2 0\n', 'CLAUSE_COUNT_MISMATCH', 3],
  ])('rejects %j with rule %s at line %i', (text, rule, line) => {
    const error = errorOf(() => parseDimacs(text, ['payload', 'dimacs']));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.data).toMatchObject({ rule, line });
    expect(error.path).toEqual(['payload', 'dimacs']);
    expect(error.message).toContain(`line ${line}`);
  });

  it('rejects too few clauses and a missing header without a line', () => {
    expect(errorOf(() => parseDimacs('p cnf 2 3\n1 0\n')).data).toMatchObject({ rule: 'CLAUSE_COUNT_MISMATCH' });
    expect(errorOf(() => parseDimacs('c only a comment\n')).data).toMatchObject({ rule: 'HEADER_MISSING' });
  });

  it('enforces size limits before allocating', () => {
    const limits = { maxVariables: 10, maxClauses: 10, maxLiterals: 3 };
    expect(errorOf(() => parseDimacs('p cnf 11 1\n1 0\n', [], limits)).data).toMatchObject({ rule: 'LIMIT_EXCEEDED' });
    expect(errorOf(() => parseDimacs('p cnf 2 11\n1 0\n', [], limits)).data).toMatchObject({ rule: 'LIMIT_EXCEEDED' });
    expect(errorOf(() => parseDimacs('p cnf 2 1\n1 2 -1 2 0\n', [], limits)).data).toMatchObject({ rule: 'LIMIT_EXCEEDED' });
  });

  it('serializes so that parsing gives the same clauses (property)', () => {
    const clause = fc.array(fc.integer({ min: 1, max: 20 }).chain((v) => fc.constantFrom(v, -v)), { maxLength: 6 });
    fc.assert(
      fc.property(fc.array(clause, { maxLength: 30 }), (clauses) => {
        const cnf = cnfFromClauses(20, clauses);
        const text = serializeDimacs(cnf, ['generated']);
        const back = parseDimacs(text);
        expect(back.clauseCount).toBe(clauses.length);
        expect(clauses.map((_, i) => clauseOf(back, i))).toEqual(clauses);
        expect(serializeDimacs(back, ['generated'])).toBe(text);
      }),
    );
  });

  it('checks a stored CNF payload against its header counts', () => {
    const dimacs = 'p cnf 2 1\n1 2 0\n';
    expect(parseCnfPayload({ format: 'DIMACS_CNF', variables: 2, clauses: 1, dimacs }).clauseCount).toBe(1);
    expect(errorOf(() => parseCnfPayload({ format: 'DIMACS_CNF', variables: 3, clauses: 1, dimacs }, ['payload', 'cnf'])).data).toMatchObject({ rule: 'CLAUSE_COUNT_MISMATCH' });
  });
});

describe('generators', () => {
  it('builds PHP(n+1, n) with (n+1) pigeon clauses and n·C(n+1, 2) hole clauses', () => {
    const php = pigeonhole(4);
    expect(php.variables).toBe(20);
    expect(php.clauseCount).toBe(5 + 4 * 10);
    expect(clauseOf(php, 0)).toEqual([1, 2, 3, 4]);
    expect(clauseOf(php, 5)).toEqual([-1, -5]);
  });

  it('builds random 3-SAT deterministically from the seed, three distinct variables a clause', () => {
    const a = randomKSat(50, 4.26, 7);
    expect(a.clauseCount).toBe(213);
    expect(serializeDimacs(randomKSat(50, 4.26, 7))).toBe(serializeDimacs(a));
    expect(serializeDimacs(randomKSat(50, 4.26, 8))).not.toBe(serializeDimacs(a));
    for (let i = 0; i < a.clauseCount; i++) expect(new Set(clauseOf(a, i).map(Math.abs)).size).toBe(3);
  });
});

/** Binary DRAT as drat-trim defines it, written independently of the parser. */
function encodeBinary(steps: { delete?: boolean; clause: number[] }[]): Uint8Array {
  const bytes: number[] = [];
  for (const step of steps) {
    bytes.push(step.delete === true ? 0x64 : 0x61);
    for (const literal of step.clause) {
      let u = 2 * Math.abs(literal) + (literal < 0 ? 1 : 0);
      while (u > 127) {
        bytes.push((u & 127) | 128);
        u >>>= 7;
      }
      bytes.push(u);
    }
    bytes.push(0);
  }
  return Uint8Array.from(bytes);
}

describe('DRAT proofs', () => {
  it('parses text steps, deletions, comments, and names each step line', () => {
    const proof = parseDratText('c proof\n1 2 0\nd 1 -3 0\n\n-2\n 4 0\n0\n');
    expect(proof.stepCount).toBe(4);
    expect(Array.from(proof.kinds)).toEqual([0, 1, 0, 0]);
    expect([0, 1, 2, 3].map((i) => dratStepClause(proof, i))).toEqual([[1, 2], [1, -3], [-2, 4], []]);
    expect(Array.from(proof.lines)).toEqual([2, 3, 5, 7]);
    expect(proof.maxVariable).toBe(4);
  });

  it.each([
    ['1 2\n', 'STEP_UNTERMINATED', 1],
    ['1 d 2 0\n', 'DELETION_MISPLACED', 1],
    ['1 0\n2 a 0\n', 'TOKEN_MALFORMED', 2],
    ['1 0\ndx 0\n', 'TOKEN_MALFORMED', 2],
  ])('rejects %j with rule %s at line %i', (text, rule, line) => {
    expect(errorOf(() => parseDratText(text)).data).toMatchObject({ rule, line });
  });

  it('parses binary DRAT, including multi-byte literals, and tells it from text', () => {
    const steps = [{ clause: [1, -2, 200] }, { delete: true, clause: [-70000, 3] }, { clause: [] }];
    const bytes = encodeBinary(steps);
    expect(looksLikeBinaryDrat(bytes)).toBe(true);
    const proof = parseDrat(bytes);
    expect(proof.format).toBe('DRAT_BINARY');
    expect([0, 1, 2].map((i) => dratStepClause(proof, i))).toEqual(steps.map((s) => s.clause));
    expect(Array.from(proof.kinds)).toEqual([0, 1, 0]);
    expect(looksLikeBinaryDrat(new TextEncoder().encode('1 2 0\nd 1 0\n'))).toBe(false);
    expect(parseDrat(new TextEncoder().encode('1 2 0\n')).format).toBe('DRAT_TEXT');
  });

  it('rejects malformed binary DRAT naming the byte', () => {
    expect(errorOf(() => parseDratBinary(Uint8Array.from([0x61, 2, 4]))).data).toMatchObject({ rule: 'STEP_UNTERMINATED' });
    expect(errorOf(() => parseDratBinary(Uint8Array.from([0x62, 2, 0]))).data).toMatchObject({ rule: 'BINARY_MALFORMED' });
    expect(errorOf(() => parseDratBinary(Uint8Array.from([0x61, 1, 0]))).message).toContain('variable 0');
  });

  it('round-trips text proofs (property)', () => {
    const literal = fc.integer({ min: 1, max: 300 }).chain((v) => fc.constantFrom(v, -v));
    const step = fc.record({ delete: fc.boolean(), clause: fc.array(literal, { maxLength: 5 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        const proof = dratFromSteps(steps);
        const back = parseDratText(serializeDratText(proof));
        expect(back.stepCount).toBe(steps.length);
        steps.forEach((s, i) => {
          expect(dratStepClause(back, i)).toEqual(s.clause);
          expect(back.kinds[i]).toBe(s.delete ? 1 : 0);
        });
        const binary = parseDratBinary(encodeBinary(steps));
        steps.forEach((s, i) => expect(dratStepClause(binary, i)).toEqual(s.clause));
      }),
    );
  });
});

describe('LRAT proofs', () => {
  it('parses additions with hints (RAT hints negative), deletions and comments', () => {
    const proof = parseLrat('c lrat\n5 1 2 0 1 -3 4 0\n5 d 1 2 0\n6 0 5 3 0\n');
    expect(proof.steps).toHaveLength(3);
    expect(proof.steps[0]).toMatchObject({ kind: 'add', id: 5, line: 2 });
    const first = proof.steps[0];
    if (first?.kind !== 'add') throw new Error('expected an addition');
    expect(Array.from(first.literals)).toEqual([1, 2]);
    expect(Array.from(first.hints)).toEqual([1, -3, 4]);
    const second = proof.steps[1];
    if (second?.kind !== 'delete') throw new Error('expected a deletion');
    expect(Array.from(second.ids)).toEqual([1, 2]);
    expect(parseLrat(serializeLrat(proof.steps)).steps).toEqual(proof.steps.map((s) => ({ ...s, line: proof.steps.indexOf(s) + 1 })));
  });

  it.each([
    ['5 1 2 0 1 2\n', 'STEP_UNTERMINATED', 1],
    ['0 1 0 0\n', 'ID_INVALID', 1],
    ['5 d -1 0\n', 'ID_INVALID', 1],
    ['5 1 0 0\nd 3 0\n', 'TOKEN_MALFORMED', 2],
    ['5 1 x 0 0\n', 'TOKEN_MALFORMED', 1],
  ])('rejects %j with rule %s at line %i', (text, rule, line) => {
    expect(errorOf(() => parseLrat(text)).data).toMatchObject({ rule, line });
  });
});

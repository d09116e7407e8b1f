import type { KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapabilityResultSchema,
  COUNTERMODEL_RESULT_SCHEMA_URI,
  COUNTERMODEL_RESULT_SEMANTICS_URI,
  CountermodelResultPayloadSchema,
  evaluateLaws,
  evaluateTerm,
  GRAPH_SCHEMA_URI,
  parseLaws,
  resolveSignature,
  UNIVERSAL_ALGEBRA_SOURCES,
  validateAlgebra,
  VERIFICATION_RECORD_SCHEMA_URI,
  verifyRecordSignature,
  type CapabilityResult,
  type CountermodelClaim,
  type VerificationRecord,
} from '@jacobian/shared';
import { createWitnessCheckerFixture, type WitnessCheckerFixture } from '../graph/witness-test-fixture.js';
import { COUNTERMODEL_CHECKER_ID, COUNTERMODEL_CHECKER_SOURCES, COUNTERMODEL_VERIFY_CAPABILITY_ID, type VerifyCountermodelOutput } from './countermodel-verify.js';
import { checkCountermodelClaim } from './countermodel-verify.kernel.js';

const ID = COUNTERMODEL_VERIFY_CAPABILITY_ID;
type SignatureOfClaim = CountermodelClaim['signature'];
const SEMIGROUP: SignatureOfClaim = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z'] };
const GROUP: SignatureOfClaim = {
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: 'e', arity: 0, infix: false },
    { name: 'i', arity: 1, infix: false },
  ],
  variables: ['x', 'y', 'z'],
};
const ASSOCIATIVITY = 'x * (y * z) = (x * y) * z';
const COMMUTATIVITY = 'x * y = y * x';

/** The left-zero semigroup of order 2 (x * y = x): associative, not commutative (0 * 1 = 0, 1 * 0 = 1). */
const LEFT_ZERO: CountermodelClaim = {
  signature: SEMIGROUP,
  laws: [ASSOCIATIVITY],
  target: COMMUTATIVITY,
  order: 2,
  tables: { '*': [[0, 0], [1, 1]] },
  violating_assignment: { x: 0, y: 1 },
  target_values: { left: 0, right: 1 },
};

/** Subtraction modulo 3: neither associative nor commutative. */
const SUBTRACTION_MOD_3 = { '*': [[0, 2, 1], [1, 0, 2], [2, 1, 0]] };

/** Z/4 as a group with e = 0 and negation: abelian, so commutativity never fails. */
const Z4 = {
  '*': Array.from({ length: 4 }, (_, a) => Array.from({ length: 4 }, (_, b) => (a + b) % 4)),
  e: 0,
  i: [0, 3, 2, 1],
};

const PROVENANCE = { capability_id: 'universal_algebra.search.countermodel', capability_version: '1.0.0', provider: 'cadical', provider_version: 'test', provider_digest: 'c'.repeat(64) };

describe('universal_algebra.countermodel.verify', () => {
  let f: WitnessCheckerFixture;
  let trusted: Map<string, KeyObject>;
  beforeAll(async () => {
    f = await createWitnessCheckerFixture();
    trusted = new Map([[f.key.keyId, f.key.publicKey]]);
  });
  afterAll(async () => {
    await f.close();
  });

  /** Store a countermodel result as the producer would (a test stands in for the runner, which the checker never imports). */
  async function storeResult(payload: Record<string, unknown>): Promise<string> {
    const stored = await f.artifacts.put({ schema_uri: COUNTERMODEL_RESULT_SCHEMA_URI, semantics_uri: COUNTERMODEL_RESULT_SEMANTICS_URI, payload: payload as never, parents: [], summary: {} });
    f.resetWrites();
    return stored.uri;
  }

  /** Assert an ACCEPTED, VERIFIED result whose stored record is signed and binds the candidate, claim and request. */
  async function expectVerified(result: CapabilityResult, expectedWrites: string[]): Promise<{ record: VerificationRecord; output: VerifyCountermodelOutput }> {
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    expect(result.diagnostics).toEqual([]);
    expect(result.execution.status).toBe('COMPLETED');
    expect(result.assurance).toMatchObject({ level: 'VERIFIED', checker_id: COUNTERMODEL_CHECKER_ID });
    const output = result.output as VerifyCountermodelOutput;
    expect(output).toMatchObject({ verdict: 'ACCEPTED', reason_code: null, failure: null });
    expect(f.writes).toEqual(expectedWrites);
    const recordUri = result.assurance.verification_record_uri as string;
    expect(output.verification_record_uri).toBe(recordUri);
    const candidateUri = output.result_uri as string;
    const stored = await f.artifacts.get(recordUri);
    expect(stored.manifest).toMatchObject({ schema_uri: VERIFICATION_RECORD_SCHEMA_URI, parents: [candidateUri] });
    const record = verifyRecordSignature(stored.payload, trusted);
    const identity = f.checker.identities.find((i) => i.checker_id === COUNTERMODEL_CHECKER_ID);
    expect(record.body).toMatchObject({
      verdict: 'ACCEPTED',
      capability_id: ID,
      checker_id: COUNTERMODEL_CHECKER_ID,
      checker_digest: identity?.checker_digest,
      candidate_uri: candidateUri,
      claim_semantics_uri: COUNTERMODEL_RESULT_SEMANTICS_URI,
      input_uris: [],
      request_digest: result.execution.request_digest,
      scope: { kind: 'EXACT_CLAIM', statement: output.claim },
      claim: { kind: 'FINITE_COUNTERMODEL', statement: output.claim },
    });
    expect(result.artifact_uris).toEqual([recordUri, candidateUri]);
    expect(result.relationships).toEqual([{ subject: recordUri, predicate: 'VERIFIES', object: candidateUri }]);
    // The candidate is a stored countermodel whose claim is exactly the signed one.
    const candidate = await f.artifacts.get(candidateUri);
    expect(candidate.manifest).toMatchObject({ schema_uri: COUNTERMODEL_RESULT_SCHEMA_URI, semantics_uri: COUNTERMODEL_RESULT_SEMANTICS_URI });
    const payload = CountermodelResultPayloadSchema.parse(candidate.payload);
    const { tables: _tables, provenance: _provenance, ...signed } = payload;
    expect(record.body.claim.value).toEqual(signed);
    return { record, output };
  }

  function expectRejected(result: CapabilityResult, reason: string, message: RegExp): VerifyCountermodelOutput {
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    expect(result.execution.status).toBe('COMPLETED');
    expect(result.assurance).toMatchObject({ level: 'COMPUTED', verification_record_uri: null, checker_id: null });
    const output = result.output as VerifyCountermodelOutput;
    expect(output).toMatchObject({ verdict: 'REJECTED', reason_code: reason, verification_record_uri: null });
    expect(output.message).toMatch(message);
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', code: 'CHECKER_REJECTED', stage: 'VERIFICATION', message: output.message })]);
    expect(f.writes).toEqual([]);
    return output;
  }

  describe('registration', () => {
    it('registers a VERIFY checker whose identity covers its code and the shared universal-algebra sources, authorized when bundled', () => {
      const descriptor = f.checker.installed.find((c) => c.descriptor.id === ID)?.descriptor;
      expect(descriptor).toMatchObject({ role: 'checker', modes: ['VERIFY'], assurance_ceiling: 'VERIFIED', domain: 'universal_algebra', pool: 'checker' });
      expect(descriptor?.relationships).toEqual([{ kind: 'VERIFIES', capability_id: 'universal_algebra.search.countermodel' }]);
      expect(descriptor?.checker).toMatchObject({ checker_id: COUNTERMODEL_CHECKER_ID, checker_digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown });
      expect(COUNTERMODEL_CHECKER_SOURCES).toEqual(expect.arrayContaining([...UNIVERSAL_ALGEBRA_SOURCES]));
      expect(COUNTERMODEL_CHECKER_SOURCES.some((file) => file.endsWith('countermodel-verify.kernel.ts'))).toBe(true);
      expect(f.checker.authorization.authorized).toContainEqual({ checker_id: COUNTERMODEL_CHECKER_ID, checker_digest: descriptor?.checker?.checker_digest });
      expect(new Set(f.checker.identities.map((i) => i.checker_digest)).size).toBe(f.checker.identities.length);
    });

    it('runs every invocation example it advertises, and each is VERIFIED', async () => {
      const descriptor = f.checker.installed.find((c) => c.descriptor.id === ID)?.descriptor;
      expect(descriptor?.examples.length).toBe(2);
      for (const example of descriptor?.examples ?? []) {
        const result = await f.run(ID, example.payload);
        await expectVerified(result, [COUNTERMODEL_RESULT_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI]);
      }
    });
  });

  describe('accepts', () => {
    it('a stored result, binding the record to it without writing a new candidate', async () => {
      const resultUri = await storeResult({ ...LEFT_ZERO, provenance: PROVENANCE });
      const result = await f.run(ID, { result_uri: resultUri });
      const { output } = await expectVerified(result, [VERIFICATION_RECORD_SCHEMA_URI]);
      expect(output).toMatchObject({ result_uri: resultUri, order: 2, source_laws: 1, assignments_checked: 9 });
      expect(result.scope).toMatchObject({ kind: 'EXACT_CLAIM', input_uris: [resultUri] });
      expect(output.claim).toContain('"x * (y * z) = (x * y) * z"');
      expect(output.claim).toContain('x = 0, y = 1');
    });

    it('a stored result of the range form (orders min … max): the witness at its order, with the engine that found it in its provenance', async () => {
      // The natural central groupoid on pairs of {0, 1} (element 2a + b): (a, b) * (c, d) = (b, c). The first
      // non-commutative central groupoid a range search of orders 1 … 8 finds has order 4.
      const central = Array.from({ length: 4 }, (_, x) => Array.from({ length: 4 }, (_, y) => 2 * (x % 2) + Math.floor(y / 2)));
      const claim = {
        signature: SEMIGROUP,
        laws: ['(y * x) * (x * z) = x'],
        target: COMMUTATIVITY,
        order: 4,
        tables: { '*': central },
        violating_assignment: { x: 0, y: 1 },
        target_values: { left: central[0]?.[1] as number, right: central[1]?.[0] as number },
      };
      const resultUri = await storeResult({ ...claim, provenance: { ...PROVENANCE, capability_version: '1.1.0', engine: 'TS_SEARCH' } });
      const result = await f.run(ID, { result_uri: resultUri });
      const { output } = await expectVerified(result, [VERIFICATION_RECORD_SCHEMA_URI]);
      expect(output).toMatchObject({ result_uri: resultUri, order: 4, source_laws: 1 });
      // The same claim with a non-central table is rejected: the checker does not trust the engine.
      const broken = await storeResult({ ...claim, tables: { '*': central.map((row, x) => (x === 3 ? [0, 0, 0, 0] : row)) }, provenance: { ...PROVENANCE, engine: 'TS_SEARCH' } });
      expectRejected(await f.run(ID, { result_uri: broken }), 'SOURCE_LAW_VIOLATED', /source law 0/);
    });

    it('an inline claim, storing it as the candidate; the same claim again gives the same candidate', async () => {
      const first = await f.run(ID, { countermodel: LEFT_ZERO });
      const { output } = await expectVerified(first, [COUNTERMODEL_RESULT_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI]);
      const again = await f.run(ID, { countermodel: LEFT_ZERO });
      expect((again.output as VerifyCountermodelOutput).result_uri).toBe(output.result_uri);
      // The stored candidate can itself be verified by its URI.
      const byUri = await f.run(ID, { result_uri: output.result_uri });
      await expectVerified(byUri, [VERIFICATION_RECORD_SCHEMA_URI]);
    });

    it('a claim with no source laws', async () => {
      const result = await f.run(ID, { countermodel: { ...LEFT_ZERO, laws: [] } });
      const { output } = await expectVerified(result, [COUNTERMODEL_RESULT_SCHEMA_URI, VERIFICATION_RECORD_SCHEMA_URI]);
      expect(output.assignments_checked).toBe(1);
    });
  });

  describe('rejects, naming the failing law and assignment', () => {
    it('a source law that fails: the first violating assignment in lexicographic order, as the shared evaluator finds it', async () => {
      const claim = { ...LEFT_ZERO, order: 3, tables: SUBTRACTION_MOD_3, violating_assignment: { x: 0, y: 1 }, target_values: { left: 2, right: 1 } };
      const output = expectRejected(await f.run(ID, { countermodel: claim }), 'SOURCE_LAW_VIOLATED', /source law 0, "x \* \(y \* z\) = \(x \* y\) \* z", fails at x = 0, y = 0, z = 1/);
      const signature = resolveSignature(SEMIGROUP);
      const [expected] = evaluateLaws(validateAlgebra(signature, { order: 3, tables: SUBTRACTION_MOD_3 }), parseLaws([ASSOCIATIVITY], signature));
      expect(output.failure).toEqual({
        law: ASSOCIATIVITY,
        law_index: 0,
        assignment: expected?.violation?.assignment,
        left: expected?.violation?.left,
        right: expected?.violation?.right,
        path: ['laws', 0],
      });
    });

    it('a stored result that is false, pointing at result_uri', async () => {
      const resultUri = await storeResult({ ...LEFT_ZERO, laws: [ASSOCIATIVITY, 'x * x = y'], provenance: PROVENANCE });
      const result = await f.run(ID, { result_uri: resultUri });
      const output = expectRejected(result, 'SOURCE_LAW_VIOLATED', /source law 1, "x \* x = y", fails at x = 0, y = 1: the left side is 0 and the right side is 1/);
      expect(output.result_uri).toBe(resultUri);
      expect(result.diagnostics[0]?.path).toEqual(['payload', 'result_uri']);
    });

    it('a target that holds at the stated assignment, and target values that are not the real ones', async () => {
      expectRejected(await f.run(ID, { countermodel: { ...LEFT_ZERO, violating_assignment: { x: 1, y: 1 } } }), 'TARGET_NOT_VIOLATED', /holds at x = 1, y = 1: both sides are 1/);
      const swapped = await f.run(ID, { countermodel: { ...LEFT_ZERO, target_values: { left: 1, right: 0 } } });
      expectRejected(swapped, 'TARGET_VALUES_MISMATCH', /are 0 and 1, not the claimed 1 and 0/);
      expect(swapped.diagnostics[0]?.path).toEqual(['payload', 'countermodel', 'target_values']);
    });

    it('an abelian group claimed to violate commutativity', async () => {
      const claim = { signature: GROUP, laws: [ASSOCIATIVITY, 'e * x = x', 'i(x) * x = e'], target: COMMUTATIVITY, order: 4, tables: Z4, violating_assignment: { x: 1, y: 2 }, target_values: { left: 3, right: 3 } };
      expectRejected(await f.run(ID, { countermodel: claim }), 'TARGET_NOT_VIOLATED', /both sides are 3/);
    });

    it.each([
      ['an entry outside 0 … n−1', { '*': [[0, 0], [1, 2]] }, /tables\.\*\[1\]\[1\] is 2, not an element of 0 … 1/, ['tables', '*', 1, 1]],
      ['a short row', { '*': [[0, 0], [1]] }, /row 1 of "\*" must list 2 elements/, ['tables', '*', 1]],
      ['a missing row', { '*': [[0, 0]] }, /must have 2 rows/, ['tables', '*']],
      ['a scalar for a binary operation', { '*': 0 }, /must have 2 rows/, ['tables', '*']],
      ['a missing table', {}, /the table of "\*" \(arity 2\) is missing/, ['tables', '*']],
      ['a table of an undeclared operation', { '*': [[0, 0], [1, 1]], '+': [[0, 0], [0, 0]] }, /"\+", which is not an operation of the signature/, ['tables', '+']],
    ])('tables that are not total functions on 0 … n−1: %s', async (_label, tables, message, path) => {
      const result = await f.run(ID, { countermodel: { ...LEFT_ZERO, tables } });
      const output = expectRejected(result, 'TABLE_INVALID', message);
      expect(output.failure?.path).toEqual(path);
      expect(result.diagnostics[0]?.path).toEqual(['payload', 'countermodel', ...path]);
    });

    it.each([
      ['a target variable left out', { x: 0 }, /give the target's variable "y" an element of 0 … 1; it gives none/],
      ['a variable the target does not have', { x: 0, y: 1, z: 0 }, /"z" is not a variable of the target law/],
      ['a value outside 0 … n−1', { x: 0, y: 2 }, /it gives 2/],
    ])('an assignment with %s', async (_label, violating_assignment, message) => {
      expectRejected(await f.run(ID, { countermodel: { ...LEFT_ZERO, violating_assignment } }), 'ASSIGNMENT_INVALID', message);
    });
  });

  describe('concludes nothing, and writes nothing, when', () => {
    it('the request gives both or neither of result_uri and countermodel', async () => {
      const uri = await storeResult({ ...LEFT_ZERO, provenance: PROVENANCE });
      f.expectError(await f.run(ID, {}), 'INVALID_REQUEST');
      f.expectError(await f.run(ID, { result_uri: uri, countermodel: LEFT_ZERO }), 'INVALID_REQUEST');
    });

    it('result_uri names no artifact, or an artifact of another type', async () => {
      f.expectError(await f.run(ID, { result_uri: `artifact://sha256/${'0'.repeat(64)}` }), 'ARTIFACT_NOT_FOUND', ['payload', 'result_uri']);
      const graph = await f.storeGraph(3, [[0, 1]]);
      f.expectError(await f.run(ID, { result_uri: graph }), 'ARTIFACT_TYPE_MISMATCH', ['payload', 'result_uri']);
      expect((await f.artifacts.get(graph)).manifest.schema_uri).toBe(GRAPH_SCHEMA_URI);
    });

    it('the stored result is malformed or its laws do not parse', async () => {
      const noProvenance = await storeResult({ ...LEFT_ZERO });
      f.expectError(await f.run(ID, { result_uri: noProvenance }), 'ARTIFACT_TYPE_MISMATCH', ['payload', 'result_uri']);
      const unparsable = await storeResult({ ...LEFT_ZERO, laws: ['x * (y * z = x'], provenance: PROVENANCE });
      const result = await f.run(ID, { result_uri: unparsable });
      f.expectError(result, 'ARTIFACT_TYPE_MISMATCH', ['payload', 'result_uri']);
      expect(result.diagnostics[0]?.message).toMatch(/does not parse: laws\.0, column/);
    });

    it('an inline law does not parse, naming its place', async () => {
      const result = await f.run(ID, { countermodel: { ...LEFT_ZERO, laws: [ASSOCIATIVITY, 'x + y = y'] } });
      f.expectError(result, 'INVALID_REQUEST', ['payload', 'countermodel', 'laws', 1]);
    });

    it('the claim needs more assignments than the checker allows: a request error inline, unsupported when stored', async () => {
      const order = 64;
      const big = {
        ...LEFT_ZERO,
        laws: ['x * (y * (z * w)) = x'],
        signature: { ...SEMIGROUP, variables: ['x', 'y', 'z', 'w'] },
        order,
        tables: { '*': Array.from({ length: order }, (_, a) => Array.from({ length: order }, () => a)) },
      };
      f.expectError(await f.run(ID, { countermodel: big }), 'INVALID_REQUEST', ['payload', 'countermodel', 'laws', 0]);
      const uri = await storeResult({ ...big, provenance: PROVENANCE });
      f.expectError(await f.run(ID, { result_uri: uri }), 'CHECKER_UNSUPPORTED', ['payload', 'result_uri']);
    });

    it('the checker is not authorized by the operator', async () => {
      const result = await f.run(ID, { countermodel: LEFT_ZERO }, { service: f.unauthorized });
      f.expectError(result, 'CHECKER_NOT_AUTHORIZED');
    });
  });
});

describe('checkCountermodelClaim, the check itself', () => {
  const LAWS = [ASSOCIATIVITY, COMMUTATIVITY, 'x * x = x', '(x * y) * x = x', 'x * (x * y) = x * y', 'x * y = x'];
  const signature = resolveSignature(SEMIGROUP);

  it('property: on random tables of order 2 and 3 it agrees with the shared evaluator, which shares no code with it', () => {
    const claimArbitrary = fc
      .integer({ min: 2, max: 3 })
      .chain((n) =>
        fc.record({
          n: fc.constant(n),
          table: fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }),
          sources: fc.subarray(LAWS, { maxLength: 3 }),
          target: fc.constantFrom(...LAWS),
          values: fc.record({ x: fc.integer({ min: 0, max: n - 1 }), y: fc.integer({ min: 0, max: n - 1 }), z: fc.integer({ min: 0, max: n - 1 }) }),
        }),
      );
    fc.assert(
      fc.property(claimArbitrary, ({ n, table, sources, target, values }) => {
        const algebra = validateAlgebra(signature, { order: n, tables: { '*': table } });
        const [targetLaw] = parseLaws([target], signature);
        if (targetLaw === undefined) throw new Error('the target did not parse');
        const assignment = Object.fromEntries(targetLaw.variables.map((name) => [name, values[name as keyof typeof values]]));
        const sides = { left: evaluateTerm(algebra, targetLaw.left, assignment), right: evaluateTerm(algebra, targetLaw.right, assignment) };
        const claim: CountermodelClaim = { signature: SEMIGROUP, laws: sources, target, order: n, tables: { '*': table }, violating_assignment: assignment, target_values: sides };
        const verdict = checkCountermodelClaim(claim);
        const results = evaluateLaws(algebra, parseLaws(sources, signature));
        const failing = results.findIndex((result) => !result.holds);
        if (sides.left === sides.right) {
          expect(verdict).toMatchObject({ accepted: false, reason_code: 'TARGET_NOT_VIOLATED' });
        } else if (failing >= 0) {
          const violation = results[failing]?.violation;
          expect(verdict).toMatchObject({
            accepted: false,
            reason_code: 'SOURCE_LAW_VIOLATED',
            failure: { law_index: failing, assignment: violation?.assignment, left: violation?.left, right: violation?.right, path: ['laws', failing] },
          });
        } else {
          expect(verdict).toEqual({ accepted: true, assignments_checked: 1 + results.reduce((sum, result) => sum + result.assignmentsChecked, 0) });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: a claim with one table entry changed is rejected or still true, never wrongly accepted', () => {
    // S3 with the group laws is a true countermodel of commutativity; corrupt one entry of * and compare with the shared evaluator.
    const example = symmetricGroupClaim();
    const groupSignature = resolveSignature(GROUP);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), (a, b, v) => {
        const product = example.tables['*'].map((row) => [...row]);
        (product[a] as number[])[b] = v;
        const tables = { ...example.tables, '*': product };
        const claim: CountermodelClaim = { ...example, tables };
        const verdict = checkCountermodelClaim(claim);
        const algebra = validateAlgebra(groupSignature, { order: 6, tables });
        const holds = evaluateLaws(algebra, parseLaws(example.laws, groupSignature)).every((result) => result.holds);
        const [target] = parseLaws([example.target], groupSignature);
        const sides = target === undefined ? null : { left: evaluateTerm(algebra, target.left, example.violating_assignment), right: evaluateTerm(algebra, target.right, example.violating_assignment) };
        const expected = holds && sides !== null && sides.left !== sides.right && sides.left === example.target_values.left && sides.right === example.target_values.right;
        expect(verdict.accepted).toBe(expected);
      }),
      { numRuns: 100 },
    );
  });
});

/** S3 with the group laws, as the checker's own example states it (a true claim). */
function symmetricGroupClaim(): CountermodelClaim & { tables: { '*': number[][]; e: number; i: number[] } } {
  const elements = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
  const indexOf = (perm: number[]): number => elements.findIndex((e) => e.every((v, k) => v === perm[k]));
  const product = elements.map((p) => elements.map((q) => indexOf(q.map((v) => p[v] as number))));
  const inverse = elements.map((p) => indexOf([0, 1, 2].map((v) => p.indexOf(v))));
  return {
    signature: GROUP,
    laws: [ASSOCIATIVITY, 'e * x = x', 'i(x) * x = e'],
    target: COMMUTATIVITY,
    order: 6,
    tables: { '*': product, e: 0, i: inverse },
    violating_assignment: { x: 1, y: 2 },
    target_values: { left: product[1]?.[2] ?? -1, right: product[2]?.[1] ?? -1 },
  };
}

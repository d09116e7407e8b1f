/**
 * diophantine.claim.verify: the checks themselves (true claims accepted, tampered ones rejected
 * naming the check) and the capability (examples VERIFIED with a signed record, a stored claim by
 * result_uri, rejection without a record, refusal when not authorized).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIOPHANTINE_CLAIM_SCHEMA_URI, DIOPHANTINE_CLAIM_SEMANTICS_URI, verifyRecordSignature, type CapabilityResult, type DiophantineClaim, type InstalledCapability } from '@jacobian/shared';
import { completedOutput, createCheckerHarness, type CheckerHarness } from '../../checker-test-support.js';
import { checkDiophantineClaim, countReducedForms } from './diophantine-verify.js';
import { verifyDiophantineClaim, type DiophantineVerifyOutput } from './diophantine-verify-capability.js';

const pell61: DiophantineClaim = { kind: 'PELL', D: '61', plus: { x: '1766319049', y: '226153980' }, minus: { x: '29718', y: '3805' } };

describe('the Diophantine checks', () => {
  it('accepts true claims', () => {
    expect(checkDiophantineClaim(pell61).accepted).toBe(true);
    expect(checkDiophantineClaim({ kind: 'PELL', D: '3', plus: { x: '2', y: '1' }, minus: null }).accepted).toBe(true);
    expect(checkDiophantineClaim({ kind: 'PELL', D: '2', plus: { x: '3', y: '2' }, minus: { x: '1', y: '1' } }).accepted).toBe(true);
    expect(checkDiophantineClaim({ kind: 'FORM_REDUCTION', form: ['3', '5', '7'], reduced: ['3', '-1', '5'], transform: [['1', '-1'], ['0', '1']] }).accepted).toBe(true);
    expect(checkDiophantineClaim({ kind: 'FORM_EQUIVALENCE', f: ['2', '1', '3'], g: ['2', '-1', '3'], equivalent: false, transform: null }).accepted).toBe(true);
    expect(checkDiophantineClaim({ kind: 'CLASS_NUMBER', D: '-71', class_number: '7' }).accepted).toBe(true);
    expect(checkDiophantineClaim({ kind: 'INTEGER_SYSTEM_NONE', matrix: [['2', '4']], rhs: ['3'], certificate: ['1/2'] }).accepted).toBe(true);
  });

  it('class numbers by its own count: typed-in values and the nine Heegner discriminants', () => {
    const known: [bigint, bigint][] = [[-3n, 1n], [-4n, 1n], [-7n, 1n], [-8n, 1n], [-11n, 1n], [-19n, 1n], [-43n, 1n], [-67n, 1n], [-163n, 1n], [-23n, 3n], [-47n, 5n], [-71n, 7n], [-199n, 9n], [-5000n, 30n], [-1000003n, 105n]];
    for (const [D, h] of known) expect(countReducedForms(D, () => undefined), `h(${D})`).toBe(h);
  });

  it('class groups by its own composition: (Z/2)³ × Z/4 for −20020, Z/3 × Z/9 for −3299, trivial for −163; must reject dependent or wrong generators', () => {
    const g20020 = { kind: 'CLASS_GROUP' as const, D: '-20020', class_number: '32', invariants: ['2', '2', '2', '4'], generators: [['5', '0', '1001'], ['7', '0', '715'], ['11', '0', '455'], ['19', '-14', '266']] as [string, string, string][] };
    expect(checkDiophantineClaim(g20020).accepted).toBe(true);
    expect(checkDiophantineClaim({ kind: 'CLASS_GROUP', D: '-3299', class_number: '27', invariants: ['3', '9'], generators: [['11', '1', '75'], ['5', '-1', '165']] }).accepted).toBe(true);
    expect(checkDiophantineClaim({ kind: 'CLASS_GROUP', D: '-163', class_number: '1', invariants: [], generators: [] }).accepted).toBe(true);
    // The same generator twice: dependent, the products repeat.
    expect(checkDiophantineClaim({ ...g20020, generators: [['5', '0', '1001'], ['5', '0', '1001'], ['11', '0', '455'], ['19', '-14', '266']] })).toMatchObject({ accepted: false, reason_code: 'WRONG_CLASS_NUMBER' });
    // Z/32 is the wrong structure: no form has order 32.
    expect(checkDiophantineClaim({ ...g20020, invariants: ['32'], generators: [['19', '-14', '266']] })).toMatchObject({ accepted: false, reason_code: 'WRONG_CLASS_NUMBER' });
    expect(checkDiophantineClaim({ ...g20020, invariants: ['4', '2', '2', '2'] })).toMatchObject({ accepted: false, reason_code: 'SHAPE' });
  });

  it('must reject: a non-fundamental Pell solution (the square of the fundamental one)', () => {
    const x = 1766319049n;
    const y = 226153980n;
    const squared = { x: (x * x + 61n * y * y).toString(), y: (2n * x * y).toString() };
    expect(checkDiophantineClaim({ ...pell61, plus: squared })).toMatchObject({ accepted: false, reason_code: 'NOT_FUNDAMENTAL' });
  });

  it('must reject: a wrong identity, a wrong −1 solvability, a wrong −1 solution', () => {
    expect(checkDiophantineClaim({ ...pell61, plus: { x: '1766319049', y: '226153981' } })).toMatchObject({ accepted: false, reason_code: 'IDENTITY_FAILS' });
    expect(checkDiophantineClaim({ ...pell61, minus: null })).toMatchObject({ accepted: false, reason_code: 'WRONG_SOLVABILITY' });
    expect(checkDiophantineClaim({ kind: 'PELL', D: '3', plus: { x: '2', y: '1' }, minus: { x: '1', y: '1' } })).toMatchObject({ accepted: false, reason_code: 'IDENTITY_FAILS' });
    // (x, y) = (1, 1) solves x² − 2y² = −1; its cube (7, 5) does too but is not the least.
    expect(checkDiophantineClaim({ kind: 'PELL', D: '2', plus: { x: '3', y: '2' }, minus: { x: '7', y: '5' } })).toMatchObject({ accepted: false, reason_code: 'NOT_FUNDAMENTAL' });
  });

  it('must reject: a transform of determinant ≠ 1, a wrong image, a form that is not reduced', () => {
    expect(checkDiophantineClaim({ kind: 'FORM_REDUCTION', form: ['3', '5', '7'], reduced: ['3', '-1', '5'], transform: [['1', '-1'], ['0', '2']] })).toMatchObject({ accepted: false, reason_code: 'NOT_SL2' });
    expect(checkDiophantineClaim({ kind: 'FORM_REDUCTION', form: ['3', '5', '7'], reduced: ['3', '1', '5'], transform: [['1', '-1'], ['0', '1']] })).toMatchObject({ accepted: false, reason_code: 'IDENTITY_FAILS' });
    expect(checkDiophantineClaim({ kind: 'FORM_REDUCTION', form: ['3', '5', '7'], reduced: ['3', '5', '7'], transform: [['1', '0'], ['0', '1']] })).toMatchObject({ accepted: false, reason_code: 'NOT_REDUCED' });
  });

  it('must reject: a false non-equivalence, a wrong class number, a certificate whose y·b is an integer or y A is not', () => {
    expect(checkDiophantineClaim({ kind: 'FORM_EQUIVALENCE', f: ['3', '5', '7'], g: ['3', '-1', '5'], equivalent: false, transform: null })).toMatchObject({ accepted: false, reason_code: 'WRONG_EQUIVALENCE' });
    expect(checkDiophantineClaim({ kind: 'FORM_EQUIVALENCE', f: ['3', '5', '7'], g: ['3', '-1', '5'], equivalent: true, transform: [['1', '0'], ['0', '1']] })).toMatchObject({ accepted: false, reason_code: 'IDENTITY_FAILS' });
    expect(checkDiophantineClaim({ kind: 'CLASS_NUMBER', D: '-23', class_number: '1' })).toMatchObject({ accepted: false, reason_code: 'WRONG_CLASS_NUMBER', witness: '3' });
    expect(checkDiophantineClaim({ kind: 'INTEGER_SYSTEM_NONE', matrix: [['2', '4']], rhs: ['4'], certificate: ['1/2'] })).toMatchObject({ accepted: false, reason_code: 'IDENTITY_FAILS' });
    expect(checkDiophantineClaim({ kind: 'INTEGER_SYSTEM_NONE', matrix: [['2', '3']], rhs: ['3'], certificate: ['1/2'] })).toMatchObject({ accepted: false, reason_code: 'IDENTITY_FAILS' });
  });

  it('integer systems SOLVED: accepted with K W = I and the right kernel rank; must reject a sublattice, a short basis, a wrong x0', () => {
    const base = { kind: 'INTEGER_SYSTEM_SOLVED' as const, matrix: [['6', '10', '15']], rhs: ['1'], particular: ['-14', '7', '1'] };
    // K = rows (−5, 3, 0), (−30, 15, 2); W from U⁻¹ (K W = I).
    const K = [['-5', '3', '0'], ['-30', '15', '2']];
    const W = [['1', '-3'], ['2', '-5'], ['0', '-7']];
    expect(checkDiophantineClaim({ ...base, kernel: K, kernel_right_inverse: W }).accepted).toBe(true);
    // Twice a kernel vector spans a sublattice of index 2: no integer W exists, and this one fails.
    expect(checkDiophantineClaim({ ...base, kernel: [['-10', '6', '0'], K[1] as string[]], kernel_right_inverse: W })).toMatchObject({ accepted: false, reason_code: 'IDENTITY_FAILS' });
    expect(checkDiophantineClaim({ ...base, kernel: [K[0] as string[]], kernel_right_inverse: W.map((row) => [row[0] as string]) })).toMatchObject({ accepted: false, reason_code: 'SHAPE' });
    expect(checkDiophantineClaim({ ...base, particular: ['1', '1', '1'], kernel: K, kernel_right_inverse: W })).toMatchObject({ accepted: false, reason_code: 'IDENTITY_FAILS' });
  });

  it('indefinite non-equivalence by its own cycle: x² − 3y² and −x² + 3y² (D = 12) are not properly equivalent; (1, 5, −3) and (−3, 5, 1) are', () => {
    expect(checkDiophantineClaim({ kind: 'FORM_EQUIVALENCE', f: ['1', '0', '-3'], g: ['-1', '0', '3'], equivalent: false, transform: null }).accepted).toBe(true);
    expect(checkDiophantineClaim({ kind: 'FORM_EQUIVALENCE', f: ['1', '5', '-3'], g: ['-3', '5', '1'], equivalent: false, transform: null })).toMatchObject({ accepted: false, reason_code: 'WRONG_EQUIVALENCE' });
    // D = 37: the norm of the fundamental unit is −1, so f and −f are equivalent.
    expect(checkDiophantineClaim({ kind: 'FORM_EQUIVALENCE', f: ['1', '5', '-3'], g: ['-1', '-5', '3'], equivalent: false, transform: null })).toMatchObject({ accepted: false, reason_code: 'WRONG_EQUIVALENCE' });
  });
});

describe('diophantine.claim.verify as a capability', () => {
  let h: CheckerHarness;
  let verify: InstalledCapability;
  let unauthorized: InstalledCapability;
  const out = (result: CapabilityResult): DiophantineVerifyOutput => completedOutput<DiophantineVerifyOutput>(result);
  beforeAll(async () => {
    h = await createCheckerHarness('jacobian-diophantine-checker-');
    verify = await h.install(verifyDiophantineClaim);
    unauthorized = await h.install(verifyDiophantineClaim, false);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });

  it('verifies every advertised example, with a signed record bound to the stored claim', async () => {
    for (const example of verify.descriptor.examples) {
      const result = await h.run(verify, example.payload);
      const output = out(result);
      expect(output.verdict, example.title).toBe('ACCEPTED');
      expect(result.assurance.level).toBe('VERIFIED');
      const record = await h.artifacts.get(output.verification_record_uri as string);
      expect(verifyRecordSignature(record.payload, h.trusted)).toMatchObject({ body: { candidate_uri: output.claim_uri } });
    }
  });

  it('reads a stored claim by result_uri, and rejects a tampered one with no record', async () => {
    const put = async (payload: DiophantineClaim): Promise<string> => (await h.artifacts.put({ schema_uri: DIOPHANTINE_CLAIM_SCHEMA_URI, semantics_uri: DIOPHANTINE_CLAIM_SEMANTICS_URI, payload, parents: [], summary: {} })).uri;
    const good = await put({ kind: 'CLASS_NUMBER', D: '-47', class_number: '5' });
    expect(out(await h.run(verify, { result_uri: good }))).toMatchObject({ verdict: 'ACCEPTED', claim_uri: good });
    const bad = await put({ kind: 'CLASS_NUMBER', D: '-47', class_number: '4' });
    const rejected = await h.run(verify, { result_uri: bad });
    expect(out(rejected)).toMatchObject({ verdict: 'REJECTED', reason_code: 'WRONG_CLASS_NUMBER', verification_record_uri: null });
    expect(rejected.assurance.level).toBe('COMPUTED');
  });

  it('an unauthorized checker cannot produce VERIFIED', async () => {
    const result = await h.run(unauthorized, { claim: pell61 });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics.find((d) => d.severity === 'ERROR')?.code).toBe('CHECKER_NOT_AUTHORIZED');
  });
});

/**
 * The Diophantine capabilities run as the runner runs them (validated request, isolated kernel,
 * stored claim): every advertised example, typed errors naming field and rule, and the class group
 * on PARI/GP above our enumeration (skipped where gp is not installed), labelled GRH.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, DIOPHANTINE_CLAIM_SCHEMA_URI, DiophantineClaimSchema, type CapabilityDefinition, type CapabilityResult, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { PARI_PROVIDER, probePari } from '../../providers/pari.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../../testing/fixtures.js';
import { classGroupCompute, type ClassGroupOutput } from './class-group-capability.js';
import { continuedFractionCompute, type ContinuedFractionOutput } from './continued-fraction-capability.js';
import { integerLinearSystemSolve, type IntegerSystemOutput } from './linear-system-capability.js';
import { pellEquationSolve, type PellOutput } from './pell-capability.js';
import { DIOPHANTINE_TS_PROVIDER } from './provider.js';
import { formEquivalenceDecide, formReduce, type EquivalenceOutput, type ReduceOutput } from './quadratic-form-capabilities.js';

const TS: ProviderRuntime = { ...FAKE_RUNTIME, provider: DIOPHANTINE_TS_PROVIDER };
const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));

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

describe('Diophantine capabilities on our TypeScript code', () => {
  let h: CapabilityHarness;
  const cap: Record<string, InstalledCapability> = {};
  beforeAll(async () => {
    h = await createCapabilityHarness();
    const definitions = [continuedFractionCompute(TS), pellEquationSolve(TS), integerLinearSystemSolve(TS), formReduce(TS), formEquivalenceDecide(TS), classGroupCompute(TS)] as unknown as CapabilityDefinition<never, unknown>[];
    for (const definition of definitions) cap[definition.id] = h.install(definition, TS);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (id: string, payload: unknown): Promise<CapabilityResult> => h.run(cap[id] as InstalledCapability, { capability_id: id, payload });

  it('runs every advertised example to a conclusion', async () => {
    for (const capability of Object.values(cap)) {
      for (const example of capability.descriptor.examples) ok(await run(capability.descriptor.id, example.payload));
    }
  });

  it('continued fractions: 415/93, √7 with convergents, the golden ratio', async () => {
    expect(ok<ContinuedFractionOutput>(await run('diophantine.continued_fraction.compute', { number: { kind: 'rational', numerator: 415, denominator: 93 } }))).toMatchObject({ kind: 'FINITE', terms: ['4', '2', '6', '7'], notation: '[4; 2, 6, 7]' });
    const root7 = ok<ContinuedFractionOutput>(await run('diophantine.continued_fraction.compute', { number: { kind: 'quadratic', P: 0, D: 7, Q: 1 }, convergents: 5 }));
    expect(root7).toMatchObject({ kind: 'PERIODIC', preperiod: ['2'], period: ['1', '1', '1', '4'], notation: '[2; (1, 1, 1, 4)]' });
    expect(root7.convergents.map(({ p, q }) => `${p}/${q}`)).toEqual(['2/1', '3/1', '5/2', '8/3', '37/14']);
    expect(ok<ContinuedFractionOutput>(await run('diophantine.continued_fraction.compute', { number: { kind: 'quadratic', P: 1, D: 5, Q: 2 } })).notation).toBe('[(1)]');
  });

  it('Pell: D = 61, the negative equation for 13, NONE for 3 with the reason, and the claim stored', async () => {
    const d61 = ok<PellOutput>(await run('diophantine.pell_equation.solve', { D: 61 }));
    expect(d61).toMatchObject({ plus: { x: '1766319049', y: '226153980' }, minus: { x: '29718', y: '3805' }, minus_solvable: true, period_length: 11 });
    const d3 = ok<PellOutput>(await run('diophantine.pell_equation.solve', { D: '3' }));
    expect(d3).toMatchObject({ plus: { x: '2', y: '1' }, minus: null, minus_solvable: false });
    expect(d3.reason).toMatch(/even length 2/);
    const stored = await h.artifacts.get(d61.result_uri as string);
    expect(stored.manifest.schema_uri).toBe(DIOPHANTINE_CLAIM_SCHEMA_URI);
    expect(DiophantineClaimSchema.parse(stored.payload)).toMatchObject({ kind: 'PELL', D: '61', plus: { x: '1766319049' } });
  });

  it('Pell: long solutions are left out of the output past max_output_digits, with their digit counts', async () => {
    const out = ok<PellOutput>(await run('diophantine.pell_equation.solve', { D: 991, max_output_digits: 20 }));
    expect(out).toMatchObject({ omitted: true, plus: { x: null, y: null, x_digits: 30, y_digits: 29 } });
    // A period past max_period stops the run: a typed error, nothing concluded.
    expect(error(await run('diophantine.pell_equation.solve', { D: '1000000000000000000000000000003', max_period: 1000 }))).toMatchObject({ code: 'OUTPUT_LIMIT_EXCEEDED' });
  });

  it('integer linear systems: SOLVED with a lattice, NONE with a certificate checked here', async () => {
    const solved = ok<IntegerSystemOutput>(await run('diophantine.linear_system.solve', { matrix: { ring: { kind: 'Z' }, rows: [[6, 10, 15]] }, rhs: [1] }));
    expect(solved.outcome).toBe('SOLVED');
    const [x, y, z] = (solved.particular ?? []).map(BigInt) as [bigint, bigint, bigint];
    expect(6n * x + 10n * y + 15n * z).toBe(1n);
    expect(solved.kernel_basis).toHaveLength(2);
    const none = ok<IntegerSystemOutput>(await run('diophantine.linear_system.solve', { matrix: { ring: { kind: 'Z' }, rows: [[2, 4]] }, rhs: [3] }));
    expect(none).toMatchObject({ outcome: 'NONE', obstruction: 'NOT_INTEGRAL', certificate: ['1/2'], certificate_dot_rhs: '3/2' });
    expect(none.result_uri).not.toBeNull();
  });

  it('forms: reduction with its transform, equivalence with its witness', async () => {
    const reduced = ok<ReduceOutput>(await run('quadratic_form.reduce', { form: [3, 5, 7] }));
    expect(reduced).toMatchObject({ reduced: ['3', '-1', '5'], kind: 'POSITIVE_DEFINITE', discriminant: '-59' });
    expect(ok<ReduceOutput>(await run('quadratic_form.reduce', { form: [-3, -5, -7] }))).toMatchObject({ reduced: ['-3', '1', '-5'], kind: 'NEGATIVE_DEFINITE' });
    const eq = ok<EquivalenceOutput>(await run('quadratic_form.equivalence.decide', { f: [1, 5, -3], g: [-3, 5, 1] }));
    expect(eq.equivalent).toBe(true);
    const not = ok<EquivalenceOutput>(await run('quadratic_form.equivalence.decide', { f: [2, 1, 3], g: [2, -1, 3] }));
    expect(not).toMatchObject({ equivalent: false, transform: null });
  });

  it('class groups: h(−23) = 3 with its forms; Heegner discriminants have h = 1', async () => {
    const out = ok<ClassGroupOutput>(await run('quadratic_form.class_group.compute', { discriminant: -23, list_forms: true }));
    expect(out).toMatchObject({ class_number: '3', invariants: ['3'], conditional_on: null, forms: [['1', '1', '6'], ['2', '-1', '3'], ['2', '1', '3']] });
    for (const D of [-3, -4, -7, -8, -11, -19, -43, -67, -163]) expect(ok<ClassGroupOutput>(await run('quadratic_form.class_group.compute', { discriminant: D })).class_number).toBe('1');
  });

  it('bad input: typed errors naming the field and the rule, before any work', async () => {
    expect(error(await run('diophantine.pell_equation.solve', { D: 49 }))).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'D'] });
    expect(error(await run('diophantine.pell_equation.solve', { D: 0 })).message).toMatch(/integer-sign/);
    expect(error(await run('diophantine.pell_equation.solve', { D: '1'.repeat(41) })).message).toMatch(/integer-digits/);
    expect(error(await run('diophantine.continued_fraction.compute', { number: { kind: 'quadratic', P: 0, D: 9, Q: 1 } })).message).toMatch(/quadratic-irrational/);
    expect(error(await run('diophantine.continued_fraction.compute', { number: { kind: 'rational', numerator: 1, denominator: 0 } })).message).toMatch(/denominator-non-zero/);
    expect(error(await run('quadratic_form.class_group.compute', { discriminant: -22 })).message).toMatch(/imaginary-discriminant/);
    expect(error(await run('quadratic_form.class_group.compute', { discriminant: '-100000000000000000003' })).message).toMatch(/class-group-size|integer-digits/);
    expect(error(await run('quadratic_form.reduce', { form: [1, 2, 1] })).message).toMatch(/non-square-discriminant/);
    expect(error(await run('diophantine.linear_system.solve', { matrix: { ring: { kind: 'Q' }, rows: [['1/2', 1]] }, rhs: [1] })).code).toBe('INVALID_REQUEST');
    expect(error(await run('diophantine.linear_system.solve', { matrix: { ring: { kind: 'Z' }, rows: [[1, 2]] }, rhs: [1, 2] })).message).toMatch(/dimensions/);
  });
});

describe.skipIf(GP === undefined)('the class group on PARI/GP (first healthy of PARI and ours)', () => {
  let h: CapabilityHarness;
  let capability: InstalledCapability;
  const PARI: ProviderRuntime = { ...FAKE_RUNTIME, provider: PARI_PROVIDER };
  beforeAll(async () => {
    h = await createCapabilityHarness();
    const { tools } = await probePari({ binary: GP as string });
    capability = h.install(classGroupCompute(PARI, { pari: { tools } }) as unknown as CapabilityDefinition<never, unknown>, PARI);
  });
  afterAll(async () => {
    await h?.[Symbol.asyncDispose]();
  });
  const run = (payload: unknown): Promise<CapabilityResult> => h.run(capability, { capability_id: 'quadratic_form.class_group.compute', payload });

  it('small |D|: our unconditional enumeration serves even on PARI', async () => {
    expect(ok<ClassGroupOutput>(await run({ discriminant: -3299 }))).toMatchObject({ class_number: '27', invariants: ['3', '9'], conditional_on: null });
  });

  it('large |D|: PARI quadclassunit, labelled conditional on GRH in the output and the assurance basis', async () => {
    const result = await run({ discriminant: '-100000000000000000003' });
    const out = ok<ClassGroupOutput>(result);
    expect(out).toMatchObject({ class_number: '1442333424', invariants: ['2', '721166712'], conditional_on: 'GRH', result_uri: null });
    expect(result.assurance.basis).toMatch(/GRH/);
    expect(result.qualifiers).not.toContain('EXACT');
  });
});

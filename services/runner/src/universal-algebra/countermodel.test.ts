import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admitRequest,
  CapabilityRequestSchema,
  CapabilityResultSchema,
  COUNTERMODEL_RESULT_SCHEMA_URI,
  COUNTERMODEL_RESULT_SEMANTICS_URI,
  CountermodelResultPayloadSchema,
  createLocalFolderArtifactStore,
  evaluateLaws,
  executeCapability,
  parseLaw,
  resolveSignature,
  validateAlgebra,
  type CapabilityResult,
  type InstalledCapability,
  type ProviderRuntime,
} from '@jacobian/shared';
import { probeCadical } from '../providers/cadical.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { COUNTERMODEL_CAPABILITY_ID, countermodelSearch, SAT_DIMACS_SCHEMA_URI, SAT_DRAT_SCHEMA_URI, type CountermodelOutput } from './countermodel.js';
import { evaluateLawsCapability, type EvaluateLawsOutput } from './evaluate-laws.js';
import { checkRupRefutation } from './rup-check.testing.js';

const SEMIGROUP = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z'] };
const GROUP = {
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: 'e', arity: 0 },
    { name: 'i', arity: 1 },
  ],
  variables: ['x', 'y', 'z'],
};
const ASSOCIATIVITY = 'x * (y * z) = (x * y) * z';
const GROUP_LAWS = [ASSOCIATIVITY, 'e * x = x', 'i(x) * x = e'];
const COMMUTATIVITY = 'x * y = y * x';

/** cadical processes whose parent is this test process (the capability spawns it here, not in a pool child). */
function cadicalChildren(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may contain spaces, so split after the closing parenthesis.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'cadical' && ppid === process.pid) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Recheck a witness with the shared evaluator, independently of the capability's own recheck. */
function recheck(signature: unknown, laws: string[], target: string, output: CountermodelOutput): void {
  expect(output.status).toBe('WITNESS_FOUND');
  const resolved = resolveSignature(signature);
  const algebra = validateAlgebra(resolved, output.model);
  const results = evaluateLaws(algebra, [...laws, target].map((law) => parseLaw(law, resolved)));
  expect(results.slice(0, -1).map((r) => r.holds)).toEqual(laws.map(() => true));
  const violation = results.at(-1)?.violation;
  expect(violation?.assignment).toEqual(output.violating_assignment);
  expect({ left: violation?.left, right: violation?.right }).toEqual(output.target_values);
}

describe('universal_algebra.search.countermodel', () => {
  let harness: CapabilityHarness;
  let runtime: ProviderRuntime;
  let capability: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    runtime = await probeCadical();
    capability = harness.install(countermodelSearch(runtime), runtime);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  const search = (payload: Record<string, unknown>, wallTimeMs?: number): Promise<CapabilityResult> =>
    harness.run(capability, { capability_id: COUNTERMODEL_CAPABILITY_ID, payload, ...(wallTimeMs === undefined ? {} : { budget: { wall_time_ms: wallTimeMs } }) });

  it('runs its own examples to witnesses', async () => {
    for (const example of countermodelSearch(runtime).examples) {
      const result = await search(example.payload);
      const payload = example.payload as { signature: unknown; laws: string[]; target: string };
      recheck(payload.signature, payload.laws, payload.target, result.output as CountermodelOutput);
    }
  });

  it('finds a non-commutative semigroup of order 2, and stores it as a result artifact for the checker', async () => {
    const result = await search({ signature: SEMIGROUP, laws: [ASSOCIATIVITY], target: COMMUTATIVITY, order: 2 });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({ execution: { status: 'COMPLETED' }, completeness: { status: 'COMPLETE' }, assurance: { level: 'COMPUTED' }, obligations: [], diagnostics: [] });
    const output = result.output as CountermodelOutput;
    expect(output).toMatchObject({ order: 2, scope: { kind: 'ONE_FIXED_ORDER', order: 2 }, solver: { name: 'cadical', result: 'SATISFIABLE' }, evidence: null });
    expect(output.symmetry_breaking).toMatchObject({ method: 'LEAST_NUMBER', cells: ['0 * 0', '1 * 1'] });
    recheck(SEMIGROUP, [ASSOCIATIVITY], COMMUTATIVITY, output);

    expect(result.artifact_uris).toEqual([output.result_uri]);
    const stored = await harness.artifacts.get(output.result_uri as string);
    expect(stored.manifest).toMatchObject({ schema_uri: COUNTERMODEL_RESULT_SCHEMA_URI, semantics_uri: COUNTERMODEL_RESULT_SEMANTICS_URI, parents: [] });
    expect(CountermodelResultPayloadSchema.parse(stored.payload)).toEqual({
      signature: { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z'] },
      laws: [ASSOCIATIVITY],
      target: COMMUTATIVITY,
      order: 2,
      tables: output.model?.tables,
      violating_assignment: output.violating_assignment,
      target_values: output.target_values,
      provenance: { capability_id: COUNTERMODEL_CAPABILITY_ID, capability_version: '1.0.0', provider: 'cadical', provider_version: runtime.version, provider_digest: runtime.digest },
    });
  });

  it('says that universal_algebra.countermodel.verify checks its results', () => {
    expect(capability.descriptor.relationships).toEqual([{ kind: 'VERIFIED_BY', capability_id: 'universal_algebra.countermodel.verify' }]);
    expect(capability.descriptor.produced_artifact_types).toContain(COUNTERMODEL_RESULT_SCHEMA_URI);
  });

  it('still answers WITNESS_FOUND when the result is too large for the store, and says it was not retained', async () => {
    const tiny = createLocalFolderArtifactStore({ root: path.join(harness.root, 'tiny-store'), limits: { maxPayloadBytes: 64 } });
    try {
      const run = admitRequest(CapabilityRequestSchema.parse({ capability_id: COUNTERMODEL_CAPABILITY_ID, payload: { signature: SEMIGROUP, laws: [ASSOCIATIVITY], target: COMMUTATIVITY, order: 2 } }));
      const result = await executeCapability(capability, run, { artifacts: tiny, executor: harness.executor }, new AbortController().signal);
      expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
      expect(result.output).toMatchObject({ status: 'WITNESS_FOUND', result_uri: null });
      expect(result.artifact_uris).toEqual([]);
      expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED' })]);
    } finally {
      await tiny.close();
    }
  });

  it('finds no non-abelian group of order 4, and stores the CNF and a DRAT proof that an independent RUP checker accepts', async () => {
    const result = await search({ signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, order: 4 });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    const output = result.output as CountermodelOutput;
    expect(output).toMatchObject({ status: 'NO_WITNESS_FOUND', model: null, violating_assignment: null, result_uri: null, solver: { result: 'UNSATISFIABLE' } });
    expect(output.symmetry_breaking.cells).toEqual(['e', 'i(0)', 'i(1)', 'i(2)', 'i(3)']);
    expect(result.completeness.status).toBe('COMPLETE');
    expect(result.obligations.map((o) => [o.id, o.status])).toEqual([
      ['encoding-soundness', 'OPEN'],
      ['drat-proof-check', 'OPEN'],
    ]);
    expect(result.obligations[0]?.statement).toMatch(/symmetry breaking \(LEAST_NUMBER\)/);

    const evidence = output.evidence as NonNullable<CountermodelOutput['evidence']>;
    expect(evidence.ends_with_empty_clause).toBe(true);
    expect(result.artifact_uris).toEqual([evidence.cnf_uri, evidence.drat_uri]);
    expect(result.relationships).toEqual([{ subject: evidence.drat_uri, predicate: 'COMPUTED_FROM', object: evidence.cnf_uri }]);
    const cnf = await harness.artifacts.get(evidence.cnf_uri as string);
    const drat = await harness.artifacts.get(evidence.drat_uri as string);
    expect(cnf.manifest.schema_uri).toBe(SAT_DIMACS_SCHEMA_URI);
    expect(drat.manifest.schema_uri).toBe(SAT_DRAT_SCHEMA_URI);
    expect(drat.manifest.parents).toEqual([cnf.uri]);
    const dimacs = (cnf.payload as { dimacs: string }).dimacs;
    const proof = (drat.payload as { proof: string }).proof;
    expect(dimacs.startsWith(`p cnf ${output.encoding?.variables} ${output.encoding?.clauses}\n`)).toBe(true);
    expect(proof.length).toBe(evidence.drat_bytes);
    // drat-trim is not installed here; the proof is replayed by our own RUP checker, which shares no code with cadical or the encoder.
    expect(checkRupRefutation(dimacs, proof)).toMatchObject({ ok: true });
  });

  it('still concludes when the evidence is too large for the store, and says it was not retained', async () => {
    const small = createLocalFolderArtifactStore({ root: path.join(harness.root, 'small-store'), limits: { maxPayloadBytes: 10_000 } });
    try {
      const run = admitRequest(
        CapabilityRequestSchema.parse({ capability_id: COUNTERMODEL_CAPABILITY_ID, payload: { signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, order: 4 } }),
      );
      const result = await executeCapability(capability, run, { artifacts: small, executor: harness.executor }, new AbortController().signal);
      expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
      expect(result.output).toMatchObject({ status: 'NO_WITNESS_FOUND', evidence: { cnf_uri: null, drat_uri: null, ends_with_empty_clause: true } });
      expect(result.artifact_uris).toEqual([]);
      expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED' })]);
    } finally {
      await small.close();
    }
  });

  it('agrees without symmetry breaking, and at order 1', async () => {
    const unbroken = await search({ signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, order: 4, symmetry_breaking: 'NONE' });
    expect(unbroken.output).toMatchObject({ status: 'NO_WITNESS_FOUND', symmetry_breaking: { method: 'NONE', cells: [] } });
    expect(unbroken.obligations[0]?.statement).not.toMatch(/symmetry/);
    const trivial = await search({ signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, order: 1 });
    expect(trivial.output).toMatchObject({ status: 'NO_WITNESS_FOUND' });
  });

  it('finds a non-abelian group of order 6 (S3), rechecked by the evaluator and by evaluate_laws', async () => {
    const result = await search({ signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, order: 6 });
    const output = result.output as CountermodelOutput;
    recheck(GROUP, GROUP_LAWS, COMMUTATIVITY, output);
    expect(output.model?.order).toBe(6);
    const evaluation = await harness.run(harness.install(evaluateLawsCapability), {
      capability_id: evaluateLawsCapability.id,
      payload: { signature: GROUP, laws: [...GROUP_LAWS, COMMUTATIVITY, 'x * e = x', 'x * i(x) = e'], algebra: output.model },
    });
    expect((evaluation.output as EvaluateLawsOutput).laws.map((law) => law.holds)).toEqual([true, true, true, false, true, true]);
  });

  it('finds a non-commutative idempotent semigroup of order 3', async () => {
    const laws = ['x * x = x', ASSOCIATIVITY];
    const result = await search({ signature: SEMIGROUP, laws, target: COMMUTATIVITY, order: 3 });
    recheck(SEMIGROUP, laws, COMMUTATIVITY, result.output as CountermodelOutput);
  });

  it('answers INDETERMINATE when the budget ends while cadical works, and leaves no cadical behind', async () => {
    // Groups of order 9 are abelian, but without symmetry breaking cadical needs far more than this budget to refute it.
    const result = await search({ signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, order: 9, symmetry_breaking: 'NONE' }, 6000);
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({ execution: { status: 'COMPLETED' }, completeness: { status: 'UNKNOWN' }, assurance: { level: 'HEURISTIC' }, artifact_uris: [] });
    expect(result.output).toMatchObject({ status: 'INDETERMINATE', model: null, result_uri: null, evidence: null, solver: { result: 'UNKNOWN', stopped_by: 'DEADLINE' } });
    expect(result.diagnostics[0]).toMatchObject({ severity: 'WARNING', code: 'BUDGET_EXHAUSTED' });
    expect(cadicalChildren()).toEqual([]);
  });

  it('ends cleanly under a tiny wall time', async () => {
    const result = await search({ signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, order: 8 }, 100);
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    if (result.execution.status === 'COMPLETED') expect(result.output).toMatchObject({ status: 'INDETERMINATE' });
    else expect(result.execution.status).toBe('TIMEOUT');
    expect(cadicalChildren()).toEqual([]);
  });

  it('kills cadical when the run is cancelled', async () => {
    const controller = new AbortController();
    const pending = harness.run(
      capability,
      { capability_id: COUNTERMODEL_CAPABILITY_ID, payload: { signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, order: 9, symmetry_breaking: 'NONE' } },
      controller.signal,
    );
    // Wait until cadical is running, then cancel.
    const started = Date.now();
    while (cadicalChildren().length === 0 && Date.now() - started < 20_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cadicalChildren().length).toBe(1);
    controller.abort();
    const result = await pending;
    expect(result.execution.status).toBe('CANCELLED');
    expect(cadicalChildren()).toEqual([]);
  });

  it.each([
    ['a target that does not parse', { target: 'x * y = y * ' }, ['payload', 'target'], /column 13/],
    ['an undeclared operation', { laws: [ASSOCIATIVITY, 'x * y + z = x'] }, ['payload', 'laws', 1], /"\+" is not a declared operation/],
    ['an order beyond the limit', { order: 11 }, ['payload', 'order'], /./],
    ['an encoding beyond the clause limit', { order: 10, laws: [...GROUP_LAWS, '((x * y) * x) * z = x * (y * (x * z))'] }, ['payload', 'order'], /more than the limit of 2000000/],
  ])('rejects %s before solving', async (_label, change, path, message) => {
    const result = await search({ signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, order: 4, ...change });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path });
    expect(result.diagnostics[0]?.message).toMatch(message);
  });

  it('refuses a runtime that is not cadical, and a binary that is not the probed one', async () => {
    expect(() => countermodelSearch(FAKE_RUNTIME)).toThrow(expect.objectContaining({ code: 'REGISTRATION_INVALID' }) as Error);
    const stale = harness.install(countermodelSearch({ ...runtime, digest: 'b'.repeat(64) }), runtime);
    const result = await harness.run(stale, { capability_id: COUNTERMODEL_CAPABILITY_ID, payload: { signature: SEMIGROUP, laws: [], target: COMMUTATIVITY, order: 2 } });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'PROVIDER_FAILED' });
  });
});

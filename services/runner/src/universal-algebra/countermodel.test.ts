import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStat } from '@jacobian/shared/testing';
import { sharedLauncher } from '../native/launcher.js';
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
  SAT_CNF_SCHEMA_URI,
  SAT_DRAT_SCHEMA_URI,
  validateAlgebra,
  type CapabilityResult,
  type InstalledCapability,
  type ProviderRuntime,
} from '@jacobian/shared';
import { probeCadical } from '../providers/cadical.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { COUNTERMODEL_CAPABILITY_ID, countermodelSearch, derivesEmptyClause, type CountermodelOutput } from './countermodel.js';
import { countermodelCadicalProvider, countermodelZ3Provider, FINITE_MODEL_SEARCH_FEATURE, type CountermodelProviderProbe } from './countermodel-providers.js';
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
/** The group signature with five variables, and a five-variable law whose CNF at order 10 is beyond the clause limit. */
const GROUP5 = { ...GROUP, variables: ['x', 'y', 'z', 'w', 'u'] };
const FIVE_VARIABLES = '((x * y) * (z * w)) * u = x * ((y * z) * (w * u))';
const MAGMA4 = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z', 'w'] };
const MEDIAL = '(x * y) * (z * w) = (x * z) * (y * w)';
const LEFT_DISTRIBUTIVITY = 'x * (y * z) = (x * y) * (x * z)';
/** The central groupoid law: its models have square orders, so the first non-commutative one has order 4. */
const CENTRAL = '(y * x) * (x * z) = x';

/** cadical processes started for this process: by its native-tool launcher (or by itself). */
function cadicalChildren(): number[] {
  // The runner, its shells (see native/shells.ts), its launcher process, or the launcher's shells (see native/launcher-process.mjs).
  const launcher = sharedLauncher().pid;
  const parents = new Set([process.pid, launcher, ...sharedLauncher().shellPids]);
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may contain spaces, so split after the closing parenthesis.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'cadical' && (parents.has(ppid) || (launcher !== undefined && readStat(ppid)?.ppid === launcher))) found.push(Number(entry));
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

describe('universal_algebra.search.countermodel with a plain cadical runtime (CaDiCaL for every order)', () => {
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
    expect(output.orders).toEqual([expect.objectContaining({ order: 2, outcome: 'WITNESS_FOUND', engine: 'CADICAL', search: null, evidence_kept: true })]);
    expect(output.symmetry_breaking).toMatchObject({ method: 'LEAST_NUMBER', cells: ['witness x', 'witness y', '0 * 0', '1 * 1'] });
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
      provenance: { capability_id: COUNTERMODEL_CAPABILITY_ID, capability_version: '1.1.0', provider: 'cadical', provider_version: runtime.version, provider_digest: runtime.digest, engine: 'CADICAL' },
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
    expect(output.symmetry_breaking.cells).toEqual(['witness x', 'witness y', 'e', 'i(0)', 'i(1)', 'i(2)', 'i(3)']);
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
    expect(cnf.manifest.schema_uri).toBe(SAT_CNF_SCHEMA_URI);
    expect(drat.manifest.schema_uri).toBe(SAT_DRAT_SCHEMA_URI);
    expect(drat.manifest.parents).toEqual([cnf.uri]);
    const dimacs = (cnf.payload as { dimacs: string }).dimacs;
    const proof = (drat.payload as { proof: string }).proof;
    expect(dimacs.startsWith(`p cnf ${output.encoding?.variables} ${output.encoding?.clauses}\n`)).toBe(true);
    expect(proof.length).toBe(evidence.drat_bytes);
    // drat-trim is not installed here; the proof is replayed by our own RUP checker, which shares no code with cadical or the encoder.
    expect(checkRupRefutation(dimacs, proof)).toMatchObject({ ok: true });
  });

  it('refutes medial ∧ idempotent ⇒ left-distributive at order 6 through auxiliary functions, with a DRAT proof the RUP checker accepts', async () => {
    const result = await search({ signature: MAGMA4, laws: [MEDIAL, 'x * x = x'], target: LEFT_DISTRIBUTIVITY, order: 6 });
    const output = result.output as CountermodelOutput;
    expect(output).toMatchObject({ status: 'NO_WITNESS_FOUND', solver: { result: 'UNSATISFIABLE' } });
    expect(output.symmetry_breaking.cells.slice(0, 3)).toEqual(['witness x', 'witness y', 'witness z']);
    const evidence = output.evidence as NonNullable<CountermodelOutput['evidence']>;
    const cnf = await harness.artifacts.get(evidence.cnf_uri as string);
    const drat = await harness.artifacts.get(evidence.drat_uri as string);
    const payload = cnf.payload as { dimacs: string; encoding: { auxiliary_variables: { pattern: string; arity: number; cells: number }[]; sections: { auxiliary: number } } };
    // The medial law's sides as functions of their variables, through the pattern #0 * (#1 * #2): no clause spans more than 6 elements.
    expect(payload.encoding.auxiliary_variables.map((block) => [block.pattern, block.arity, block.cells])).toEqual([
      ['*(*(#0,#1),*(#2,#3))', 4, 6 ** 4],
      ['*(#0,*(#1,#2))', 3, 6 ** 3],
    ]);
    expect(payload.encoding.sections.auxiliary).toBeGreaterThan(0);
    expect(output.encoding?.clauses).toBeLessThan(6 ** 7);
    expect(checkRupRefutation(payload.dimacs, (drat.payload as { proof: string }).proof)).toMatchObject({ ok: true });
  });

  it('refutes medial ∧ idempotent ⇒ left-distributive at every order from 1 to 8', async () => {
    const result = await search({ signature: MAGMA4, laws: [MEDIAL, 'x * x = x'], target: LEFT_DISTRIBUTIVITY, orders: { min: 1, max: 8 } }, 120_000);
    const output = result.output as CountermodelOutput;
    expect(output.status).toBe('NO_WITNESS_FOUND');
    expect(output.orders.map((record) => [record.order, record.outcome, record.engine])).toEqual(Array.from({ length: 8 }, (_, i) => [i + 1, 'NO_WITNESS_FOUND', 'CADICAL']));
    expect(result.completeness.status).toBe('COMPLETE');
  }, 150_000);

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
    ['an encoding beyond the clause limit', { signature: GROUP5, order: 10, laws: [...GROUP_LAWS, FIVE_VARIABLES] }, ['payload', 'order'], /more than the limit of 2000000/],
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

/** The records of the orders below the answer, as [order, outcome, engine, evidence kept]. */
/** A payload without the keys a test case set to undefined (canonical JSON has no undefined). */
const withoutUndefined = (payload: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined));

const summary = (output: CountermodelOutput): [number, string, string | null, boolean][] => output.orders.map((r) => [r.order, r.outcome, r.engine, r.evidence_kept]);

describe('universal_algebra.search.countermodel with our search and CaDiCaL (countermodelCadicalProvider)', () => {
  let harness: CapabilityHarness;
  let probe: CountermodelProviderProbe;
  let runtime: ProviderRuntime;
  let capability: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    probe = countermodelCadicalProvider();
    runtime = await probe.probe();
    capability = harness.install(countermodelSearch(runtime, { providers: [probe] }), runtime);
  });
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  const search = (payload: Record<string, unknown>, wallTimeMs?: number, signal?: AbortSignal): Promise<CapabilityResult> =>
    harness.run(capability, { capability_id: COUNTERMODEL_CAPABILITY_ID, payload: withoutUndefined(payload), ...(wallTimeMs === undefined ? {} : { budget: { wall_time_ms: wallTimeMs } }) }, signal);

  it('has a COMPOSITE runtime over the cadical executable and the search sources, named cadical', async () => {
    const plain = await probeCadical();
    expect(runtime).toMatchObject({ provider: 'cadical', digest_kind: 'COMPOSITE', version: plain.version });
    expect(runtime.features).toContain(FINITE_MODEL_SEARCH_FEATURE);
    expect(runtime.digest).not.toBe(plain.digest);
    expect(probe.parts).toMatchObject({ solver: 'cadical', digest: runtime.digest, solverRuntime: { digest: plain.digest } });
    // A COMPOSITE runtime whose probe is not given cannot be served: the capability would not know the executable's digest.
    expect(() => countermodelSearch(runtime)).toThrow(expect.objectContaining({ code: 'REGISTRATION_INVALID' }) as Error);
  });

  it('searches a range in one run: a non-commutative central groupoid at order 4, orders 1 to 3 reported as searched by our search, no evidence kept for them', async () => {
    const laws = [CENTRAL];
    const result = await search({ signature: SEMIGROUP, laws, target: COMMUTATIVITY, orders: { min: 1, max: 8 } });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    const output = result.output as CountermodelOutput;
    recheck(SEMIGROUP, laws, COMMUTATIVITY, output);
    expect(output).toMatchObject({ status: 'WITNESS_FOUND', order: 4, scope: { kind: 'ORDER_RANGE', min: 1, max: 8 }, model: { order: 4 }, encoding: null, solver: null, evidence_policy: 'FINAL_ANSWER' });
    expect(summary(output)).toEqual([
      [1, 'NO_WITNESS_FOUND', 'TS_SEARCH', false],
      [2, 'NO_WITNESS_FOUND', 'TS_SEARCH', false],
      [3, 'NO_WITNESS_FOUND', 'TS_SEARCH', false],
      [4, 'WITNESS_FOUND', 'TS_SEARCH', true],
    ]);
    expect(output.orders[0]?.established_by).toMatch(/our finite model search exhausted order 1 under the least-number heuristic/);
    expect(output.orders.map((r) => r.search?.result)).toEqual(['NONE', 'NONE', 'NONE', 'FOUND']);
    expect(output.scope.statement).toMatch(/orders 1 … 8/);
    expect(result.completeness).toMatchObject({ status: 'COMPLETE' });
    expect(result.completeness.basis).toMatch(/orders 1, 2 and 3 were searched without one/);
    expect(result.obligations.map((o) => o.id)).toEqual(['search-soundness']);
    expect(result.obligations[0]?.statement).toMatch(/order 1, 2 and 3/);
    expect(result.artifact_uris).toEqual([output.result_uri]);
    const stored = CountermodelResultPayloadSchema.parse((await harness.artifacts.get(output.result_uri as string)).payload);
    expect(stored).toMatchObject({ order: 4, provenance: { provider: 'cadical', provider_digest: runtime.digest, engine: 'TS_SEARCH', capability_version: '1.1.0' } });
  });

  it('finds S3 at order 6 in a range 1 to 8, each lower order settled by our search or CaDiCaL', async () => {
    const result = await search({ signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, orders: { min: 1, max: 8 } });
    const output = result.output as CountermodelOutput;
    recheck(GROUP, GROUP_LAWS, COMMUTATIVITY, output);
    expect(output.order).toBe(6);
    expect(output.orders.map((r) => [r.order, r.outcome])).toEqual([1, 2, 3, 4, 5, 6].map((order) => [order, order === 6 ? 'WITNESS_FOUND' : 'NO_WITNESS_FOUND']));
    // An order our search gave up on is settled by CaDiCaL; our search is tried first at every order.
    for (const record of output.orders) {
      expect(record.search).not.toBeNull();
      expect(record.engine).toBe(record.search?.result === 'GAVE_UP' ? 'CADICAL' : 'TS_SEARCH');
    }
  });

  it('answers at the first order of the range when it has a countermodel', async () => {
    const result = await search({ signature: SEMIGROUP, laws: [ASSOCIATIVITY], target: COMMUTATIVITY, orders: { min: 2, max: 5 } });
    const output = result.output as CountermodelOutput;
    expect(summary(output)).toEqual([[2, 'WITNESS_FOUND', 'TS_SEARCH', true]]);
    expect(result.obligations).toEqual([]);
    recheck(SEMIGROUP, [ASSOCIATIVITY], COMMUTATIVITY, output);
  });

  it('answers the fixed-order form as before (ONE_FIXED_ORDER), now found by our search', async () => {
    const result = await search({ signature: SEMIGROUP, laws: [ASSOCIATIVITY], target: COMMUTATIVITY, order: 2 });
    const output = result.output as CountermodelOutput;
    expect(output).toMatchObject({ status: 'WITNESS_FOUND', order: 2, scope: { kind: 'ONE_FIXED_ORDER', order: 2 }, symmetry_breaking: { cells: ['witness x', 'witness y', '0 * 0', '1 * 1'] } });
    expect(summary(output)).toEqual([[2, 'WITNESS_FOUND', 'TS_SEARCH', true]]);
  });

  it('finds none in a range: every order refuted by CaDiCaL, each CNF and DRAT proof stored and accepted by an independent RUP checker', async () => {
    const laws = [ASSOCIATIVITY, 'e * x = x', 'i(x) * x = e', 'x * x = e'];
    const result = await search({ signature: GROUP, laws, target: COMMUTATIVITY, orders: { min: 1, max: 4 } });
    expect(result.diagnostics).toEqual([]);
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    const output = result.output as CountermodelOutput;
    expect(output).toMatchObject({ status: 'NO_WITNESS_FOUND', order: 4, scope: { kind: 'ORDER_RANGE', min: 1, max: 4 }, model: null, result_uri: null });
    expect(summary(output)).toEqual([1, 2, 3, 4].map((order) => [order, 'NO_WITNESS_FOUND', 'CADICAL', true]));
    // Our search settled each order first; CaDiCaL's refutation is the evidence of the final answer.
    expect(output.orders.map((r) => r.search?.result)).toEqual(['NONE', 'NONE', 'NONE', 'NONE']);
    expect(output.orders.every((r) => r.solver?.result === 'UNSATISFIABLE' && r.evidence?.proof_format === 'DRAT_TEXT')).toBe(true);
    expect(output.evidence).toEqual(output.orders[3]?.evidence);
    expect(result.obligations.map((o) => o.id)).toEqual(['encoding-soundness', 'drat-proof-check']);
    expect(result.artifact_uris).toHaveLength(8);
    expect(result.relationships).toHaveLength(4);
    for (const record of output.orders) {
      const cnf = await harness.artifacts.get(record.evidence?.cnf_uri as string);
      const drat = await harness.artifacts.get(record.evidence?.drat_uri as string);
      expect(drat.manifest.parents).toEqual([cnf.uri]);
      expect((cnf.payload as { encoding: { order: number } }).encoding.order).toBe(record.order);
      expect(checkRupRefutation((cnf.payload as { dimacs: string }).dimacs, (drat.payload as { proof: string }).proof)).toMatchObject({ ok: true });
    }
  });

  it('keeps the CNF and DRAT proof of every order below a witness when asked (evidence EVERY_ORDER)', async () => {
    const laws = ['x * x = x'];
    const result = await search({ signature: SEMIGROUP, laws, target: ASSOCIATIVITY, orders: { min: 1, max: 4 }, evidence: 'EVERY_ORDER' });
    const output = result.output as CountermodelOutput;
    recheck(SEMIGROUP, laws, ASSOCIATIVITY, output);
    expect(summary(output)).toEqual([
      [1, 'NO_WITNESS_FOUND', 'CADICAL', true],
      [2, 'NO_WITNESS_FOUND', 'CADICAL', true],
      [3, 'WITNESS_FOUND', 'TS_SEARCH', true],
    ]);
    expect(result.artifact_uris).toEqual([output.result_uri, ...output.orders.slice(0, 2).flatMap((r) => [r.evidence?.cnf_uri, r.evidence?.drat_uri])]);
    expect(result.obligations.map((o) => o.id)).toEqual(['encoding-soundness', 'drat-proof-check']);
  });

  it('sends an order our search cannot settle in its slice to CaDiCaL', async () => {
    // With no time for our search at all, every order goes to CaDiCaL, whose proofs are moot below the witness.
    const solverOnly = harness.install(countermodelSearch(runtime, { providers: [probe], searchBudget: { totalMs: 0 } }), runtime);
    const result = await harness.run(solverOnly, { capability_id: COUNTERMODEL_CAPABILITY_ID, payload: { signature: SEMIGROUP, laws: ['x * x = x'], target: ASSOCIATIVITY, orders: { min: 1, max: 4 } } });
    const output = result.output as CountermodelOutput;
    expect(summary(output)).toEqual([
      [1, 'NO_WITNESS_FOUND', 'CADICAL', false],
      [2, 'NO_WITNESS_FOUND', 'CADICAL', false],
      [3, 'WITNESS_FOUND', 'CADICAL', true],
    ]);
    expect(output.orders[0]?.established_by).toMatch(/CaDiCaL found the CNF of order 1 unsatisfiable/);
    expect(result.obligations.map((o) => o.id)).toEqual(['encoding-soundness', 'solver-refutation-unproved']);
    expect(result.artifact_uris).toEqual([output.result_uri]);
  });

  it('accepts a range whose higher orders would be too large to encode, when an order below them has a countermodel', async () => {
    // Medial magmas: at order 8 the CNF would exceed the clause limit; order 2 already has a countermodel.
    const signature = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z', 'w'] };
    const laws = ['(x * y) * (z * w) = (x * z) * (y * w)'];
    const result = await search({ signature, laws, target: ASSOCIATIVITY, orders: { min: 1, max: 8 } });
    const output = result.output as CountermodelOutput;
    recheck(signature, laws, ASSOCIATIVITY, output);
    expect(output.order).toBe(2);
  });

  it('stops with INDETERMINATE at an order whose CNF is too large when our search does not settle it', async () => {
    // 11 variables: each side's value is a function of all 11, so at order 3 its auxiliary alone has 3^11 cells (about
    // 4 million clauses in all), at order 2 about 22 thousand clauses. The target a = a never fails.
    const signature = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['a', 'b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm'] };
    const laws = ['(((a * b) * (c * d)) * ((f * g) * (h * j))) * ((k * l) * m) = (((a * c) * (b * d)) * ((f * h) * (g * j))) * ((k * m) * l)'];
    const solverOnly = harness.install(countermodelSearch(runtime, { providers: [probe], searchBudget: { totalMs: 0 } }), runtime);
    const result = await harness.run(solverOnly, { capability_id: COUNTERMODEL_CAPABILITY_ID, payload: { signature, laws, target: 'a = a', orders: { min: 2, max: 3 } } });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    const output = result.output as CountermodelOutput;
    expect(output).toMatchObject({ status: 'INDETERMINATE', order: 3 });
    expect(output.reason).toMatch(/the CNF of order 3 would have up to \d+ clauses, more than the limit/);
    expect(result.diagnostics[0]).toMatchObject({ code: 'ENCODING_LIMIT_REACHED', path: ['payload', 'orders', 'max'] });
    expect(summary(output)).toEqual([
      [2, 'NO_WITNESS_FOUND', 'CADICAL', false],
      [3, 'INDETERMINATE', null, false],
    ]);
    expect(result.completeness).toMatchObject({ status: 'PARTIAL' });
  }, 60_000);

  it('answers INDETERMINATE when the budget ends mid-range, naming the orders settled, and leaves no cadical behind', async () => {
    // Medial and idempotent implies left-distributive: no countermodel at any order. Without symmetry breaking, order 5 takes
    // CaDiCaL longer than this budget (9 s on a fast host), and order 6 far longer.
    const laws = ['(x * y) * (z * w) = (x * z) * (y * w)', 'x * x = x'];
    const signature = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z', 'w'] };
    const result = await search({ signature, laws, target: 'x * (y * z) = (x * y) * (x * z)', orders: { min: 1, max: 6 }, symmetry_breaking: 'NONE' }, 5000);
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    const output = result.output as CountermodelOutput;
    expect(output.status).toBe('INDETERMINATE');
    const settled = output.orders.filter((r) => r.outcome === 'NO_WITNESS_FOUND').map((r) => r.order);
    expect(settled.length).toBeGreaterThanOrEqual(3);
    expect(settled).toEqual(Array.from({ length: settled.length }, (_, i) => i + 1));
    expect(output.orders.at(-1)).toMatchObject({ outcome: 'INDETERMINATE', order: settled.length + 1 });
    expect(output.order).toBe(settled.length + 1);
    expect(result.completeness.status).toBe('PARTIAL');
    expect(result.completeness.basis).toMatch(/were searched without a countermodel/);
    expect(result.diagnostics[0]).toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(result.diagnostics[0]?.message).toMatch(/had no countermodel/);
    expect(result.artifact_uris).toEqual([]);
    expect(cadicalChildren()).toEqual([]);
  });

  it('kills cadical when a range run is cancelled', async () => {
    const controller = new AbortController();
    const pending = search({ signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, orders: { min: 8, max: 9 }, symmetry_breaking: 'NONE' }, undefined, controller.signal);
    const started = Date.now();
    while (cadicalChildren().length === 0 && Date.now() - started < 20_000) await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const result = await pending;
    expect(result.execution.status).toBe('CANCELLED');
    expect(cadicalChildren()).toEqual([]);
  });

  it.each([
    ['both forms', { order: 3, orders: { min: 1, max: 3 } }, ['payload', 'orders'], /exactly one of order .* or orders/],
    ['neither form', { order: undefined }, ['payload', 'order'], /exactly one of order .* or orders/],
    ['min above max', { order: undefined, orders: { min: 5, max: 3 } }, ['payload', 'orders', 'max'], /at least orders\.min \(5\)/],
    ['max beyond the limit', { order: undefined, orders: { min: 1, max: 11 } }, ['payload', 'orders', 'max'], /./],
    ['min below 1', { order: undefined, orders: { min: 0, max: 3 } }, ['payload', 'orders', 'min'], /./],
    ['an unknown field of the range', { order: undefined, orders: { min: 1, max: 3, step: 1 } }, ['payload', 'orders', 'step'], /./],
    ['an unknown evidence policy', { evidence: 'SOME' }, ['payload', 'evidence'], /./],
    [
      'a range whose first order is beyond the clause limit',
      { signature: GROUP5, order: undefined, orders: { min: 10, max: 10 }, laws: [...GROUP_LAWS, FIVE_VARIABLES] },
      ['payload', 'orders', 'min'],
      /order 10 would have up to \d+ clauses/,
    ],
  ])('rejects %s, naming the field', async (_label, change, path, message) => {
    const result = await search({ signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, order: 4, ...change });
    expect(result.execution.status).toBe('ERROR');
    expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path });
    expect(result.diagnostics[0]?.message).toMatch(message);
  });
});

describe('universal_algebra.search.countermodel with our search and Z3 (countermodelZ3Provider, the embedded default)', () => {
  let harness: CapabilityHarness;
  let probe: CountermodelProviderProbe;
  let runtime: ProviderRuntime;
  let capability: InstalledCapability;
  let solverOnly: InstalledCapability;
  beforeAll(async () => {
    harness = await createCapabilityHarness();
    probe = countermodelZ3Provider({ executor: harness.executor });
    runtime = await probe.probe();
    capability = harness.install(countermodelSearch(runtime, { providers: [probe] }), runtime);
    solverOnly = harness.install(countermodelSearch(runtime, { providers: [probe], searchBudget: { totalMs: 0 } }), runtime);
  }, 120_000);
  afterAll(async () => {
    await harness[Symbol.asyncDispose]();
  });

  const run = (installed: InstalledCapability, payload: Record<string, unknown>): Promise<CapabilityResult> =>
    harness.run(installed, { capability_id: COUNTERMODEL_CAPABILITY_ID, payload });

  it('has a COMPOSITE runtime named z3-solver and no DRAT artifact type', () => {
    expect(runtime).toMatchObject({ provider: 'z3-solver', digest_kind: 'COMPOSITE', install_tier: 'T0' });
    expect(runtime.features).toContain(FINITE_MODEL_SEARCH_FEATURE);
    expect(capability.descriptor.produced_artifact_types).not.toContain(SAT_DRAT_SCHEMA_URI);
    expect(capability.descriptor.tags).toContain('z3');
  });

  it('finds a witness with Z3 when our search does not run, rechecked and stored', async () => {
    const result = await run(solverOnly, { signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, orders: { min: 5, max: 6 } });
    const output = result.output as CountermodelOutput;
    recheck(GROUP, GROUP_LAWS, COMMUTATIVITY, output);
    expect(output).toMatchObject({ order: 6, solver: { name: 'z3-solver', result: 'SATISFIABLE', exit_code: null } });
    expect(summary(output)).toEqual([
      [5, 'NO_WITNESS_FOUND', 'Z3', false],
      [6, 'WITNESS_FOUND', 'Z3', true],
    ]);
    expect(result.obligations.map((o) => o.id)).toEqual(['encoding-soundness', 'z3-refutation-unproved']);
    const stored = CountermodelResultPayloadSchema.parse((await harness.artifacts.get(output.result_uri as string)).payload);
    expect(stored.provenance).toMatchObject({ provider: 'z3-solver', engine: 'Z3', provider_digest: runtime.digest });
  }, 60_000);

  it('finds none with Z3, keeps each CNF and says that no DRAT proof exists', async () => {
    const result = await run(capability, { signature: GROUP, laws: GROUP_LAWS, target: COMMUTATIVITY, orders: { min: 3, max: 4 } });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    const output = result.output as CountermodelOutput;
    expect(output.status).toBe('NO_WITNESS_FOUND');
    expect(summary(output)).toEqual([
      [3, 'NO_WITNESS_FOUND', 'Z3', true],
      [4, 'NO_WITNESS_FOUND', 'Z3', true],
    ]);
    for (const record of output.orders) {
      expect(record.evidence).toMatchObject({ drat_uri: null, drat_bytes: 0, proof_format: 'NONE' });
      expect(record.established_by).toMatch(/Z3 writes no proof/);
      const cnf = await harness.artifacts.get(record.evidence?.cnf_uri as string);
      expect(cnf.manifest.schema_uri).toBe(SAT_CNF_SCHEMA_URI);
    }
    expect(result.artifact_uris).toHaveLength(2);
    expect(result.relationships).toEqual([]);
    expect(result.assurance.basis).toMatch(/Z3 writes no proof/);
    expect(result.obligations.map((o) => o.id)).toEqual(['encoding-soundness', 'z3-refutation-unproved']);
  }, 60_000);

  it('finds a witness with our search first, in one run', async () => {
    const result = await run(capability, { signature: SEMIGROUP, laws: [CENTRAL], target: COMMUTATIVITY, orders: { min: 1, max: 8 } });
    const output = result.output as CountermodelOutput;
    recheck(SEMIGROUP, [CENTRAL], COMMUTATIVITY, output);
    expect(summary(output).map(([order, outcome, engine]) => [order, outcome, engine])).toEqual([
      [1, 'NO_WITNESS_FOUND', 'TS_SEARCH'],
      [2, 'NO_WITNESS_FOUND', 'TS_SEARCH'],
      [3, 'NO_WITNESS_FOUND', 'TS_SEARCH'],
      [4, 'WITNESS_FOUND', 'TS_SEARCH'],
    ]);
  });
});

describe('derivesEmptyClause', () => {
  it('accepts a proof that adds the empty clause before more lemmas (as CaDiCaL sc2021 writes some), and rejects one that never adds it', () => {
    expect(derivesEmptyClause('1 2 0\n-1 0\n0\n-15 0\nd -46 -49 0\n')).toBe(true);
    expect(derivesEmptyClause('1 2 0\n-1 0\nd 1 0\n')).toBe(false);
    expect(derivesEmptyClause('')).toBe(false);
  });
});

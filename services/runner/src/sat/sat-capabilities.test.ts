import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitRequest, CapabilityRequestSchema, CapabilityResultSchema, createLocalFolderArtifactStore, executeCapability, prepareArtifact, type CapabilityResult, type InstalledCapability, type IsolatedExecutor, type ProviderRuntime } from '@jacobian/shared';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeCadical } from '../providers/cadical.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { firstFalsifiedClause, solveCdcl } from './cdcl.js';
import { materializeCnf, type MaterializeCnfOutput } from './cnf-materialize.js';
import { cnfDraft } from './cnf-operand.js';
import { modelDraft } from './model-draft.js';
import { findModel, MAX_INLINE_MODEL_VARIABLES, type FindModelOutput } from './model-find.js';
import {
  clauseOf,
  DRAT_REFUTATION_SEMANTICS_URI,
  parseDimacs,
  pigeonhole,
  randomKSat,
  SAT_CNF_SCHEMA_URI,
  SAT_DRAT_SCHEMA_URI,
  SAT_MODEL_SCHEMA_URI,
  SatCnfPayloadSchema,
  SatDratPayloadSchema,
  SatModelPayloadSchema,
  serializeDimacs,
} from './sat-domain.js';
import { SAT_TS_PROVIDER } from './solve.js';
import { findUnsatProof, type FindUnsatProofOutput } from './unsat-proof-find.js';

const SAT_TEXT = 'p cnf 3 3\n1 -2 0\n2 3 0\n-1 -3 0\n';
const UNSAT_TEXT = 'p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n';
const TS_RUNTIME: ProviderRuntime = { ...FAKE_RUNTIME, provider: SAT_TS_PROVIDER };

/** Brute force over all assignments (n ≤ 16): whether any satisfies every clause. */
function bruteForceSatisfiable(dimacs: string): boolean {
  const cnf = parseDimacs(dimacs);
  for (let bits = 0; bits < 2 ** cnf.variables; bits++) {
    const model = new Int8Array(cnf.variables + 1);
    for (let v = 1; v <= cnf.variables; v++) model[v] = (bits >> (v - 1)) & 1 ? 1 : -1;
    if (firstFalsifiedClause(cnf, model) < 0) return true;
  }
  return false;
}

describe('our CDCL solver', () => {
  it('agrees with brute force on small random formulas around the threshold, and its models satisfy every clause', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const cnf = randomKSat(12, 3.5 + (seed % 3) * 0.5, seed);
      const result = solveCdcl(cnf);
      expect(result.status === 'SATISFIABLE').toBe(bruteForceSatisfiable(serializeDimacs(cnf)));
      if (result.model !== null) expect(firstFalsifiedClause(cnf, result.model)).toBe(-1);
    }
  });

  it('refutes pigeonhole formulas and logs a learned clause per conflict below the top level, then the empty clause', () => {
    const result = solveCdcl(pigeonhole(5), { proof: true });
    expect(result.status).toBe('UNSATISFIABLE');
    expect(result.proof?.at(-1)).toBe('0');
    // The last conflict is at the top level: it learns nothing and closes the proof.
    expect(result.proof?.length).toBe(result.conflicts);
  });

  it('answers UNKNOWN at its conflict limit and stops when the checkpoint throws', () => {
    expect(solveCdcl(pigeonhole(7), { maxConflicts: 10 }).status).toBe('UNKNOWN');
    expect(() =>
      solveCdcl(pigeonhole(8), {
        checkpoint: () => {
          throw new Error('deadline');
        },
      }),
    ).toThrow('deadline');
  });

  it('handles units, repeated literals, tautologies and the empty clause in the input', () => {
    expect(solveCdcl(parseDimacs('p cnf 2 3\n1 0\n-1 2 2 0\n1 -1 0\n')).model).toEqual(Int8Array.from([0, 1, 1]));
    expect(solveCdcl(parseDimacs('p cnf 1 2\n1 0\n-1 0\n')).status).toBe('UNSATISFIABLE');
    expect(solveCdcl(parseDimacs('p cnf 1 1\n0\n')).status).toBe('UNSATISFIABLE');
  });
});

describe('SAT producer capabilities', () => {
  let h: CapabilityHarness;
  let cadicalRuntime: ProviderRuntime;
  let materialize: InstalledCapability;
  let findTs: InstalledCapability;
  let findCadical: InstalledCapability;
  let proofFind: InstalledCapability;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    cadicalRuntime = await probeCadical();
    materialize = h.install(materializeCnf, TS_RUNTIME);
    findTs = h.install(findModel(TS_RUNTIME), TS_RUNTIME);
    findCadical = h.install(findModel(cadicalRuntime), cadicalRuntime);
    proofFind = h.install(findUnsatProof(cadicalRuntime), cadicalRuntime);
  });
  afterAll(async () => {
    await h[Symbol.asyncDispose]();
  });

  async function run(capability: InstalledCapability, payload: Record<string, unknown>): Promise<CapabilityResult> {
    const result = await h.run(capability, { capability_id: capability.descriptor.id, mode: 'EXPLORE', payload });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    return result;
  }

  describe('sat.cnf.materialize', () => {
    it('stores DIMACS text and the same formula as arrays under one URI, with its counts', async () => {
      const fromText = await run(materialize, { dimacs: `c a comment\n${SAT_TEXT}` });
      const output = fromText.output as MaterializeCnfOutput;
      expect(output).toMatchObject({ variables: 3, clauses: 3, literals: 6, unit_clauses: 0, has_empty_clause: false, max_clause_length: 2 });
      const fromArrays = await run(materialize, { variables: 3, clauses: [[1, -2], [2, 3], [-1, -3]] });
      expect((fromArrays.output as MaterializeCnfOutput).cnf_uri).toBe(output.cnf_uri);
      const stored = await h.artifacts.get(output.cnf_uri);
      expect(stored.manifest.schema_uri).toBe(SAT_CNF_SCHEMA_URI);
      expect(stored.payload).toMatchObject({ format: 'DIMACS_CNF', variables: 3, clauses: 3, dimacs: SAT_TEXT });
    });

    it.each([
      [{ dimacs: 'p cnf 2 1\n1 3 0\n' }, ['payload', 'dimacs'], 'line 2'],
      [{ dimacs: 'p cnf 2 2\n1 0\n' }, ['payload', 'dimacs'], 'CLAUSE_COUNT_MISMATCH'],
      [{ variables: 2, clauses: [[1, 0]] }, ['payload', 'clauses', 0, 1], 'clause 0'],
    ])('refuses %j naming the field and the rule', async (payload, path, message) => {
      const result = await run(materialize, payload);
      expect(result.execution.status).toBe('ERROR');
      expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path });
      expect(result.diagnostics[0]?.message).toContain(message);
      expect(result.artifact_uris).toEqual([]);
    });
  });

  describe.each([
    ['our TypeScript CDCL', () => findTs],
    ['CaDiCaL', () => findCadical],
  ])('sat.model.find on %s', (_name, capability) => {
    it('finds a model, rechecked, stored with the CNF as parent', async () => {
      const result = await run(capability(), { dimacs: SAT_TEXT });
      const output = result.output as FindModelOutput;
      expect(output.status).toBe('SATISFIABLE');
      expect(firstFalsifiedClause(parseDimacs(SAT_TEXT), Int8Array.from([0, ...(output.model ?? []).map(Math.sign)]))).toBe(-1);
      const model = await h.artifacts.get(output.model_uri as string);
      expect(model.manifest).toMatchObject({ schema_uri: SAT_MODEL_SCHEMA_URI, parents: [output.cnf_uri] });
      expect(SatModelPayloadSchema.parse(model.payload).assignment).toEqual(output.model);
      expect(result.assurance.level).toBe('COMPUTED');
    });

    it('keeps a model of more than MAX_INLINE_MODEL_VARIABLES variables as its artifact only, and says so', async () => {
      const variables = MAX_INLINE_MODEL_VARIABLES + 1;
      const result = await run(capability(), { dimacs: `p cnf ${variables} 2\n1 2 0\n-1 -2 0\n` });
      const output = result.output as FindModelOutput;
      expect(output).toMatchObject({ status: 'SATISFIABLE', variables, model: null });
      expect(result.artifact_uris).toContain(output.model_uri);
      expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'INFO', code: 'OUTPUT_NOT_INLINE', path: ['output', 'model'] })]);
      const stored = SatModelPayloadSchema.parse((await h.artifacts.get(output.model_uri as string)).payload).assignment;
      expect(stored).toHaveLength(variables);
      expect(Math.sign(stored[0] as number)).not.toBe(Math.sign(stored[1] as number));
    }, 60_000);

    it('keeps SATISFIABLE but neither inlines nor retains a model the store refuses as too large, and says so', async () => {
      const root = await mkdtemp(join(tmpdir(), 'jacobian-sat-small-store-'));
      const small = createLocalFolderArtifactStore({ root, limits: { maxPayloadBytes: 64 * 1024 } });
      try {
        const variables = MAX_INLINE_MODEL_VARIABLES + 1;
        const request = { capability_id: 'sat.model.find', mode: 'EXPLORE', payload: { dimacs: `p cnf ${variables} 2\n1 2 0\n-1 -2 0\n` } };
        const result = await executeCapability(capability(), admitRequest(CapabilityRequestSchema.parse(request)), { artifacts: small, executor: h.executor }, new AbortController().signal);
        expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
        expect(result.output).toMatchObject({ status: 'SATISFIABLE', model: null, model_uri: null });
        expect(result.diagnostics.map((d) => [d.severity, d.code])).toEqual([
          ['WARNING', 'EVIDENCE_NOT_RETAINED'],
          ['WARNING', 'OUTPUT_NOT_INLINE'],
        ]);
        expect(result.artifact_uris).toEqual([]);
      } finally {
        await small.close();
        await rm(root, { recursive: true, force: true });
      }
    }, 60_000);

    it('answers UNSATISFIABLE with the missing certificate as an open obligation', async () => {
      const result = await run(capability(), { dimacs: UNSAT_TEXT });
      expect(result.output).toMatchObject({ status: 'UNSATISFIABLE', model: null, model_uri: null });
      expect(result.obligations).toEqual([expect.objectContaining({ id: 'unsat-certificate', status: 'OPEN' })]);
    });

    it('reads a stored CNF and agrees with the other solver on random 3-SAT', async () => {
      const cnf = randomKSat(60, 4.26, 11);
      const stored = (await run(materialize, { dimacs: serializeDimacs(cnf) })).output as MaterializeCnfOutput;
      const mine = (await run(capability(), { cnf_uri: stored.cnf_uri })).output as FindModelOutput;
      const other = (await run(capability() === findTs ? findCadical : findTs, { cnf_uri: stored.cnf_uri })).output as FindModelOutput;
      expect(mine.status).toBe(other.status);
      expect(mine.cnf_uri).toBe(stored.cnf_uri);
    });
  });

  describe('sat.model.find on CaDiCaL: a large answer is read off this thread', () => {
    /** h.executor, recording the kernels it runs. */
    function recording(): { executor: IsolatedExecutor; kernels: string[] } {
      const kernels: string[] = [];
      return {
        kernels,
        executor: {
          run: (task, options) => {
            kernels.push(task.kernel.exportName);
            return h.executor.run(task, options);
          },
          stats: () => h.executor.stats(),
          close: () => Promise.resolve(),
        },
      };
    }

    async function runWith(executor: IsolatedExecutor, dimacs: string): Promise<CapabilityResult> {
      const request = CapabilityRequestSchema.parse({ capability_id: 'sat.model.find', mode: 'EXPLORE', payload: { dimacs } });
      const result = await executeCapability(findCadical, admitRequest(request), { artifacts: h.artifacts, executor }, new AbortController().signal);
      expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
      return result;
    }

    it('parses, rechecks and prepares the stored bytes of a model of 20,000 variables in the isolated kernel, and stores what reading it here would', async () => {
      const variables = 20_000;
      const dimacs = `p cnf ${variables} 3\n1 2 0\n-1 -2 0\n-${variables} 3 0\n`;
      const { executor, kernels } = recording();
      const result = await runWith(executor, dimacs);
      expect(kernels).toEqual(['readCadicalAnswerKernel']);
      const output = result.output as FindModelOutput;
      expect(output).toMatchObject({ status: 'SATISFIABLE', variables });
      expect(output.model).toHaveLength(variables);
      expect(firstFalsifiedClause(parseDimacs(dimacs), Int8Array.from([0, ...(output.model ?? []).map(Math.sign)]))).toBe(-1);
      // The same artifacts, byte for byte, as the drafts made on this thread would be.
      const cnfUri = prepareArtifact(cnfDraft(parseDimacs(dimacs)), h.artifacts.limits).uri;
      expect(output.cnf_uri).toBe(cnfUri);
      expect(output.model_uri).toBe(prepareArtifact(modelDraft(variables, output.model ?? [], cnfUri), h.artifacts.limits).uri);
      expect(SatModelPayloadSchema.parse((await h.artifacts.get(output.model_uri as string)).payload).assignment).toEqual(output.model);
      expect(result.artifact_uris).toEqual([output.model_uri, cnfUri]);
    }, 60_000);

    it('reads a small answer here, without a kernel', async () => {
      const { executor, kernels } = recording();
      const result = await runWith(executor, SAT_TEXT);
      expect(result.output).toMatchObject({ status: 'SATISFIABLE' });
      expect(kernels).toEqual([]);
    });
  });

  describe('sat.unsat_proof.find', () => {
    it('stores the CNF and CaDiCaL’s DRAT proof (parent: the CNF), with the proof check as an open obligation', async () => {
      const cnf = pigeonhole(5);
      const result = await run(proofFind, { dimacs: serializeDimacs(cnf) });
      const output = result.output as FindUnsatProofOutput;
      expect(output).toMatchObject({ status: 'UNSATISFIABLE', proof: { format: 'DRAT_TEXT', ends_with_empty_clause: true } });
      const proof = await h.artifacts.get(output.proof_uri as string);
      expect(proof.manifest).toMatchObject({ schema_uri: SAT_DRAT_SCHEMA_URI, semantics_uri: DRAT_REFUTATION_SEMANTICS_URI, parents: [output.cnf_uri] });
      const payload = SatDratPayloadSchema.parse(proof.payload);
      expect(payload.proof.trimEnd().endsWith('0')).toBe(true);
      const storedCnf = parseDimacs(SatCnfPayloadSchema.parse((await h.artifacts.get(output.cnf_uri as string)).payload).dimacs);
      expect(clauseOf(storedCnf, 0)).toEqual(clauseOf(cnf, 0));
      expect(result.obligations).toEqual([expect.objectContaining({ id: 'drat-proof-check', status: 'OPEN' })]);
      expect(result.relationships).toEqual([{ subject: output.proof_uri, predicate: 'COMPUTED_FROM', object: output.cnf_uri }]);
    });

    it('answers a satisfiable formula with a model', async () => {
      const result = await run(proofFind, { dimacs: SAT_TEXT });
      expect(result.output).toMatchObject({ status: 'SATISFIABLE', proof_uri: null });
      expect((result.output as FindUnsatProofOutput).model_uri).not.toBeNull();
    });

    it('reports UNKNOWN, not a conclusion, when the budget ends first', async () => {
      const result = await h.run(proofFind, { capability_id: 'sat.unsat_proof.find', mode: 'EXPLORE', payload: { dimacs: serializeDimacs(pigeonhole(10)) }, budget: { wall_time_ms: 1500 } });
      expect(result.output).toMatchObject({ status: 'UNKNOWN', proof_uri: null, solver: { stopped_by: 'DEADLINE' } });
      expect(result.assurance.level).toBe('HEURISTIC');
    });
  });
});

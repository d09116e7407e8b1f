/**
 * Propositional claims end to end, through MCP on `jacobian serve`: a formula validated into a
 * typed structure, split into conjuncts and into implication obligations (nested grouping and
 * order kept, parts stored with the source as parent), and decided; the verdict behind a VALID or
 * UNSATISFIABLE answer is VERIFIED by claim.propositional.verify (the encoding checked against the
 * formula, the proof replayed), while the SAT pack's DRAT checker (sat.unsat_proof.verify) verifies
 * only that the CNF is unsatisfiable, and rejects the same proof against the satisfiable side's CNF.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { ARTIFACT_URI, errorDiagnostic, mathFind, mathRun, readArtifact } from '../support/tools.js';

const VALIDATE = 'claim.validate';
const SPLIT = 'claim.conjunction.split';
const OBLIGATIONS = 'claim.implication.obligations';
const DECIDE = 'claim.propositional.decide';
const VERIFY = 'sat.unsat_proof.verify';
const VERIFY_VERDICT = 'claim.propositional.verify';

let jacobian: JacobianFixture;
let connection: Connection;

beforeAll(async () => {
  jacobian = await startJacobian();
  connection = await jacobian.connect({ transport: 'http', era: 'modern' });
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await connection?.close();
  await jacobian?.close();
}, HOOK_TIMEOUT_MS);

interface Part {
  structure_uri: string;
  text: string;
}

interface DecideOutput {
  verdict: string;
  structure_uri: string;
  model: Record<string, boolean> | null;
  falsifying_assignment: Record<string, boolean> | null;
  refutation: { of: string; cnf_uri: string | null; proof_uri: string | null; verify_with: string | null } | null;
  solver: { drat_proofs: boolean };
}

async function run(capability_id: string, payload: Record<string, unknown>, mode = 'EXPLORE'): Promise<Awaited<ReturnType<typeof mathRun>>['result']> {
  const { result } = await mathRun(connection.client, { capability_id, mode, payload });
  return result;
}

describe('propositional claims through MCP', () => {
  it('lists the four claim capabilities', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    for (const id of [VALIDATE, SPLIT, OBLIGATIONS, DECIDE]) {
      const inspected = await mathFind(connection.client, { capability_id: id, view: 'CONTRACT' });
      expect(inspected.response.capability, id).not.toBeNull();
    }
  });

  it('validates a formula, splits it and takes its implication apart, keeping grouping and order', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const validated = await run(VALIDATE, { formula: '(p -> (q & r)) & (q | !p) & ((r))' });
    expect(validated.execution.status, JSON.stringify(validated.diagnostics)).toBe('COMPLETED');
    const structureUri = (validated.output as { structure_uri: string }).structure_uri;
    expect(structureUri).toMatch(ARTIFACT_URI);
    expect(validated.output).toMatchObject({ atoms: ['p', 'q', 'r'], top_level: 'and' });

    const split = await run(SPLIT, { structure_uri: structureUri });
    expect(split.execution.status, JSON.stringify(split.diagnostics)).toBe('COMPLETED');
    const conjuncts = (split.output as { conjuncts: Part[] }).conjuncts;
    expect(conjuncts.map((c) => c.text)).toEqual(['(p -> (q & r))', '(q | !p)', '((r))']);
    const first = await readArtifact(connection.client, conjuncts[0]?.structure_uri as string);
    expect(first.manifest).toMatchObject({ parents: [structureUri] });
    expect(split.assurance.level).toBe('COMPUTED');

    const obligations = await run(OBLIGATIONS, { structure_uri: conjuncts[0]?.structure_uri });
    expect(obligations.execution.status, JSON.stringify(obligations.diagnostics)).toBe('COMPLETED');
    const out = obligations.output as { antecedent: Part; consequent: Part; reconstruction: { outer_groups: number } };
    expect([out.antecedent.text, out.consequent.text, out.reconstruction.outer_groups]).toEqual(['p', '(q & r)', 1]);

    const refused = await run(OBLIGATIONS, { structure_uri: conjuncts[1]?.structure_uri });
    expect(errorDiagnostic(refused, 'INVALID_REQUEST').message).toContain('NOT_AN_IMPLICATION');
  });

  for (const [formula, verdict, of] of [
    ['((p -> q) -> p) -> p', 'VALID', 'NEGATION'],
    ['(a <-> !b) & (a <-> b) & (c | d)', 'UNSATISFIABLE', 'FORMULA'],
  ] as const) {
    it(`decides ${formula} ${verdict}, VERIFIED by ${VERIFY_VERDICT}; ${VERIFY} verifies only the CNF, and rejects the proof against the other side's CNF`, { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
      const decided = await run(DECIDE, { formula });
      expect(decided.execution.status, JSON.stringify(decided.diagnostics)).toBe('COMPLETED');
      const output = decided.output as DecideOutput;
      expect(output.verdict).toBe(verdict);
      expect(output.refutation?.of).toBe(of);
      expect(output.refutation?.cnf_uri).toMatch(ARTIFACT_URI);
      expect(decided.obligations.map((o) => o.id)).toContain('tseitin-encoding-soundness');
      if (!output.solver.drat_proofs) {
        // CaDiCaL is not installed here: the TypeScript solver serves and keeps no proof.
        expect(output.refutation?.proof_uri).toBeNull();
        return;
      }
      expect(output.refutation?.verify_with).toBe(VERIFY_VERDICT);
      const claimed = await run(VERIFY_VERDICT, { proof_uri: output.refutation?.proof_uri, verdict }, 'VERIFY');
      expect(claimed.execution.status, JSON.stringify(claimed.diagnostics)).toBe('COMPLETED');
      expect(claimed.output).toMatchObject({ verdict: 'ACCEPTED', formula_verdict: verdict, structure_uri: output.structure_uri });
      expect(claimed.assurance.level).toBe('VERIFIED');
      const verified = await run(VERIFY, { proof_uri: output.refutation?.proof_uri }, 'VERIFY');
      expect(verified.execution.status, JSON.stringify(verified.diagnostics)).toBe('COMPLETED');
      expect(verified.output).toMatchObject({ verdict: 'ACCEPTED' });
      expect(verified.assurance.level).toBe('VERIFIED');
      expect(verified.scope?.statement).toMatch(/^the CNF .* is unsatisfiable/);

      // The same proof against the CNF with its root unit flipped (the encoding of the other,
      // satisfiable side) must be rejected: no refutation of a satisfiable CNF exists.
      const cnf = (await readArtifact(connection.client, output.refutation?.cnf_uri as string)).payload as { dimacs: string };
      const proof = (await readArtifact(connection.client, output.refutation?.proof_uri as string)).payload as { proof: string };
      const lines = cnf.dimacs.trimEnd().split('\n');
      const root = (lines.pop() as string).split(' ')[0] as string;
      const flipped = [...lines, `${-Number(root)} 0`].join('\n') + '\n';
      const forged = await run(VERIFY, { drat: proof.proof, dimacs: flipped }, 'VERIFY');
      expect(forged.output).toMatchObject({ verdict: 'REJECTED' });
    });
  }

  it('decides a contingent formula with a model and a falsifying assignment', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const decided = await run(DECIDE, { formula: '(p | q) & (p -> r)' });
    expect(decided.output).toMatchObject({ verdict: 'SATISFIABLE', refutation: null });
    const output = decided.output as DecideOutput;
    expect(output.model).not.toBeNull();
    expect(output.falsifying_assignment).not.toBeNull();
  });

  it('refuses a malformed formula naming the field, the position and the rule', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const result = await run(VALIDATE, { formula: 'p & (q | r' });
    const error = errorDiagnostic(result, 'INVALID_REQUEST');
    expect(error.path).toEqual(['payload', 'formula']);
    expect(error.message).toContain('line 1, column 11');
    expect(error.message).toContain('UNCLOSED_PARENTHESIS');
  });
});

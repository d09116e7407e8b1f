/**
 * Every installed capability, through MCP: discovery lists it, and each invocation example it
 * advertises (inline in CONTRACT or by example_index) runs to a conclusion (COMPLETED; VERIFIED for a checker's example) over
 * the modern HTTP client. An agent copies these examples; one that fails is a broken promise.
 * Examples that name a stored artifact are run after the example that stores it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type Connection, type JacobianFixture } from '../support/jacobian.js';
import { mathFind, mathRun } from '../support/tools.js';

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

interface Example {
  title: string;
  mode: 'EXPLORE' | 'VERIFY';
  payload: Record<string, unknown>;
}

/** Every capability ID in the catalog, page by page. */
async function catalogIds(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await mathFind(connection.client, { limit: 20, ...(cursor === null ? {} : { cursor }) });
    ids.push(...page.response.matches.map((m) => m['capability_id'] as string));
    cursor = page.response.next_cursor;
  } while (cursor !== null);
  return ids;
}

describe('every capability runs its advertised examples through MCP', () => {
  it('the catalog holds the graph, universal-algebra, SAT, polynomial, matrix and claims packs with their checkers', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const ids = await catalogIds();
    for (const id of [
      'graph.chromatic_number.compute',
      'graph.spanning_tree_count.compute',
      'graph.canonical_form.compute',
      'graph.automorphism_group.compute',
      'graph.transform.format',
      'graph.colouring.verify',
      'graph.isomorphism.verify',
      'universal_algebra.evaluate_laws',
      'universal_algebra.search.countermodel',
      'sat.model.find',
      'sat.unsat_proof.verify',
      'polynomial.groebner_basis.compute',
      'polynomial.groebner_basis.verify',
      'matrix.construct.explicit',
      'matrix.linear_system.solve',
      'matrix.linear_system.verify',
      'matrix.inverse.verify',
      'matrix.determinant.verify',
      'matrix.rank.verify',
      'claim.validate',
      'claim.propositional.decide',
      'polynomial.gcd.compute',
      'polynomial.factor.verify',
      'polynomial.ideal_membership.verify',
      'claim.propositional.verify',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('each example concludes: COMPLETED, and VERIFIED for checkers', { timeout: 10 * E2E_TEST_TIMEOUT_MS }, async () => {
    const ids = await catalogIds();
    // Producers first: an example of a consumer may name the artifact a producer's example stores.
    const ordered = [...ids.filter((id) => id === 'graph.construct.explicit'), ...ids.filter((id) => id !== 'graph.construct.explicit')];
    let examplesRun = 0;
    for (const id of ordered) {
      const inspected = await mathFind(connection.client, { capability_id: id, view: 'CONTRACT' });
      const capability = inspected.response.capability as { examples: Example[]; examples_available: number } | null;
      expect(capability, `${id} could not be inspected`).not.toBeNull();
      // Every example, the ones CONTRACT had no room for too: each is reachable by example_index.
      const examples: Example[] = [];
      for (let index = 0; index < (capability?.examples_available ?? 0); index++) {
        const one = await mathFind(connection.client, { capability_id: id, example_index: index });
        examples.push((one.response.capability as { example: Example }).example);
      }
      expect(examples.slice(0, capability?.examples.length)).toEqual(capability?.examples);
      for (const example of examples) {
        const { result } = await mathRun(connection.client, { capability_id: id, mode: example.mode, payload: example.payload });
        const where = `${id}, example "${example.title}": ${JSON.stringify(result.diagnostics)}`;
        expect(result.execution.status, where).toBe('COMPLETED');
        if (example.mode === 'VERIFY') expect(result.assurance.level, where).toBe('VERIFIED');
        examplesRun++;
      }
    }
    expect(examplesRun).toBeGreaterThanOrEqual(ids.length);
  });
});

/**
 * The SAT checkers' inputs take a stored artifact alone, or inline evidence with exactly one
 * CNF: a request outside those combinations is refused with a message listing every accepted one.
 */
import { describe, expect, it } from 'vitest';
import { zodIssuesToDiagnostics } from '@jacobian/shared';
import { VerifyModelInput } from './model-verify.js';
import { VerifyUnsatProofInput } from './unsat-proof-verify.js';

const URI = `artifact://sha256/${'a'.repeat(64)}`;
const CNF_URI = `artifact://sha256/${'b'.repeat(64)}`;
const DIMACS = 'p cnf 1 2\n1 0\n-1 0\n';

function messages(schema: typeof VerifyUnsatProofInput | typeof VerifyModelInput, payload: Record<string, unknown>): Array<{ path: unknown; message: string }> {
  const parsed = schema.safeParse(payload);
  expect(parsed.success).toBe(false);
  return parsed.success ? [] : zodIssuesToDiagnostics(parsed.error, ['payload'], 'VALIDATION', { schema, input: payload }).map(({ path, message }) => ({ path, message }));
}

describe('sat.unsat_proof.verify input combinations', () => {
  const ACCEPTED = 'accepted: proof_uri alone (a stored proof names its CNF); drat + dimacs; drat + cnf_uri; lrat + dimacs; lrat + cnf_uri';

  it('answers proof_uri with cnf_uri by naming the accepted combinations', () => {
    expect(messages(VerifyUnsatProofInput, { proof_uri: URI, cnf_uri: CNF_URI })).toEqual([
      { path: ['payload', 'cnf_uri'], message: `payload.cnf_uri: given proof_uri + cnf_uri, which is not an accepted combination; ${ACCEPTED}` },
    ]);
  });

  it.each([
    [{}, ['payload'], 'none of proof_uri, drat, dimacs, cnf_uri, lrat given'],
    [{ drat: '0\n' }, ['payload'], 'given drat, which is not an accepted combination'],
    [{ drat: '0\n', lrat: '1 0 0\n', dimacs: DIMACS }, ['payload', 'lrat'], 'given drat + dimacs + lrat, which is not an accepted combination'],
    [{ lrat: '1 0 0\n', dimacs: DIMACS, cnf_uri: CNF_URI }, ['payload', 'cnf_uri'], 'given dimacs + cnf_uri + lrat, which is not an accepted combination'],
  ])('answers %j the same way', (payload, path, given) => {
    expect(messages(VerifyUnsatProofInput, payload)).toEqual([{ path, message: `${path.join('.')}: ${given}; ${ACCEPTED}` }]);
  });

  it('accepts every accepted combination', () => {
    for (const payload of [{ proof_uri: URI }, { drat: '0\n', dimacs: DIMACS }, { drat: '0\n', cnf_uri: CNF_URI }, { lrat: '1 0 0\n', dimacs: DIMACS }, { lrat: '1 0 0\n', cnf_uri: CNF_URI }]) {
      expect(VerifyUnsatProofInput.safeParse(payload).success).toBe(true);
    }
  });
});

describe('sat.model.verify input combinations', () => {
  it.each([
    [{ model_uri: URI, dimacs: DIMACS }, ['payload', 'dimacs'], 'given model_uri + dimacs, which is not an accepted combination'],
    [{ model: [1] }, ['payload'], 'given model, which is not an accepted combination'],
  ])('answers %j with the accepted combinations', (payload, path, given) => {
    expect(messages(VerifyModelInput, payload)).toEqual([
      { path, message: `${path.join('.')}: ${given}; accepted: model_uri alone (a stored model names its CNF); model + dimacs; model + cnf_uri` },
    ]);
  });
});

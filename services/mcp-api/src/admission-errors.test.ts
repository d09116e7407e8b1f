/**
 * math.run admission errors an agent can act on: the expected shape at the failing path, the
 * nearest installed capability IDs for an unknown one (never a hidden one), and the accepted
 * combinations when a cross-field rule fails; each a typed diagnostic.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { DiagnosticSchema, installCapability, OperatorPolicySchema, refineCombinations, RingSpecSchema, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';

import { createApi } from './api.js';
import { squareQueue } from './square.fixture.js';
import { idSimilarity, nearestCapabilityIds } from './suggest.js';

const RUNTIME: ProviderRuntime = {
  provider: 'fake-provider',
  availability: 'AVAILABLE',
  version: '1.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: '4'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

function capability(id: string, input: z.ZodType, example: Record<string, unknown>, modes: Array<'EXPLORE' | 'VERIFY'> = ['EXPLORE']): InstalledCapability {
  return installCapability(
    {
      id,
      version: '1.0.0',
      title: id,
      description: `test capability ${id}`,
      tags: ['test'],
      domain: id.split('.')[0] ?? 'test',
      modes,
      role: 'producer',
      pool: 'light',
      input_kinds: ['STRUCTURED_REQUEST'],
      accepted_artifact_types: [],
      produced_artifact_types: [],
      input,
      output: z.object({}).strict(),
      examples: [{ title: 'an example', mode: modes[0] ?? 'EXPLORE', payload: example }],
      relationships: [],
      assurance_ceiling: 'COMPUTED',
      scope_rule: 'exactly the input',
      limits: {},
      run: () => Promise.reject(new Error('not run in these tests')),
    },
    RUNTIME,
    null,
  );
}

const RING = { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' };
const GROEBNER = capability(
  'polynomial.groebner_basis.compute',
  z.object({ ring: RingSpecSchema, generators: z.array(z.string()).min(1) }).strict(),
  { ring: RING, generators: ['x - y'] },
);
/** Shaped like sat.unsat_proof.verify: a stored proof alone, or an inline proof with one CNF. */
const UNSAT_VERIFY = capability(
  'sat.unsat_proof.verify',
  z
    .object({ proof_uri: z.string().optional(), drat: z.string().optional(), lrat: z.string().optional(), dimacs: z.string().optional(), cnf_uri: z.string().optional() })
    .strict()
    .superRefine(
      refineCombinations([
        { fields: ['proof_uri'], note: 'a stored proof names its CNF' },
        { fields: ['drat', 'dimacs'] },
        { fields: ['drat', 'cnf_uri'] },
        { fields: ['lrat', 'dimacs'] },
        { fields: ['lrat', 'cnf_uri'] },
      ]),
    ),
  { drat: '0\n', dimacs: 'p cnf 1 2\n1 0\n-1 0\n' },
);
const CLIQUE = capability('graph.clique.maximum.compute', z.object({ graph6: z.string() }).strict(), { graph6: 'C~' });
const INDEPENDENT = capability('graph.independent_set.maximum.compute', z.object({ graph6: z.string() }).strict(), { graph6: 'C~' });
const COLOURING = capability('graph.chromatic_number.compute', z.object({ graph6: z.string() }).strict(), { graph6: 'C~' });
const SECRET = capability('graph.clique.maximum.secret', z.object({ graph6: z.string() }).strict(), { graph6: 'C~' });

const INSTALLED = [GROEBNER, UNSAT_VERIFY, CLIQUE, INDEPENDENT, COLOURING, SECRET];

function api(hidden: string[] = [SECRET.descriptor.id]): ReturnType<typeof createApi> {
  return createApi({
    installed: () => INSTALLED,
    policy: OperatorPolicySchema.parse({ hidden_ids: hidden }),
    queue: squareQueue(),
    artifacts: undefined as never,
    trustedCheckerKeys: new Map(),
  });
}

async function refusal(args: Record<string, unknown>): Promise<Array<z.infer<typeof DiagnosticSchema>>> {
  const result = await api().run(args);
  expect(result.execution.status).toBe('ERROR');
  for (const diagnostic of result.diagnostics) DiagnosticSchema.parse(diagnostic);
  return result.diagnostics;
}

describe('the expected shape at the failing path', () => {
  it('answers "ring": {"field": "Q"} with the field\'s accepted forms and the ring\'s whole shape', async () => {
    const diagnostics = await refusal({ capability_id: GROEBNER.descriptor.id, mode: 'EXPLORE', payload: { ring: { field: 'Q' }, generators: ['x'] } });
    const field = diagnostics.find((d) => d.path?.join('.') === 'payload.ring.field');
    expect(field).toMatchObject({ severity: 'ERROR', code: 'INVALID_REQUEST', stage: 'VALIDATION' });
    expect(field?.message).toBe('payload.ring.field: expected {kind: "Q"} | {kind: "GF", characteristic: string} (got the string "Q")');
    expect(field?.hint).toContain('payload.ring is {field: {kind: "Q"} | {kind: "GF", characteristic: string}, variables: [string, …], order: "lex" | "grlex" | "grevlex"}');
    expect(diagnostics.map((d) => d.path?.join('.'))).toEqual(['payload.ring.field', 'payload.ring.variables', 'payload.ring.order']);
  });

  it('names an unknown key with the nearest accepted one and the shape it belongs to', async () => {
    const diagnostics = await refusal({ capability_id: GROEBNER.descriptor.id, mode: 'EXPLORE', payload: { ring: RING, generator: ['x'] } });
    expect(diagnostics.map((d) => d.path)).toEqual([['payload', 'generators'], ['payload', 'generator']]);
    expect(diagnostics[0]?.message).toBe('payload.generators: required, expected [string, …]');
    const diagnostic = diagnostics[1];
    expect(diagnostic?.message).toMatch(/^payload: unknown field "generator" \(did you mean "generators"\?\); only the fields of the CONTRACT schema are accepted; expected \{ring: \{field: /);
  });

  it('shows the shape of the request itself when its envelope is wrong', async () => {
    const diagnostics = await refusal({ capability_id: GROEBNER.descriptor.id, mode: 'COMPUTE', payload: {} });
    const mode = diagnostics.find((d) => d.path?.[0] === 'mode');
    expect(mode?.message).toBe('mode: expected "EXPLORE" | "VERIFY" (got the string "COMPUTE")');
  });
});

describe('the accepted combinations of a cross-field rule', () => {
  const ACCEPTED = 'accepted: proof_uri alone (a stored proof names its CNF); drat + dimacs; drat + cnf_uri; lrat + dimacs; lrat + cnf_uri';
  it.each([
    ['both proof_uri and cnf_uri', { proof_uri: 'artifact://sha256/aa', cnf_uri: 'artifact://sha256/bb' }, ['payload', 'cnf_uri'], 'given proof_uri + cnf_uri, which is not an accepted combination'],
    ['neither', {}, ['payload'], 'none of proof_uri, drat, dimacs, cnf_uri, lrat given'],
    ['an inline proof without its CNF', { drat: '0\n' }, ['payload'], 'given drat, which is not an accepted combination'],
    ['two proofs', { drat: '0\n', lrat: '1 0 0\n', dimacs: 'p cnf 0 0\n' }, ['payload', 'lrat'], 'given drat + dimacs + lrat, which is not an accepted combination'],
  ])('answers %s with every accepted combination', async (_name, payload, path, given) => {
    const [diagnostic, ...rest] = await refusal({ capability_id: UNSAT_VERIFY.descriptor.id, mode: 'EXPLORE', payload });
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({ code: 'INVALID_REQUEST', stage: 'VALIDATION', path });
    expect(diagnostic?.message).toBe(`${path.join('.')}: ${given}; ${ACCEPTED}`);
  });
});

describe('the nearest installed capability IDs for an unknown one', () => {
  it.each([
    ['graph.clique.max', ['graph.clique.maximum.compute']],
    ['graph.clique.maximum', ['graph.clique.maximum.compute']],
    ['polynomial.groebner.compute', ['polynomial.groebner_basis.compute']],
    ['groebner_basis.compute', ['polynomial.groebner_basis.compute']],
    ['sat.unsat_proof.check', ['sat.unsat_proof.verify']],
    ['graph.independent_set.maximum', ['graph.independent_set.maximum.compute']],
    ['graph.chromatic-number.compute', ['graph.chromatic_number.compute']],
  ])('suggests for %s', async (wanted, nearest) => {
    const [diagnostic] = await refusal({ capability_id: wanted, mode: 'EXPLORE', payload: {} });
    expect(diagnostic).toMatchObject({ code: 'UNKNOWN_CAPABILITY', stage: 'ADMISSION', path: ['capability_id'] });
    expect(diagnostic?.message).toMatch(new RegExp(`^capability_id: ${wanted.replace(/\./g, '\\.')} is not an installed capability; nearest installed: "${nearest[0]?.replace(/\./g, '\\.') ?? ''}"`));
    expect(diagnostic?.hint).toContain(`did you mean "${nearest[0] ?? ''}"`);
  });

  it('never suggests a capability hidden by policy', async () => {
    for (const wanted of ['graph.clique.maximum.secrets', 'graph.clique.secret', 'graph.clique.maximum.secret2']) {
      const [diagnostic] = await refusal({ capability_id: wanted, mode: 'EXPLORE', payload: {} });
      expect(diagnostic?.message).not.toContain('secret"');
      expect(diagnostic?.hint ?? '').not.toContain('graph.clique.maximum.secret"');
    }
    // Visible, it is suggested.
    const open = await api([]).run({ capability_id: 'graph.clique.maximum.secrets', mode: 'EXPLORE', payload: {} });
    expect(open.diagnostics[0]?.message).toContain('"graph.clique.maximum.secret"');
  });

  it('suggests nothing for an ID near no installed one, and points to math.find', async () => {
    const [diagnostic] = await refusal({ capability_id: 'topology.homology.betti', mode: 'EXPLORE', payload: {} });
    expect(diagnostic?.message).toBe('capability_id: topology.homology.betti is not an installed capability');
    expect(diagnostic?.hint).toBe('use math.find to discover installed capability IDs');
  });

  it('ranks by shared words and spelling, at most three', () => {
    const ids = INSTALLED.map((c) => c.descriptor.id);
    expect(nearestCapabilityIds('graph.maximum.compute', ids)).toHaveLength(3);
    expect(nearestCapabilityIds('graph.maximum.compute', ids).slice(0, 2).sort()).toEqual(['graph.clique.maximum.compute', 'graph.independent_set.maximum.compute'].sort());
    expect(idSimilarity('a.b.c', 'a.b.c')).toBe(1);
    expect(idSimilarity('graph.clique.max', 'sat.model.find')).toBeLessThan(0.34);
  });
});

import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { DiagnosticSchema } from '../contracts/result.js';
import { RingSpecSchema } from '../domains/polynomial/canonical.js';
import { FieldSpecSchema } from '../domains/polynomial/field.js';
import { combinationProblem, refineCombinations } from './combinations.js';
import { editDistance, zodIssuesToDiagnostics } from './diagnostics.js';
import { renderShape, schemaAt, SHAPE_MAX_LENGTH } from './schema-shape.js';

const Payload = z
  .object({
    ring: RingSpecSchema,
    generators: z.array(z.string()).min(1).optional(),
    n: z.number().int().min(0).default(0),
    target: z.union([z.object({ vertex: z.number().int() }).strict(), z.object({ edge: z.tuple([z.number().int(), z.number().int()]) }).strict()]).optional(),
  })
  .strict();

function diagnose(schema: z.ZodType, input: unknown, prefix: Array<string | number> = ['payload']): ReturnType<typeof zodIssuesToDiagnostics> {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected a failure');
  const diagnostics = zodIssuesToDiagnostics(parsed.error, prefix, 'VALIDATION', { schema, input });
  for (const diagnostic of diagnostics) DiagnosticSchema.parse(diagnostic);
  return diagnostics;
}

const RING = { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' };

describe('renderShape', () => {
  it('renders objects with optional keys, literals, enums, arrays, tuples and unions compactly', () => {
    expect(renderShape(FieldSpecSchema)).toBe('{kind: "Q"} | {kind: "GF", characteristic: string}');
    expect(renderShape(RingSpecSchema)).toBe('{field: {kind: "Q"} | {kind: "GF", characteristic: string}, variables: [string, …], order: "lex" | "grlex" | "grevlex"}');
    expect(renderShape(z.object({ a: z.number().int().optional(), b: z.boolean().nullable(), c: z.tuple([z.string(), z.number()]), d: z.record(z.string(), z.number()) }))).toBe(
      '{a?: integer, b: boolean | null, c: [string, number], d: {<string>: number}}',
    );
    expect(renderShape(z.string().transform((s) => s.length))).toBe('string');
  });

  it('stays within its bound on a deep, wide schema', () => {
    const wide = z.object(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field_${i}`, z.object({ inner: z.object({ deeper: z.array(z.string()) }) })])));
    const text = renderShape(wide);
    expect(text.length).toBeLessThanOrEqual(SHAPE_MAX_LENGTH);
    expect(text.startsWith('{field_0: ')).toBe(true);
  });

  it('finds the part of a schema at a path, through wrappers, arrays and a discriminated union', () => {
    expect(renderShape(schemaAt(Payload, ['ring', 'field']) as z.ZodType)).toBe('{kind: "Q"} | {kind: "GF", characteristic: string}');
    expect(renderShape(schemaAt(Payload, ['generators', 3]) as z.ZodType)).toBe('string');
    expect(renderShape(schemaAt(Payload, ['ring', 'field', 'characteristic'], { ring: { field: { kind: 'GF' } } }) as z.ZodType)).toBe('string');
    expect(schemaAt(Payload, ['nowhere', 'at-all'])).toBeUndefined();
  });
});

describe('zodIssuesToDiagnostics with the schema', () => {
  it('shows the expected shape for "ring": {"field": "Q"}', () => {
    const [field, variables, order] = diagnose(Payload, { ring: { field: 'Q' } });
    expect(field).toMatchObject({ code: 'INVALID_REQUEST', stage: 'VALIDATION', path: ['payload', 'ring', 'field'] });
    expect(field?.message).toBe('payload.ring.field: expected {kind: "Q"} | {kind: "GF", characteristic: string} (got the string "Q")');
    // The hint shows the whole object holding the field, so the agent can rewrite it at once.
    expect(field?.hint).toContain('payload.ring is {field: {kind: "Q"} | {kind: "GF", characteristic: string}, variables: [string, …], order: "lex" | "grlex" | "grevlex"}');
    expect(variables?.message).toBe('payload.ring.variables: required, expected [string, …]');
    expect(order?.message).toBe('payload.ring.order: expected "lex" | "grlex" | "grevlex" (got nothing)');
  });

  it('names an unknown key, the nearest accepted one, and the object\'s shape', () => {
    const [unknown] = diagnose(Payload, { ring: { ...RING, feild: { kind: 'Q' } } });
    expect(unknown?.path).toEqual(['payload', 'ring', 'feild']);
    expect(unknown?.message).toBe(
      'payload.ring: unknown field "feild" (did you mean "field"?); only the fields of the CONTRACT schema are accepted; expected {field: {kind: "Q"} | {kind: "GF", characteristic: string}, variables: [string, …], order: "lex" | "grlex" | "grevlex"}',
    );
  });

  it('lists the discriminator values and the accepted forms for an unknown kind', () => {
    const [kind] = diagnose(Payload, { ring: { ...RING, field: { kind: 'R' } } });
    expect(kind?.path).toEqual(['payload', 'ring', 'field', 'kind']);
    expect(kind?.message).toBe('payload.ring.field.kind: expected "Q" | "GF" (got the string "R"); the accepted forms are {kind: "Q"} | {kind: "GF", characteristic: string}');
  });

  it('lists a union\'s alternatives, their distinguishing keys and the closest one\'s complaint', () => {
    const [target] = diagnose(Payload, { ring: RING, target: { vertex: 'a' } });
    expect(target?.path).toEqual(['payload', 'target']);
    expect(target?.message).toBe(
      'payload.target: matches none of the accepted forms {vertex: integer} | {edge: [integer, integer]}; give the fields of exactly one form (vertex | edge); closest form: payload.target.vertex: expected number, received string',
    );
  });

  it('keeps zod\'s rule for bounds and primitive types, and says what was found', () => {
    const [n] = diagnose(Payload, { ring: RING, n: -1 });
    expect(n?.message).toBe('payload.n: Too small: expected number to be >=0');
    const [typed] = diagnose(Payload, { ring: RING, n: 'seven' });
    expect(typed?.message).toBe('payload.n: expected number (got the string "seven")');
    expect(typed?.hint).toMatch(/^payload is \{ring: /);
  });

  it('without the schema, answers as before', () => {
    const parsed = Payload.safeParse({ ring: { field: 'Q' } });
    const [field] = zodIssuesToDiagnostics(parsed.error as z.ZodError, ['payload']);
    expect(field?.message).toBe('payload.ring.field: expected object (Invalid input: expected object, received string)');
    expect(field?.hint).toBe('inspect the capability with math.find view CONTRACT for the exact input schema');
  });
});

describe('accepted field combinations', () => {
  const Proof = z
    .object({ proof_uri: z.string().optional(), drat: z.string().optional(), dimacs: z.string().optional(), cnf_uri: z.string().optional() })
    .strict()
    .superRefine(
      refineCombinations([
        { fields: ['proof_uri'], note: 'a stored proof names its CNF' },
        { fields: ['drat', 'dimacs'] },
        { fields: ['drat', 'cnf_uri'] },
      ]),
    );
  const ACCEPTED = 'accepted: proof_uri alone (a stored proof names its CNF); drat + dimacs; drat + cnf_uri';

  it.each([
    [{ proof_uri: 'p', cnf_uri: 'c' }, ['payload', 'cnf_uri'], `given proof_uri + cnf_uri, which is not an accepted combination; ${ACCEPTED}`],
    [{}, ['payload'], `none of proof_uri, drat, dimacs, cnf_uri given; ${ACCEPTED}`],
    [{ drat: 'd' }, ['payload'], `given drat, which is not an accepted combination; ${ACCEPTED}`],
    [{ drat: 'd', dimacs: 'x', cnf_uri: 'c' }, ['payload', 'cnf_uri'], `given drat + dimacs + cnf_uri, which is not an accepted combination; ${ACCEPTED}`],
  ])('refuses %j naming every accepted combination', (input, path, message) => {
    const [diagnostic] = diagnose(Proof, input);
    expect(diagnostic?.path).toEqual(path);
    expect(diagnostic?.message).toBe(`${path.join('.')}: ${message}`);
  });

  it('accepts each accepted combination', () => {
    for (const input of [{ proof_uri: 'p' }, { drat: 'd', dimacs: 'x' }, { drat: 'd', cnf_uri: 'c' }]) expect(Proof.safeParse(input).success).toBe(true);
    expect(combinationProblem(['cnf_uri', 'drat'], [{ fields: ['drat', 'cnf_uri'] }])).toBeUndefined();
  });
});

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['field', 'feild', 2],
    ['kind', 'kinds', 1],
    ['graph', 'grape', 1],
    ['abc', '', 3],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

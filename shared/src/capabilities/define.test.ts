import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import type { ProviderRuntime } from '../contracts/provider.js';
import { JacobianError } from '../errors.js';
import { installCapability, toJsonSchema, type CapabilityDefinition } from './define.js';

const RUNTIME: ProviderRuntime = {
  provider: 'fake-provider',
  availability: 'AVAILABLE',
  version: '1.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: 'b'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

const Input = z
  .object({
    n: z.number().int().min(0).max(10).describe('a small number'),
    label: z.string().default('x'),
  })
  .strict();
const Output = z.object({ square: z.number().int() }).strict();

function definition(overrides: Partial<CapabilityDefinition<z.infer<typeof Input>, z.infer<typeof Output>>> = {}): CapabilityDefinition<
  z.infer<typeof Input>,
  z.infer<typeof Output>
> {
  return {
    id: 'test.square',
    version: '1.2.3',
    title: 'Square a small number',
    description: 'Squares n.',
    tags: ['arithmetic'],
    domain: 'arithmetic',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input: Input,
    output: Output,
    examples: [
      { title: 'three', mode: 'EXPLORE', payload: { n: 3 } },
      { title: 'ten, labelled', mode: 'EXPLORE', payload: { n: 10, label: 'ten' } },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'exactly n',
    limits: { max_n: 10 },
    run: () => Promise.reject(new Error('not run here')),
    ...overrides,
  };
}

function registrationError(fn: () => unknown): JacobianError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    return error as JacobianError;
  }
  throw new Error('expected installCapability to throw');
}

describe('installCapability', () => {
  it('builds a descriptor whose schemas are derived from the zod definitions', () => {
    const { descriptor, definition: installed } = installCapability(definition(), RUNTIME, null);
    expect(descriptor.id).toBe('test.square');
    expect(descriptor.provider_runtime).toEqual(RUNTIME);
    expect(descriptor.checker).toBeNull();
    expect(descriptor.examples).toHaveLength(2);
    // Input side: `label` has a default, so a caller need not send it.
    expect(descriptor.input_schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['n'],
      properties: { n: { type: 'integer', minimum: 0, maximum: 10, description: 'a small number' }, label: { type: 'string', default: 'x' } },
    });
    expect(descriptor.output_schema).toMatchObject({ type: 'object', required: ['square'], properties: { square: { type: 'integer' } } });
    expect(installed.id).toBe('test.square');
  });

  it.each([
    ['out of range', { n: 11 }, ['examples', 1, 'payload', 'n']],
    ['an unknown field', { n: 1, extra: true }, ['examples', 1, 'payload', 'extra']],
    ['a missing field', {}, ['examples', 1, 'payload', 'n']],
  ])('rejects an example its own schema rejects (%s) with REGISTRATION_INVALID naming the example', (_name, payload, path) => {
    const bad = definition({
      examples: [
        { title: 'fine', mode: 'EXPLORE', payload: { n: 1 } },
        { title: 'broken example', mode: 'EXPLORE', payload },
      ],
    });
    const error = registrationError(() => installCapability(bad, RUNTIME, null));
    expect(error.code).toBe('REGISTRATION_INVALID');
    expect(error.message).toContain('test.square: invocation example 1 ("broken example") does not satisfy the input schema');
    expect(error.path).toEqual(path);
  });

  it('rejects an example whose mode the capability does not offer', () => {
    const error = registrationError(() =>
      installCapability(definition({ examples: [{ title: 'verify', mode: 'VERIFY', payload: { n: 1 } }] }), RUNTIME, null),
    );
    expect(error.code).toBe('REGISTRATION_INVALID');
    expect(error.path).toEqual(['examples', 0, 'mode']);
    expect(error.message).toBe('test.square: descriptor is invalid at examples.0.mode: mode VERIFY is not offered');
  });

  it('rejects a producer that claims a VERIFIED ceiling', () => {
    const error = registrationError(() =>
      installCapability(definition({ modes: ['EXPLORE', 'VERIFY'], assurance_ceiling: 'VERIFIED' }), RUNTIME, null),
    );
    expect([error.code, error.path]).toEqual(['REGISTRATION_INVALID', ['assurance_ceiling']]);
  });

  it('rejects a checker without identity and a bad ID', () => {
    const checker = registrationError(() =>
      installCapability(definition({ role: 'checker', modes: ['VERIFY'], examples: [], assurance_ceiling: 'VERIFIED' }), RUNTIME, null),
    );
    expect([checker.code, checker.path]).toEqual(['REGISTRATION_INVALID', ['checker']]);
    const id = registrationError(() => installCapability(definition({ id: 'Test.Square' }), RUNTIME, null));
    expect([id.code, id.path]).toEqual(['REGISTRATION_INVALID', ['id']]);
  });

  it('rejects an invalid provider runtime', () => {
    const error = registrationError(() => installCapability(definition(), { ...RUNTIME, digest: 'not-hex' }, null));
    expect([error.code, error.path]).toEqual(['REGISTRATION_INVALID', ['provider_runtime', 'digest']]);
  });
});

describe('toJsonSchema', () => {
  it('derives the input or output side of transforms and defaults', () => {
    const schema = z.object({ k: z.number().int().default(2) });
    expect(toJsonSchema(schema, 'input')['required']).toBeUndefined();
    expect(toJsonSchema(schema, 'output')['required']).toEqual(['k']);
    expect(toJsonSchema(schema, 'input')['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
  });
});

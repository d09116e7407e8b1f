/** A tiny installed capability (squaring an integer) and its answers, for the MCP layer's tests. */
import { z } from 'zod';
import { installCapability, type AdmittedRun, type CapabilityResult, type InstalledCapability, type ProviderRuntime, type RunQueue } from '@jacobian/shared';

const RUNTIME: ProviderRuntime = {
  provider: 'fake-provider',
  availability: 'AVAILABLE',
  version: '1.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: '3'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

export const SQUARE: InstalledCapability = installCapability(
  {
    id: 'test.square',
    version: '1.0.0',
    title: 'Square an integer',
    description: 'Squares a small integer.',
    tags: ['arithmetic'],
    domain: 'arithmetic',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'light',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [],
    input: z.object({ n: z.number().int().min(0).max(1000) }).strict(),
    output: z.object({ square: z.number().int() }).strict(),
    examples: [{ title: 'seven', mode: 'EXPLORE', payload: { n: 7 } }],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'exactly n',
    limits: {},
    run: () => Promise.reject(new Error('the fake queue answers instead')),
  },
  RUNTIME,
  null,
);

export function squared(run: AdmittedRun): CapabilityResult {
  const n = run.payload['n'] as number;
  return {
    capability_id: run.capability_id,
    capability_version: '1.0.0',
    mode: run.mode,
    execution: { status: 'COMPLETED', runtime_ms: 1, job_id: run.job_id, request_digest: run.request_digest },
    output: { square: n * n },
    scope: { kind: 'EXACT_INPUT', statement: `n = ${n}`, input_uris: [] },
    completeness: { status: 'COMPLETE', basis: 'arithmetic' },
    qualifiers: ['EXACT'],
    assurance: { level: 'COMPUTED', basis: 'integer multiplication', verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: [],
    provider: { name: 'fake-provider', version: '1.0.0', digest_kind: 'SOURCE_TREE', digest: '3'.repeat(64) },
    diagnostics: [],
  };
}


/** A queue answering every run with its square, remembering each submitted run (to count what was computed). */
export function squareQueue(): RunQueue & { readonly submits: AdmittedRun[] } {
  const submits: AdmittedRun[] = [];
  return {
    submits,
    submit: (run) => {
      submits.push(run);
      return Promise.resolve(squared(run));
    },
    stats: () => ({ inFlight: 0, queued: 0, running: 0 }),
    close: () => Promise.resolve(),
  };
}

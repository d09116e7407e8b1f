import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { nonConclusionResult } from '../capabilities/host.js';
import { STAGES } from '../errors.js';
import { CapabilityResultSchema, type CapabilityResult, type Diagnostic } from './result.js';

const uri = (hexDigit: string): string => `artifact://sha256/${hexDigit.repeat(64)}`;
const REQUEST_DIGEST = `sha256:${'1'.repeat(64)}`;

function errorDiagnostic(code = 'EXECUTION_TIMEOUT'): Diagnostic {
  return { severity: 'ERROR', code, stage: 'EXECUTION', message: 'the run did not finish', path: null, hint: null };
}

/** A well-formed COMPLETED / COMPUTED result, built by hand (not by the code under test). */
function computed(): CapabilityResult {
  return {
    capability_id: 'graph.construct.explicit',
    capability_version: '1.0.0',
    mode: 'EXPLORE',
    execution: { status: 'COMPLETED', runtime_ms: 7, job_id: 'run-0123', request_digest: REQUEST_DIGEST },
    output: { graph_uri: uri('a'), order: 3 },
    scope: { kind: 'EXACT_INPUT', statement: 'the supplied graph', input_uris: [] },
    completeness: { status: 'COMPLETE', basis: 'every vertex and edge was validated' },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: { level: 'COMPUTED', basis: 'computed by the producer', verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: [uri('a')],
    provider: { name: 'jacobian-graph-ts', version: '0.1.0', digest_kind: 'SOURCE_TREE', digest: 'f'.repeat(64) },
    diagnostics: [],
  };
}

/** A well-formed VERIFIED result: VERIFY mode, COMPLETED, record listed among artifact_uris, checker named. */
function verified(): CapabilityResult {
  return {
    ...computed(),
    capability_id: 'graph.induced_tree.maximum.verify',
    mode: 'VERIFY',
    scope: { kind: 'EXACT_CLAIM', statement: 'the maximum induced tree order is 6', input_uris: [uri('c'), uri('a')] },
    qualifiers: ['EXACT', 'EXHAUSTIVE'],
    assurance: {
      level: 'VERIFIED',
      basis: 'independent exhaustive checker accepted the claim',
      verification_record_uri: uri('b'),
      checker_id: 'jacobian.graph.induced_tree.maximum.exhaustive',
    },
    obligations: [{ id: 'optimality', statement: 'no larger induced tree', status: 'DISCHARGED', discharged_by: ['graph.induced_tree.maximum.verify'] }],
    relationships: [{ subject: uri('b'), predicate: 'VERIFIES', object: uri('c') }],
    artifact_uris: [uri('b'), uri('c'), uri('a')],
  };
}

/** A well-formed result that concludes nothing. */
function failed(status: 'TIMEOUT' | 'CANCELLED' | 'ERROR'): CapabilityResult {
  return {
    ...computed(),
    execution: { ...computed().execution, status },
    output: null,
    scope: null,
    completeness: { status: 'NOT_APPLICABLE', basis: 'nothing concluded' },
    qualifiers: [],
    assurance: { level: 'HEURISTIC', basis: 'no conclusion', verification_record_uri: null, checker_id: null },
    artifact_uris: [],
    diagnostics: [errorDiagnostic()],
  };
}

interface Issue {
  path: PropertyKey[];
  message: string;
  code: string;
}

function issues(value: unknown): Issue[] {
  const parsed = CapabilityResultSchema.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code }));
}

describe('CapabilityResultSchema: well-formed results', () => {
  it('accepts a COMPLETED / COMPUTED result unchanged', () => {
    const value = computed();
    const parsed = CapabilityResultSchema.parse(value);
    expect(parsed).toEqual(value);
    expect(parsed.assurance.level).toBe('COMPUTED');
  });

  it('accepts a VERIFIED result in VERIFY mode with its record among artifact_uris and its checker named', () => {
    const parsed = CapabilityResultSchema.parse(verified());
    expect(parsed.assurance).toEqual({
      level: 'VERIFIED',
      basis: 'independent exhaustive checker accepted the claim',
      verification_record_uri: uri('b'),
      checker_id: 'jacobian.graph.induced_tree.maximum.exhaustive',
    });
  });

  it.each(['TIMEOUT', 'CANCELLED', 'ERROR'] as const)('accepts a %s result with an ERROR diagnostic and HEURISTIC assurance', (status) => {
    expect(issues(failed(status))).toEqual([]);
  });

  it('accepts a COMPLETED result that carries only WARNING and INFO diagnostics', () => {
    const value = computed();
    value.diagnostics = [
      { ...errorDiagnostic('CHECKER_REJECTED'), severity: 'WARNING' },
      { ...errorDiagnostic('NOTE'), severity: 'INFO' },
    ];
    expect(issues(value)).toEqual([]);
  });
});

describe('CapabilityResultSchema: over-claiming and inconsistent results are rejected', () => {
  it('rejects VERIFIED in EXPLORE mode at assurance.level', () => {
    expect(issues({ ...verified(), mode: 'EXPLORE' })).toEqual([
      { path: ['assurance', 'level'], code: 'custom', message: 'VERIFIED is only possible in VERIFY mode' },
    ]);
  });

  it('rejects VERIFIED with a TIMEOUT execution at assurance.level', () => {
    const value = verified();
    value.execution.status = 'TIMEOUT';
    value.diagnostics = [errorDiagnostic()];
    value.completeness = { status: 'UNKNOWN', basis: 'timed out' };
    expect(issues(value)).toEqual([
      { path: ['assurance', 'level'], code: 'custom', message: 'VERIFIED requires a COMPLETED execution' },
      { path: ['assurance', 'level'], code: 'custom', message: 'a run that did not complete carries HEURISTIC assurance at most' },
    ]);
  });

  it('rejects VERIFIED without a verification record URI', () => {
    const value = verified();
    value.assurance.verification_record_uri = null;
    expect(issues(value)).toEqual([
      { path: ['assurance', 'verification_record_uri'], code: 'custom', message: 'VERIFIED requires a verification record URI' },
    ]);
  });

  it.each(['COMPUTED', 'HEURISTIC'] as const)('rejects a verification record URI on a %s result', (level) => {
    const value = computed();
    value.assurance = { ...value.assurance, level, verification_record_uri: uri('b') };
    value.artifact_uris = [uri('a'), uri('b')];
    expect(issues(value)).toEqual([
      { path: ['assurance', 'verification_record_uri'], code: 'custom', message: 'a verification record URI is only allowed with VERIFIED' },
    ]);
  });

  it('rejects VERIFIED whose record URI is not listed in artifact_uris', () => {
    const value = verified();
    value.artifact_uris = [uri('c'), uri('a')];
    expect(issues(value)).toEqual([
      { path: ['assurance'], code: 'custom', message: 'VERIFIED names its checker and lists its verification record among artifact_uris' },
    ]);
  });

  it('rejects VERIFIED that does not name its checker', () => {
    const value = verified();
    value.assurance.checker_id = null;
    expect(issues(value).map((i) => i.path)).toEqual([['assurance']]);
  });

  it('rejects VERIFIED with an OPEN obligation of its own claim, at that obligation', () => {
    const value = verified();
    value.obligations = [
      ...value.obligations,
      { id: 'basis-in-ideal', statement: 'each basis element lies in the ideal of the generators', status: 'OPEN', discharged_by: [] },
    ];
    const found = issues(value);
    expect(found.map((i) => i.path)).toEqual([['obligations', 1, 'status']]);
    expect(found[0]?.message).toMatch(/obligation basis-in-ideal of that claim is still OPEN/);
  });

  it('accepts the same OPEN obligation below VERIFIED (COMPUTED, no record)', () => {
    const value = verified();
    value.assurance = { level: 'COMPUTED', basis: 'the checker could not discharge every obligation', verification_record_uri: null, checker_id: null };
    value.completeness = { status: 'PARTIAL', basis: 'one inclusion shown' };
    value.obligations = [{ id: 'basis-in-ideal', statement: 'each basis element lies in the ideal of the generators', status: 'OPEN', discharged_by: [] }];
    expect(issues(value)).toEqual([]);
  });

  it('rejects COMPLETE completeness without a scope', () => {
    expect(issues({ ...computed(), scope: null })).toEqual([
      { path: ['scope'], code: 'custom', message: 'COMPLETE requires an explicit scope' },
    ]);
  });

  it('accepts PARTIAL completeness without a scope (the scope rule is specific to COMPLETE)', () => {
    expect(issues({ ...computed(), scope: null, completeness: { status: 'PARTIAL', basis: 'bounds only' } })).toEqual([]);
  });

  it('rejects a COMPLETED result that carries an ERROR diagnostic', () => {
    expect(issues({ ...computed(), diagnostics: [errorDiagnostic('PROVIDER_FAILED')] })).toEqual([
      { path: ['diagnostics'], code: 'custom', message: 'a COMPLETED run carries no ERROR diagnostics' },
    ]);
  });

  it.each(['TIMEOUT', 'CANCELLED', 'ERROR'] as const)('rejects a %s result without an ERROR diagnostic', (status) => {
    expect(issues({ ...failed(status), diagnostics: [] })).toEqual([
      { path: ['diagnostics'], code: 'custom', message: `a ${status} run carries at least one ERROR diagnostic saying why` },
    ]);
    // A WARNING is not a reason.
    const warningOnly = { ...failed(status), diagnostics: [{ ...errorDiagnostic(), severity: 'WARNING' as const }] };
    expect(issues(warningOnly).map((i) => i.path)).toEqual([['diagnostics']]);
  });

  it('rejects a TIMEOUT result whose completeness is COMPLETE', () => {
    const value = failed('TIMEOUT');
    value.scope = { kind: 'EXACT_INPUT', statement: 'the input', input_uris: [] };
    value.completeness = { status: 'COMPLETE', basis: 'claimed' };
    expect(issues(value)).toEqual([
      { path: ['completeness', 'status'], code: 'custom', message: 'a run that did not complete is never a complete conclusion' },
    ]);
  });

  it.each(['COMPUTED', 'VERIFIED'] as const)('rejects an ERROR result with %s assurance', (level) => {
    const value = failed('ERROR');
    value.assurance.level = level;
    const found = issues(value);
    expect(found).toContainEqual({
      path: ['assurance', 'level'],
      code: 'custom',
      message: 'a run that did not complete carries HEURISTIC assurance at most',
    });
    if (level === 'COMPUTED') expect(found).toHaveLength(1);
  });

  it('rejects duplicate artifact URIs', () => {
    expect(issues({ ...computed(), artifact_uris: [uri('a'), uri('d'), uri('a')] })).toEqual([
      { path: ['artifact_uris'], code: 'custom', message: 'artifact URIs are unique' },
    ]);
  });

  it.each([
    ['top level', (v: CapabilityResult) => ({ ...v, verified: true }), [], 'verified'],
    ['execution', (v: CapabilityResult) => ({ ...v, execution: { ...v.execution, worker: 'w1' } }), ['execution'], 'worker'],
    ['assurance', (v: CapabilityResult) => ({ ...v, assurance: { ...v.assurance, signed: true } }), ['assurance'], 'signed'],
    ['a diagnostic', (v: CapabilityResult) => ({ ...v, diagnostics: [{ ...errorDiagnostic(), severity: 'INFO', stack: 'x' }] }), ['diagnostics', 0], 'stack'],
  ] as const)('rejects unknown extra fields (%s)', (_where, mutate, path, key) => {
    const parsed = CapabilityResultSchema.safeParse(mutate(computed()));
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(issue?.code).toBe('unrecognized_keys');
    expect(issue?.path).toEqual(path);
    expect(issue && 'keys' in issue ? issue.keys : []).toEqual([key]);
  });

  it.each([
    ['uppercase hex', `artifact://sha256/${'A'.repeat(64)}`],
    ['63 hex digits', `artifact://sha256/${'a'.repeat(63)}`],
    ['65 hex digits', `artifact://sha256/${'a'.repeat(65)}`],
    ['another algorithm', `artifact://sha512/${'a'.repeat(64)}`],
    ['another scheme', `https://sha256/${'a'.repeat(64)}`],
    ['trailing text', `artifact://sha256/${'a'.repeat(64)}/x`],
    ['empty', ''],
  ])('rejects a malformed artifact URI (%s) wherever it appears', (_name, bad) => {
    expect(issues({ ...computed(), artifact_uris: [uri('a'), bad] }).map((i) => i.path)).toEqual([['artifact_uris', 1]]);
    const scoped = computed();
    scoped.scope = { kind: 'EXACT_INPUT', statement: 's', input_uris: [bad] };
    expect(issues(scoped).map((i) => i.path)).toEqual([['scope', 'input_uris', 0]]);
    const related = computed();
    related.relationships = [{ subject: uri('a'), predicate: 'DERIVED_FROM', object: bad }];
    expect(issues(related).map((i) => i.path)).toEqual([['relationships', 0, 'object']]);
    const record = verified();
    record.assurance.verification_record_uri = bad;
    expect(issues(record).map((i) => i.path)).toContainEqual(['assurance', 'verification_record_uri']);
  });

  it('rejects a request digest that is not sha256:<64 hex>', () => {
    const value = computed();
    value.execution.request_digest = 'sha256:xyz';
    expect(issues(value).map((i) => i.path)).toEqual([['execution', 'request_digest']]);
  });
});

describe('nonConclusionResult always satisfies the result contract', () => {
  const severity = fc.constantFrom('ERROR' as const, 'WARNING' as const, 'INFO' as const);
  const diagnosticArb = (sev: fc.Arbitrary<Diagnostic['severity']>): fc.Arbitrary<Diagnostic> =>
    fc.record({
      severity: sev,
      code: fc.stringMatching(/^[A-Z][A-Z0-9_]{0,30}$/),
      stage: fc.constantFrom(...STAGES),
      message: fc.string({ minLength: 1, maxLength: 300 }),
      path: fc.option(fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer({ min: -5, max: 1000 })), { maxLength: 6 }), { nil: null }),
      hint: fc.option(fc.string({ maxLength: 200 }), { nil: null }),
    });
  const runArb = fc.record({
    capability_id: fc.string({ minLength: 1, maxLength: 128 }),
    mode: fc.constantFrom('EXPLORE' as const, 'VERIFY' as const),
    job_id: fc.string({ minLength: 1, maxLength: 40 }),
    request_digest: fc.stringMatching(/^[0-9a-f]{64}$/).map((hex) => `sha256:${hex}`),
  });
  const statusArb = fc.constantFrom('TIMEOUT' as const, 'CANCELLED' as const, 'ERROR' as const);
  const providerArb = fc.option(
    fc.record({
      name: fc.string({ minLength: 1, maxLength: 20 }),
      version: fc.string({ minLength: 1, maxLength: 10 }),
      digest_kind: fc.constantFrom('PACKAGE_FILES' as const, 'SOURCE_TREE' as const, 'EXECUTABLE' as const, 'COMPOSITE' as const),
      digest: fc.stringMatching(/^[0-9a-f]{64}$/),
    }),
    { nil: null },
  );
  const optionsArb = fc.record(
    {
      runtimeMs: fc.double({ min: -1e6, max: 1e9, noNaN: true }),
      capabilityVersion: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
      provider: providerArb,
    },
    { requiredKeys: [] },
  );

  it('parses for any status and any diagnostics that include at least one ERROR', () => {
    fc.assert(
      fc.property(
        runArb,
        statusArb,
        fc.array(diagnosticArb(severity), { maxLength: 8 }),
        diagnosticArb(fc.constant('ERROR')),
        fc.nat(),
        optionsArb,
        (run, status, others, error, at, options) => {
          const diagnostics = [...others];
          diagnostics.splice(at % (others.length + 1), 0, error);
          const result = nonConclusionResult(run, { status, diagnostics, ...options });
          const parsed = CapabilityResultSchema.safeParse(result);
          expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
          expect(result.execution).toMatchObject({ status, job_id: run.job_id, request_digest: run.request_digest });
          expect(result.execution.runtime_ms).toBeGreaterThanOrEqual(0);
          expect(result.output).toBeNull();
          expect(result.assurance.level).toBe('HEURISTIC');
          expect(result.completeness.status).not.toBe('COMPLETE');
          expect(result.diagnostics).toEqual(diagnostics);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does not parse when no diagnostic is an ERROR (the property above is not vacuous)', () => {
    fc.assert(
      fc.property(runArb, statusArb, fc.array(diagnosticArb(fc.constantFrom('WARNING' as const, 'INFO' as const)), { maxLength: 5 }), (run, status, diagnostics) => {
        expect(issues(nonConclusionResult(run, { status, diagnostics })).map((i) => i.path)).toEqual([['diagnostics']]);
      }),
      { numRuns: 100 },
    );
  });
});

import type { KeyObject } from 'node:crypto';
import {
  admitRequest,
  buildCatalog,
  CapabilityRequestSchema,
  CapabilityResultSchema,
  errorDiagnostic,
  evaluatePolicy,
  JacobianError,
  nonConclusionResult,
  parseArtifactUri,
  providerRef,
  toAppError,
  VERIFICATION_RECORD_SCHEMA_URI,
  verifyRecordSignature,
  zodIssuesToDiagnostics,
  type ArtifactStore,
  type CapabilityDescriptor,
  type CapabilityResult,
  type Catalog,
  type AdmissibleCapability,
  type LoadedArtifact,
  type Mode,
  type OperatorPolicy,
  type ProgressListener,
  type RunQueue,
} from '@jacobian/shared';
import { find, FindArgumentsSchema, rejectedFindResponse, type FindResponse } from './find.js';

export interface ApiDependencies {
  /** What live runners and checkers offer right now, with the schemas admission checks payloads against. */
  installed: () => readonly AdmissibleCapability[];
  policy: OperatorPolicy;
  queue: RunQueue;
  artifacts: ArtifactStore;
  /** Public keys of checker services whose signed records this API accepts, by key ID. */
  trustedCheckerKeys: ReadonlyMap<string, KeyObject>;
}

/** The MCP surface's logic, independent of transport: discovery, admission, results, artifacts. */
export interface Api {
  catalog(): Catalog;
  find(args: unknown): FindResponse;
  /** `onProgress` hears the run's progress reports while it runs (informational). */
  run(args: unknown, signal?: AbortSignal, onProgress?: ProgressListener): Promise<CapabilityResult>;
  readArtifact(uri: string, signal?: AbortSignal): Promise<LoadedArtifact>;
}

const UNADMITTED = {
  job_id: 'unadmitted',
  request_digest: `sha256:${'0'.repeat(64)}`,
};

function idOf(args: unknown): string {
  if (typeof args === 'object' && args !== null) {
    const id = (args as Record<string, unknown>)['capability_id'];
    if (typeof id === 'string' && id.length > 0) return id.slice(0, 128);
  }
  return 'unknown';
}

function modeOf(args: unknown): Mode {
  if (typeof args === 'object' && args !== null && (args as Record<string, unknown>)['mode'] === 'VERIFY') return 'VERIFY';
  return 'EXPLORE';
}

export function createApi(deps: ApiDependencies): Api {
  let cached: { installed: readonly AdmissibleCapability[]; catalog: Catalog; descriptors: Map<string, CapabilityDescriptor> } | undefined;
  function current(): NonNullable<typeof cached> {
    const installed = deps.installed();
    if (cached?.installed !== installed) {
      const descriptors = new Map(installed.map((c) => [c.descriptor.id, c.descriptor]));
      cached = { installed, descriptors, catalog: buildCatalog([...descriptors.values()], deps.policy) };
    }
    return cached;
  }

  /** Reject before any job exists; the result names the field and the rule. */
  function rejected(args: unknown, error: JacobianError, capability?: AdmissibleCapability): CapabilityResult {
    return nonConclusionResult(
      { capability_id: idOf(args), mode: modeOf(args), ...UNADMITTED },
      {
        status: 'ERROR',
        diagnostics: [errorDiagnostic(error)],
        capabilityVersion: capability?.descriptor.version ?? null,
        provider: capability ? providerRef(capability) : null,
      },
    );
  }

  /**
   * A VERIFIED result stands only if its record is a stored artifact, signed by a trusted
   * checker key, issued by the checker the catalog names, for exactly this request.
   */
  async function confirmVerification(result: CapabilityResult, capability: AdmissibleCapability, signal?: AbortSignal): Promise<void> {
    const uri = result.assurance.verification_record_uri;
    if (uri === null) throw new JacobianError('VERIFICATION_RECORD_INVALID', 'VERIFIED without a verification record');
    const stored = await deps.artifacts.get(uri, signal ? { signal } : undefined);
    if (stored.manifest.schema_uri !== VERIFICATION_RECORD_SCHEMA_URI) {
      throw new JacobianError('VERIFICATION_RECORD_INVALID', `${uri} is not a verification record`);
    }
    const record = verifyRecordSignature(stored.payload, deps.trustedCheckerKeys);
    const expected = capability.descriptor.checker;
    const body = record.body;
    const mismatches: string[] = [];
    if (expected === null || body.checker_id !== expected.checker_id || body.checker_digest !== expected.checker_digest) mismatches.push('checker identity');
    if (body.checker_id !== result.assurance.checker_id) mismatches.push('checker named in the result');
    if (body.capability_id !== result.capability_id) mismatches.push('capability');
    if (body.request_digest !== result.execution.request_digest) mismatches.push('request digest');
    if (!result.artifact_uris.includes(body.candidate_uri)) mismatches.push('candidate');
    if (!stored.manifest.parents.includes(body.candidate_uri)) mismatches.push('record lineage');
    if (mismatches.length > 0) {
      throw new JacobianError('VERIFICATION_RECORD_INVALID', `verification record does not bind this result: ${mismatches.join(', ')} differ`);
    }
  }

  return {
    catalog: () => current().catalog,

    find(args) {
      const parsed = FindArgumentsSchema.safeParse(args);
      const { catalog, descriptors } = current();
      if (!parsed.success) return rejectedFindResponse(catalog, 'BROWSE', zodIssuesToDiagnostics(parsed.error, []));
      try {
        return find(parsed.data, { catalog, descriptors });
      } catch (error) {
        return rejectedFindResponse(catalog, parsed.data.capability_id !== undefined ? 'INSPECT' : 'BROWSE', [errorDiagnostic(toAppError(error))]);
      }
    },

    async run(args, signal, onProgress) {
      const parsed = CapabilityRequestSchema.safeParse(args);
      if (!parsed.success) {
        return nonConclusionResult(
          { capability_id: idOf(args), mode: modeOf(args), ...UNADMITTED },
          { status: 'ERROR', diagnostics: zodIssuesToDiagnostics(parsed.error, []) },
        );
      }
      const request = parsed.data;
      const capability = current().installed.find((c) => c.descriptor.id === request.capability_id);
      if (capability === undefined) {
        return rejected(
          args,
          new JacobianError('UNKNOWN_CAPABILITY', `capability_id: ${request.capability_id} is not an installed capability`, {
            path: ['capability_id'],
            hint: 'use math.find to discover installed capability IDs',
          }),
        );
      }
      const decision = evaluatePolicy(deps.policy, capability.descriptor);
      if (!decision.visible) {
        return rejected(args, new JacobianError('CAPABILITY_POLICY_DENIED', `capability_id: ${request.capability_id} is not available: ${decision.reason}`, { path: ['capability_id'] }));
      }
      if (!capability.descriptor.modes.includes(request.mode)) {
        return rejected(
          args,
          new JacobianError('MODE_NOT_SUPPORTED', `mode: ${request.capability_id} supports ${capability.descriptor.modes.join(', ')} only, not ${request.mode}`, {
            path: ['mode'],
            hint: request.mode === 'VERIFY' ? 'look for a checker capability related to it (VERIFIED_BY) with math.find' : undefined,
          }),
          capability,
        );
      }
      if (!decision.modes.includes(request.mode)) {
        return rejected(
          args,
          new JacobianError('CAPABILITY_POLICY_DENIED', `mode: ${request.mode} of ${request.capability_id} is hidden by operator policy`, { path: ['mode'] }),
          capability,
        );
      }
      const payload = capability.input.safeParse(request.payload);
      if (!payload.success) {
        return nonConclusionResult(
          { capability_id: request.capability_id, mode: request.mode, ...UNADMITTED },
          {
            status: 'ERROR',
            diagnostics: zodIssuesToDiagnostics(payload.error, ['payload']),
            capabilityVersion: capability.descriptor.version,
            provider: providerRef(capability),
          },
        );
      }
      let admitted;
      try {
        admitted = admitRequest(request);
      } catch (error) {
        // The digest covers {capability_id, mode, payload, budget}, so the error's path
        // already starts at the request's own field (e.g. ['payload', 'x', 1]).
        return rejected(args, toAppError(error), capability);
      }
      const target = capability.descriptor.role === 'checker' ? ({ kind: 'checker' } as const) : ({ kind: 'pool', pool: capability.descriptor.pool } as const);
      let result: CapabilityResult;
      try {
        result = await deps.queue.submit(admitted, target, {
          ...(signal === undefined ? {} : { signal }),
          ...(onProgress === undefined ? {} : { onProgress }),
        });
      } catch (error) {
        result = nonConclusionResult(admitted, { status: 'ERROR', diagnostics: [errorDiagnostic(toAppError(error))] });
      }
      const valid = CapabilityResultSchema.safeParse(result);
      if (!valid.success) {
        return nonConclusionResult(admitted, {
          status: 'ERROR',
          diagnostics: [errorDiagnostic(new JacobianError('INTERNAL', `the run returned a result that breaks the result contract: ${valid.error.issues[0]?.message ?? ''}`))],
        });
      }
      if (valid.data.assurance.level === 'VERIFIED') {
        try {
          await confirmVerification(valid.data, capability, signal);
        } catch (error) {
          return nonConclusionResult(admitted, {
            status: 'ERROR',
            capabilityVersion: capability.descriptor.version,
            provider: providerRef(capability),
            diagnostics: [errorDiagnostic(toAppError(error))],
          });
        }
      }
      return valid.data;
    },

    async readArtifact(uri, signal) {
      parseArtifactUri(uri);
      return deps.artifacts.get(uri, signal ? { signal } : undefined);
    },
  };
}

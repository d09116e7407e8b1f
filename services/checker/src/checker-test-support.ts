// What the checkers' capability tests share: a runtime, a temporary artifact store, one
// isolated process and a signing key, checkers installed with the operator's authorization (or
// without it), and the runs of a VERIFY request. Test support only: never imported by product
// code (and, not being a *.test.ts file, never run as a test itself).
import type { KeyObject } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  admitRequest,
  CapabilityRequestSchema,
  CapabilityResultSchema,
  checkerIdentity,
  createLocalFolderArtifactStore,
  createProcessPool,
  executeCapability,
  installCapability,
  loadOrCreateSigningKey,
  type ArtifactStore,
  type CapabilityDefinition,
  type CapabilityResult,
  type CheckerAuthorization,
  type CheckerIdentity,
  type InstalledCapability,
  type ProviderRuntime,
} from '@jacobian/shared';
import type { CheckerAuthority } from './graph/induced-tree-verify.js';

export const CHECKER_TEST_RUNTIME: ProviderRuntime = {
  provider: 'jacobian-checker-ts',
  availability: 'AVAILABLE',
  version: '0.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: 'c'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

export interface CheckerHarness extends AsyncDisposable {
  readonly artifacts: ArtifactStore;
  /** The signing key's public half by key ID, to check verification records against. */
  readonly trusted: Map<string, KeyObject>;
  /** Install the checker `make` defines, with its identity authorized by the operator unless `authorize` is false. */
  install<I, O>(make: (authority: CheckerAuthority) => CapabilityDefinition<I, O>, authorize?: boolean): Promise<InstalledCapability>;
  /** Run a VERIFY request with `payload` on `capability`. */
  run(capability: InstalledCapability, payload: Record<string, unknown>): Promise<CapabilityResult>;
}

/** A harness in a fresh temporary folder named after `prefix`; dispose of it to close and remove everything. */
export async function createCheckerHarness(prefix: string): Promise<CheckerHarness> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const artifacts = createLocalFolderArtifactStore({ root: join(root, 'artifacts') });
  const executor = createProcessPool({ size: 1 });
  const key = await loadOrCreateSigningKey(join(root, 'key.pem'));
  return {
    artifacts,
    trusted: new Map([[key.keyId, key.publicKey]]),
    async install(make, authorize = true) {
      let identity: CheckerIdentity | null = null;
      const authority: CheckerAuthority = {
        authorization: (): CheckerAuthorization => ({ authorized: authorize && identity !== null ? [{ checker_id: identity.checker_id, checker_digest: identity.checker_digest }] : [] }),
        signingKey: key,
        identity: () => identity as CheckerIdentity,
      };
      const definition = make(authority);
      if (definition.checker === undefined) throw new Error('no checker declaration');
      identity = await checkerIdentity(definition.checker);
      return installCapability(definition as CapabilityDefinition<never, unknown>, CHECKER_TEST_RUNTIME, identity);
    },
    run: (capability, payload) =>
      executeCapability(capability, admitRequest(CapabilityRequestSchema.parse({ capability_id: capability.descriptor.id, mode: 'VERIFY', payload })), { artifacts, executor }, new AbortController().signal),
    async [Symbol.asyncDispose]() {
      // Each step runs even if one before it fails.
      try {
        await executor.close();
      } finally {
        try {
          await artifacts.close();
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      }
    },
  };
}

/** The output of a run that completed with a valid result; anything else fails the test, with the diagnostics. */
export function completedOutput<O>(result: CapabilityResult): O {
  if (result.execution.status !== 'COMPLETED') throw new Error(`the run ended ${result.execution.status}, not COMPLETED: ${JSON.stringify(result.diagnostics)}`);
  const parsed = CapabilityResultSchema.safeParse(result);
  if (!parsed.success) throw new Error(`the result is not a valid CapabilityResult: ${parsed.error.message}`);
  return result.output as O;
}

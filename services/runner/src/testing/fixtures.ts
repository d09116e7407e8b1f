import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  admitRequest,
  createLocalFolderArtifactStore,
  createProcessPool,
  executeCapability,
  installCapability,
  type ArtifactStore,
  type CapabilityDefinition,
  type CapabilityRequestInput,
  type CapabilityResult,
  type InstalledCapability,
  type IsolatedExecutor,
  type ProviderRuntime,
  CapabilityRequestSchema,
} from '@jacobian/shared';

export const FAKE_RUNTIME: ProviderRuntime = {
  provider: 'test-provider',
  availability: 'AVAILABLE',
  version: '0.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: 'a'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

/** A temporary artifact store and process pool, removed on dispose. */
export interface CapabilityHarness extends AsyncDisposable {
  root: string;
  artifacts: ArtifactStore;
  executor: IsolatedExecutor;
  install<I, O>(definition: CapabilityDefinition<I, O>, runtime?: ProviderRuntime): InstalledCapability;
  run(capability: InstalledCapability, request: CapabilityRequestInput, signal?: AbortSignal): Promise<CapabilityResult>;
  /** Every file under the store's folder, to prove that nothing was written. */
  files(): Promise<string[]>;
}

export async function createCapabilityHarness(): Promise<CapabilityHarness> {
  const root = await mkdtemp(join(tmpdir(), 'jacobian-runner-'));
  const artifacts = createLocalFolderArtifactStore({ root });
  const executor = createProcessPool({ size: 1 });
  return {
    root,
    artifacts,
    executor,
    install: (definition, runtime = FAKE_RUNTIME) => installCapability(definition, runtime, null),
    async run(capability, request, signal = new AbortController().signal) {
      return executeCapability(capability, admitRequest(CapabilityRequestSchema.parse(request)), { artifacts, executor }, signal);
    },
    async files() {
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
    },
    async [Symbol.asyncDispose]() {
      await executor.close();
      await artifacts.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

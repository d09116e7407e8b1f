/**
 * A runner process for the split-enumeration tests (enumerate-shards.test.ts): a BullMQ run
 * worker of the `heavy` pool serving graph.enumerate.nonisomorphic through createRunner (so
 * with the runner's own shard handler), in its own process, so that shard jobs spread over
 * runners as they do in a cluster. A test entry point, started with `node --import tsx`, and
 * configured by environment:
 *
 * - JACOBIAN_TEST_REDIS_URL, JACOBIAN_TEST_PREFIX
 * - JACOBIAN_TEST_BACKEND: `geng` or `typescript`
 * - JACOBIAN_TEST_ARTIFACT_ROOT: its local-folder artifact store (the processes of a test share one)
 * - JACOBIAN_TEST_MARKER_DIR: where it writes `<pid>.<job ID>` for every run it completes
 *
 * It prints `ready` once it takes jobs and closes on SIGTERM.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capabilityRegistration, createLocalFolderArtifactStore, createProcessPool, type ProviderRuntime } from '@jacobian/shared';
import { createBullmqRunWorker } from '@jacobian/shared/redis';
import { createRunner } from '../runner.js';
import { ENUMERATE_TS_PROVIDER, enumerateNonisomorphic } from './enumerate.js';
import { probeGeng } from './enumerate-geng.js';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`enumerate-shards-worker: ${name} is not set`);
  return value;
}

const url = required('JACOBIAN_TEST_REDIS_URL');
const prefix = required('JACOBIAN_TEST_PREFIX');
const backend = required('JACOBIAN_TEST_BACKEND');
const markerDir = required('JACOBIAN_TEST_MARKER_DIR');
const artifacts = createLocalFolderArtifactStore({ root: required('JACOBIAN_TEST_ARTIFACT_ROOT') });
const executor = createProcessPool({ size: 1 });

const TS_RUNTIME: ProviderRuntime = {
  provider: ENUMERATE_TS_PROVIDER,
  availability: 'AVAILABLE',
  version: '0.0.0',
  digest_kind: 'SOURCE_TREE',
  digest: 'b'.repeat(64),
  platform: 'test',
  install_tier: 'T0',
  license_id: 'MIT',
  license_files: [],
  features: [],
};

const registration =
  backend === 'geng'
    ? await (async () => {
        const { tool, runtime } = await probeGeng();
        return capabilityRegistration({ name: runtime.provider, probe: () => Promise.resolve(runtime) }, () => enumerateNonisomorphic({ kind: 'geng', tool }));
      })()
    : capabilityRegistration({ name: ENUMERATE_TS_PROVIDER, probe: () => Promise.resolve(TS_RUNTIME) }, () => enumerateNonisomorphic({ kind: 'typescript' }));

const runner = await createRunner({ artifacts, executor, registrations: [registration] });

const worker = createBullmqRunWorker({
  connection: { url },
  prefix,
  targets: [{ kind: 'pool', pool: 'heavy' }],
  concurrency: 1,
  handler: async (run, signal, onProgress) => {
    const result = await runner.handle(run, signal, onProgress);
    if (result.execution.status === 'COMPLETED') writeFileSync(join(markerDir, `${process.pid}.${run.job_id}`), '');
    return result;
  },
  shards: runner.shards,
  onError: (error) => process.stderr.write(`enumerate-shards-worker: ${error.message}\n`),
});
await worker.waitUntilReady();
process.stdout.write('ready\n');

process.once('SIGTERM', () => {
  void (async () => {
    await worker.close({ graceMs: 0 });
    await executor.close();
    await artifacts.close();
    process.exit(0);
  })();
});

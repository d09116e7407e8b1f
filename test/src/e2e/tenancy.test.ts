/**
 * Remote access end to end: `jacobian serve` with JACOBIAN_AUTH_FILE, two tenants with static
 * tokens, SDK clients of both protocol eras. A request without a token is refused; each tenant's
 * runs are its own jobs; neither can read the other's artifacts (even knowing their digests),
 * use them as inputs, or read the other's reasoning log.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client, ResourceNotFoundError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { tokenDigest } from '@jacobian/mcp-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { listStore } from '../support/fs-snapshot.js';
import { E2E_TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS, startJacobian, type JacobianFixture } from '../support/jacobian.js';
import { requestTargetViolations } from '../support/request-targets.js';
import { errorDiagnostic, mathRun, readArtifact } from '../support/tools.js';

const ACME = 'acme-token-7c1f0e2a9b';
const GLOBEX = 'globex-token-55d3a1c0e4';

let folder: string;
let jacobian: JacobianFixture;
const clients: Client[] = [];

async function connect(token: string | undefined, era: 'modern' | 'legacy'): Promise<Client> {
  const server = jacobian.http;
  if (server === undefined) throw new Error('no HTTP server');
  const info = { name: 'tenancy-e2e', version: '1.0.0' };
  const client = era === 'modern' ? new Client(info, { versionNegotiation: { mode: 'auto' } }) : new Client(info);
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(server.url, { requestInit: { headers } }));
  clients.push(client);
  return client;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'jacobian-tenancy-'));
  const authFile = join(folder, 'auth.json');
  await writeFile(
    authFile,
    JSON.stringify({
      resource: 'http://127.0.0.1/mcp',
      tokens: [
        { sha256: tokenDigest(ACME), tenant: 'acme' },
        { sha256: tokenDigest(GLOBEX), tenant: 'globex' },
      ],
    }),
  );
  jacobian = await startJacobian({ env: { JACOBIAN_AUTH_FILE: authFile, JACOBIAN_REASONING_MODE: 'AUDIT', JACOBIAN_CONCURRENCY: '2' } });
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await jacobian?.close();
  await rm(folder, { recursive: true, force: true });
}, HOOK_TIMEOUT_MS);

const construct = { capability_id: 'graph.construct.explicit', mode: 'EXPLORE', payload: { order: 4, edges: [[0, 1], [1, 2], [2, 3], [3, 0]] } };

describe('two tenants on one authenticated server', () => {
  it('refuses a client without a token', async () => {
    await expect(connect(undefined, 'legacy')).rejects.toThrow(/invalid_token/);
  }, E2E_TEST_TIMEOUT_MS);

  it('keeps each tenant\'s runs, artifacts and reasoning log to itself', async () => {
    const acme = await connect(ACME, 'modern');
    const globex = await connect(GLOBEX, 'legacy');

    const stored = await mathRun(acme, construct);
    expect(stored.result.execution.status).toBe('COMPLETED');
    const uri = (stored.result.output as { graph_uri: string }).graph_uri;
    expect(stored.result.execution.job_id).toMatch(/\.acme$/);
    expect((await readArtifact(acme, uri)).uri).toBe(uri);
    // The artifact is in acme's store, and nowhere else: in its journal as the run returns, in its
    // files once the store has written them (after a pause in puts; see shared/src/artifacts/local-journal.ts).
    const hex = uri.slice('artifact://sha256/'.length);
    const manifest = join('manifests', 'sha256', hex.slice(0, 2), hex);
    const holds = async (root: string): Promise<boolean> => (await listStore(root)).some((line) => line.startsWith(`${manifest} `));
    expect(await holds(join(jacobian.dataDir, 'artifacts', 'tenants', 'acme'))).toBe(true);
    expect(await holds(join(jacobian.dataDir, 'artifacts'))).toBe(false);
    const acmeFile = join(jacobian.dataDir, 'artifacts', 'tenants', 'acme', manifest);
    for (let tries = 0; tries < 500 && !existsSync(acmeFile); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(existsSync(acmeFile)).toBe(true);
    expect(existsSync(join(jacobian.dataDir, 'artifacts', manifest))).toBe(false);

    // globex knows the digest, but cannot read it, nor compute on it.
    await expect(globex.readResource({ uri })).rejects.toBeInstanceOf(ResourceNotFoundError);
    const triangles = { capability_id: 'graph.triangle_count.compute', mode: 'EXPLORE', payload: { graph_uri: uri } };
    const refused = await mathRun(globex, triangles);
    expect(refused.result.execution.status).toBe('ERROR');
    expect(errorDiagnostic(refused.result).code).toMatch(/ARTIFACT/);
    const counted = await mathRun(acme, triangles);
    expect(counted.result.execution.status).toBe('COMPLETED');

    // The same request from globex is globex's own job, computed into globex's store.
    const own = await mathRun(globex, construct);
    expect(own.result.execution.status).toBe('COMPLETED');
    expect(own.result.execution.job_id).toMatch(/\.globex$/);
    expect(own.result.execution.request_digest).toBe(stored.result.execution.request_digest);
    expect((await readArtifact(globex, uri)).uri).toBe(uri);

    // Reasoning logs: acme's run is not globex's to read.
    const plan = await acme.callTool({ name: 'reasoning.write', arguments: { phase: 'PLAN', summary: 'Count triangles of a square.' } });
    const runId = (plan.structuredContent as { reasoning_run_id: string }).reasoning_run_id;
    expect((await acme.readResource({ uri: `reasoning://run/${runId}` })).contents).toHaveLength(1);
    await expect(globex.readResource({ uri: `reasoning://run/${runId}` })).rejects.toBeInstanceOf(ResourceNotFoundError);
  }, E2E_TEST_TIMEOUT_MS);

  it('cannot be reached around its authentication: every request-target variant over a raw socket', async () => {
    const port = Number(jacobian.http?.url.port);
    expect(port).toBeGreaterThan(0);
    expect(await requestTargetViolations(port, ACME)).toEqual([]);
  }, E2E_TEST_TIMEOUT_MS);
});

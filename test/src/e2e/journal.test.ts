/**
 * The embedded store's journal end to end: `jacobian serve` makes an artifact durable through
 * its journal, is killed (SIGKILL, as a crash), loses the artifact's files, and on its next
 * start restores them from the journal before serving them; a clean stop removes the journal.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { reapProcessesWithEnv } from '@jacobian/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { commandEnvironment, E2E_TEST_TIMEOUT_MS, startHttpServer, type HttpServerProcess } from '../support/jacobian.js';
import { waitForExit } from '../support/proc.js';
import { mathRun, readArtifact } from '../support/tools.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connect(server: HttpServerProcess): Promise<Client> {
  const client = new Client({ name: 'journal-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(server.url));
  cleanups.push(() => client.close().catch(() => undefined));
  return client;
}

async function journalFiles(dataDir: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'artifacts', 'journal')).catch(() => [] as string[])).filter((name) => name.endsWith('.log')).sort();
}

describe('jacobian serve after a crash', () => {
  it('restores from its journal the artifacts whose files the crash lost', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'jacobian-journal-e2e-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    cleanups.push(() => reapProcessesWithEnv('JACOBIAN_DATA_DIR', dataDir, 5_000));
    const env = commandEnvironment({ JACOBIAN_DATA_DIR: dataDir });

    const first = await startHttpServer(env);
    cleanups.push(() => first.stop());
    const stored = await mathRun(await connect(first), {
      capability_id: 'artifact.put',
      payload: { schema_uri: 'urn:example:schema:journal/v1', semantics_uri: 'urn:example:semantics:journal/v1', payload: { kept: 'through a crash' } },
    });
    expect(stored.result.execution.status).toBe('COMPLETED');
    const uri = (stored.result.output as { artifact_uri: string }).artifact_uri;
    const firstJournal = await journalFiles(dataDir);
    expect(firstJournal).toHaveLength(2);

    process.kill(first.pid, 'SIGKILL');
    expect(await waitForExit(first.pid, 10_000)).toBe(true);
    // What a crash before the files reached the disk leaves: no files at all.
    const hex = uri.slice('artifact://sha256/'.length);
    await rm(join(dataDir, 'artifacts', 'manifests', 'sha256', hex.slice(0, 2), hex), { force: true });
    await rm(join(dataDir, 'artifacts', 'blobs'), { recursive: true, force: true });
    expect(await journalFiles(dataDir)).toEqual(firstJournal);

    const second = await startHttpServer(env);
    cleanups.push(() => second.stop());
    const read = await readArtifact(await connect(second), uri);
    expect(read.uri).toBe(uri);
    expect(read.payload).toEqual({ kept: 'through a crash' });
    // The dead server's journal is gone; the new one has its own.
    const secondJournal = await journalFiles(dataDir);
    expect(secondJournal).toHaveLength(2);
    expect(secondJournal.some((name) => firstJournal.includes(name))).toBe(false);

    expect((await second.stop()).graceful).toBe(true);
    expect(await journalFiles(dataDir)).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { createFileReasoningLogStore } from './file-store.js';
import type { ReasoningEvent } from './log.js';
import { describeReasoningLogStoreContract } from './store-contract.js';
import { rejection } from './test-fixtures.js';

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'jacobian-reasoning-'));
}

describeReasoningLogStoreContract('file (JSONL per run)', async () => {
  const directory = await tempDir();
  const store = createFileReasoningLogStore({ directory });
  return {
    store,
    reopen: () => createFileReasoningLogStore({ directory }),
    async [Symbol.asyncDispose]() {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
});

function event(runId: string, sequence: number): ReasoningEvent {
  return { type: 'PLAN', sequence, run_id: runId, recorded_at: '2025-01-01T00:00:00.000Z', summary: `entry ${sequence}` };
}

/** The file's lines, each parsed; the file must end with a newline. */
async function lines(file: string): Promise<unknown[]> {
  const text = await readFile(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as unknown);
}

describe('file reasoning log store', () => {
  const directories: string[] = [];
  afterEach(async () => {
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });
  async function open(): Promise<{ directory: string; store: ReturnType<typeof createFileReasoningLogStore> }> {
    const directory = await tempDir();
    directories.push(directory);
    return { directory, store: createFileReasoningLogStore({ directory: path.join(directory, 'log') }) };
  }

  it('keeps one JSONL file per run, one event per line, and creates its folder on the first append', async () => {
    const { directory, store } = await open();
    const runId = randomUUID();
    expect(await store.read(runId)).toEqual([]);
    await expect(readdir(directory)).resolves.toEqual([]);
    await store.append(event(runId, 1));
    await store.append(event(runId, 2));
    expect(await readdir(path.join(directory, 'log'))).toEqual([`${runId}.jsonl`]);
    expect(await lines(path.join(directory, 'log', `${runId}.jsonl`))).toEqual([event(runId, 1), event(runId, 2)]);
  });

  it('ignores a torn trailing line (an unacknowledged append) and cuts it off at the next append', async () => {
    const { directory, store } = await open();
    const runId = randomUUID();
    const file = path.join(directory, 'log', `${runId}.jsonl`);
    await store.append(event(runId, 1));
    // A crash in the middle of appending sequence 2: no terminating newline.
    await appendFile(file, JSON.stringify(event(runId, 2)).slice(0, 25));
    expect(await store.read(runId)).toEqual([event(runId, 1)]);
    // Even a complete JSON object without its newline was never acknowledged.
    await writeFile(file, `${JSON.stringify(event(runId, 1))}\n${JSON.stringify(event(runId, 2))}`);
    expect(await store.read(runId)).toEqual([event(runId, 1)]);
    expect(await store.append(event(runId, 3))).toEqual({ appended: false, length: 1 });
    expect(await store.append(event(runId, 2))).toEqual({ appended: true });
    expect(await lines(file)).toEqual([event(runId, 1), event(runId, 2)]);
    expect(await store.read(runId)).toEqual([event(runId, 1), event(runId, 2)]);
  });

  it('refuses a run whose complete lines are damaged, and never rewrites it', async () => {
    const { directory, store } = await open();
    const runId = randomUUID();
    const file = path.join(directory, 'log', `${runId}.jsonl`);
    await store.append(event(runId, 1));
    await appendFile(file, '{"not":"an event"}\n');
    const damaged = await rejection(store.read(runId));
    expect(damaged.code).toBe('REASONING_LOG_CORRUPT');
    expect(damaged.path?.slice(0, 2)).toEqual([runId, 2]);
    expect((await rejection(store.append(event(runId, 3)))).code).toBe('REASONING_LOG_CORRUPT');

    await writeFile(file, `${JSON.stringify(event(runId, 1))}\nnot json\n`);
    expect((await rejection(store.read(runId))).message).toMatch(/line 2: not JSON/);

    // A gap in the numbering is damage too.
    await writeFile(file, `${JSON.stringify(event(runId, 1))}\n${JSON.stringify(event(runId, 3))}\n`);
    expect((await rejection(store.read(runId))).message).toMatch(/line 2 holding sequence 3/);
    expect(await readFile(file, 'utf8')).toBe(`${JSON.stringify(event(runId, 1))}\n${JSON.stringify(event(runId, 3))}\n`);
  });

  it('rejects an empty directory option', () => {
    expect(() => createFileReasoningLogStore({ directory: ' ' })).toThrow(/directory must be a non-empty folder path/);
  });
});

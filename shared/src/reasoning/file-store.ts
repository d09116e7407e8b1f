import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import path from 'node:path';

import { JacobianError } from '../errors.js';
import { syncDirectory } from '../fs-durable.js';
import { parseStoredEvent, type ReasoningEvent } from './log.js';
import { checkEventToAppend, isRunId, storeClosed, storeUnavailable, type AppendResult, type ReasoningLogStore } from './store.js';

/** Options of {@link createFileReasoningLogStore}. */
export interface FileReasoningLogStoreOptions {
  /** Folder holding one `<run_id>.jsonl` file per run; created on the first append. */
  directory: string;
}

/**
 * Appends to one file are serialized in this process, across every store object over the same
 * folder (a restarted service in a test, two services in one process). A lock table per store
 * object would let two objects over one folder interleave their check-then-append. Processes do
 * not share it: one process owns a folder, as one runtime owns a tenant state directory.
 */
const fileLocks = new Map<string, Promise<void>>();

async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const previous = fileLocks.get(file) ?? Promise.resolve();
  const result = previous.then(fn);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  fileLocks.set(file, tail);
  try {
    return await result;
  } finally {
    if (fileLocks.get(file) === tail) fileLocks.delete(file);
  }
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** A run file's complete lines, parsed, and the byte length they occupy. */
interface Scan {
  events: ReasoningEvent[];
  /** Bytes up to and including the last `\n`. */
  completeBytes: number;
  /** Bytes after the last `\n`: a torn append, never acknowledged. */
  tornBytes: number;
}

/**
 * Parse a run file. Only lines ending in `\n` count: an append writes its line and its `\n` in
 * one write and acknowledges only after fsync, so a tail without `\n` is an append that crashed
 * before it was acknowledged, and is ignored (the next append truncates it away). A complete
 * line that does not parse, or breaks the numbering, is damage: refused, never repaired.
 */
function scan(runId: string, bytes: Buffer): Scan {
  const lastNewline = bytes.lastIndexOf(0x0a);
  const completeBytes = lastNewline + 1;
  const events: ReasoningEvent[] = [];
  const text = bytes.subarray(0, completeBytes).toString('utf8');
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  for (const [index, line] of lines.entries()) {
    const where = [runId, index + 1];
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new JacobianError('REASONING_LOG_CORRUPT', `reasoning log of run ${runId} has a damaged line ${index + 1}: not JSON`, { path: where });
    }
    const event = parseStoredEvent(value, where);
    if (event.sequence !== index + 1 || event.run_id !== runId) {
      throw new JacobianError('REASONING_LOG_CORRUPT', `reasoning log of run ${runId} has line ${index + 1} holding sequence ${event.sequence} of run ${event.run_id}`, {
        path: where,
      });
    }
    events.push(event);
  }
  return { events, completeBytes, tornBytes: bytes.byteLength - completeBytes };
}

/**
 * The embedded reasoning-log store: `directory/<run_id>.jsonl`, one event per line, appended
 * with `O_APPEND` and fsynced before `append` resolves. The conditional append holds an
 * in-process lock on the file while it re-reads the file, compares the number of complete
 * lines with `event.sequence - 1`, drops a torn tail left by a crash (see {@link scan}) and
 * writes. Nothing is ever rewritten in place.
 *
 * @throws JacobianError `CONFIG_INVALID` for an empty directory.
 */
export function createFileReasoningLogStore(options: FileReasoningLogStoreOptions): ReasoningLogStore {
  if (typeof options.directory !== 'string' || options.directory.trim() === '') {
    throw new JacobianError('CONFIG_INVALID', 'directory must be a non-empty folder path for the reasoning log', { path: ['directory'] });
  }
  const directory = path.resolve(options.directory);
  let closed = false;
  const fileOf = (runId: string): string => path.join(directory, `${runId}.jsonl`);

  async function load(runId: string): Promise<Scan | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(fileOf(runId));
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return null;
      throw storeUnavailable('read', runId, error);
    }
    return scan(runId, bytes);
  }

  return {
    async read(runId) {
      if (closed) throw storeClosed('read');
      if (!isRunId(runId)) return [];
      return withFileLock(fileOf(runId), async () => (await load(runId))?.events ?? []);
    },

    async append(candidate): Promise<AppendResult> {
      if (closed) throw storeClosed('append');
      const event = checkEventToAppend(candidate);
      const runId = event.run_id;
      const file = fileOf(runId);
      return withFileLock(file, async () => {
        const current = await load(runId);
        const length = current?.events.length ?? 0;
        if (length !== event.sequence - 1) return { appended: false, length };
        try {
          if (current === null) await mkdir(directory, { recursive: true });
          else if (current.tornBytes > 0) await truncate(file, current.completeBytes);
          const handle = await open(file, 'a');
          try {
            await handle.write(`${JSON.stringify(event)}\n`);
            await handle.sync();
          } finally {
            await handle.close();
          }
          if (current === null) await syncDirectory(directory);
        } catch (error) {
          throw storeUnavailable('append', runId, error);
        }
        return { appended: true };
      });
    },

    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}

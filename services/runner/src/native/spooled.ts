/**
 * Running a native tool through the launcher (launcher.ts) with files instead of pipes: its input
 * (if any) is a file, its stdout a spool file read as it grows, its stderr comes back with its exit.
 *
 * Why files: Node connects a child's stdio through socket pairs, and a tool writes a pipe 4 KiB at
 * a time, each write waking the reader. On 10 shards of geng -c 10, piping raised geng's system
 * time from 80 to 250 ms and the wall time by about 5 %; writing a file, a tool runs as it does
 * with its output redirected to a file. Why the launcher: see launcher.ts (a fork of this
 * process costs about 3 ms at 180 MB, with the event loop blocked).
 *
 * Both files are in the system's temporary folder (/tmp is an emptyDir for scratch files in
 * infra/k8s). An input file is created exclusively under a random name as the run starts. A spool
 * file is made ahead, without a name (see {@link SpoolSupply}), or else created like an input
 * file. The launcher opens them for the tool and unlinks the named ones before it starts (the
 * tool and this reader keep them open), so nothing is left behind once the tool runs, whatever
 * happens, and this process unlinks them when it could not start. The spool file holds at most
 * about `maxOutputBytes` (see {@link SPOOL_SIZE_CHECK_MS}).
 */
import { close, closeSync, fstatSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { JacobianError, toAppError } from '@jacobian/shared';
import { LaunchFileError, sharedLauncher, type LaunchedTool } from './launcher.js';
import { addressSpaceLimitKiB, MemoryWatch, readTail } from './memory.js';
import { scratchFile, sharedSpools, unlinkQuietly, type Spool, type SpoolSupply } from './scratch.js';

export { scratchFile, sharedSpools, SpoolSupply, unlinkQuietly, type Spool } from './scratch.js';

/** How a native run is bounded. */
export interface SpooledRunOptions {
  /** Cancels the run: the tool is killed and the promise rejects with EXECUTION_CANCELLED. */
  signal?: AbortSignal | undefined;
  /** Epoch ms at which the tool is killed and the promise rejects with EXECUTION_TIMEOUT. */
  deadline: number;
  /** Most stdout bytes accepted; past it the tool is killed and the promise rejects with OUTPUT_LIMIT_EXCEEDED. */
  maxOutputBytes: number;
  /** Where the spool file comes from (default: the one this process shares, {@link sharedSpools}). */
  spools?: SpoolSupply | undefined;
  /**
   * The memory budget (budget.memory_mb) of the tool and every process it starts, in MiB: over
   * it the tree is killed and the promise rejects with MEMORY_LIMIT_EXCEEDED (see memory.ts).
   * Absent: no limit (provider probes, on their fixed tiny inputs).
   */
  memoryMb?: number | undefined;
}

/** Most stderr bytes kept from a run: enough for a diagnostic. */
const STDERR_LIMIT = 16 * 1024;

/**
 * Bytes taken from the spool file in one read. geng writes some 40 MB/s of graph6 at order 10,
 * so a read after a {@link SPOOL_POLL_MS} pause finds about 80 kB; a full read is followed at
 * once by the next.
 */
const SPOOL_READ_BYTES = 256 * 1024;
/** Pause before looking again when the spool file holds nothing new and the tool still runs. */
const SPOOL_POLL_MS = 2;
/**
 * How often the spool file's size is checked against `maxOutputBytes` while the tool runs.
 * Reads catch an oversized output as they reach it; this also catches it while the caller makes
 * the reader wait (e.g. pages being stored), so the file never grows more than this interval's
 * worth of output past the limit.
 */
const SPOOL_SIZE_CHECK_MS = 10;

const closeFile = promisify(close);

/**
 * Run `body` with a spool file from `spools`, then unlink the file (if it still has a name) and
 * close it in the background (closing frees its blocks). When the launcher could not reopen a
 * file made ahead, those are given up, and `body` runs once more with a named file.
 */
export async function withSpool<T>(name: string, spools: SpoolSupply, body: (spool: Spool) => Promise<T>): Promise<T> {
  const first = spools.take(name);
  try {
    return await body(first);
  } catch (error) {
    const cause = toAppError(error).cause;
    if (first.named || !(cause instanceof LaunchFileError) || cause.opening !== 'stdout') throw error;
  } finally {
    release(first);
  }
  spools.giveUpAhead();
  const second = spools.take(name);
  try {
    return await body(second);
  } finally {
    release(second);
  }
}

/** Unlink a spool file if it still has a name, and close it; nothing waits for the close. */
function release(spool: Spool): void {
  if (spool.named) unlinkQuietly(spool.file);
  void closeFile(spool.fd).catch(() => undefined);
}

/**
 * Run `tool` (an absolute path; no shell, environment `LC_ALL=C` only) on `input` (its stdin; empty
 * for none), handing what it writes to stdout to `onChunk` as it comes. SIGKILL on the deadline,
 * a cancel, past `maxOutputBytes`, or when `onChunk` throws.
 *
 * `onChunk` gets a view of a buffer that is reused: its bytes are valid until `onChunk` returns,
 * or, when it returns a promise, until that settles; reading waits for the promise (the tool does
 * not: it keeps writing to the file).
 *
 * @returns what the tool wrote to stderr (at most 16 KiB, trimmed), once it exited with status 0
 *   and everything it wrote to stdout was taken.
 * @throws JacobianError PROVIDER_FAILED on a failed start, a non-zero exit (with stderr quoted), a
 *   tool lost with a dead launcher, or a spool file that cannot be made or read; what `onChunk`
 *   threw; EXECUTION_TIMEOUT, EXECUTION_CANCELLED, OUTPUT_LIMIT_EXCEEDED or MEMORY_LIMIT_EXCEEDED
 *   (`memoryMb`; also for a tool that ran out of its address-space cap) when stopped.
 */
export async function runSpooled(tool: string, args: readonly string[], input: string, options: SpooledRunOptions, onChunk: (chunk: Buffer) => Promise<void> | null): Promise<string> {
  const name = path.basename(tool);
  if (options.signal?.aborted === true) throw new JacobianError('EXECUTION_CANCELLED', `${name} was not started: the run was cancelled`);
  if (options.deadline - Date.now() <= 0) throw new JacobianError('EXECUTION_TIMEOUT', `${name} was not started: the wall-time budget was already spent`);
  // Created synchronously: each only changes the folder (tens of microseconds), and the thread
  // pool may be busy syncing other runs' artifacts. Closing the spool file frees its blocks, so
  // that goes to the thread pool.
  let stdin: string | null = null;
  if (input !== '') {
    const created = scratchFile(name, 'input');
    stdin = created.file;
    try {
      const bytes = Buffer.from(input, 'utf8');
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(created.fd, bytes, offset);
    } catch (error) {
      unlinkQuietly(created.file);
      throw new JacobianError('PROVIDER_FAILED', `${name} was not started: its input file ${created.file} could not be written: ${toAppError(error).message}`, { cause: error });
    } finally {
      closeSync(created.fd);
    }
  }
  try {
    // The reader has stopped reading when a run settles: it ends before a run is concluded, and a
    // stopped run's reader reads no more. So the spool file can be closed then.
    return await withSpool(name, options.spools ?? sharedSpools, (spool) => runThroughSpool(tool, args, stdin, spool.file, spool.fd, options, onChunk));
  } catch (error) {
    throw toAppError(error);
  } finally {
    if (stdin !== null) unlinkQuietly(stdin);
  }
}

/** {@link runSpooled} once its spool file `file` is open as `fd` (the tool's stdout, and what is read); `stdin` its input file or null. */
function runThroughSpool(tool: string, args: readonly string[], stdin: string | null, file: string, fd: number, options: SpooledRunOptions, onChunk: (chunk: Buffer) => Promise<void> | null): Promise<string> {
  const name = path.basename(tool);
  return new Promise<string>((resolve, reject) => {
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) {
      reject(new JacobianError('EXECUTION_TIMEOUT', `${name} was not started: the wall-time budget was already spent`));
      return;
    }
    let stopReason: unknown = null;
    let settled = false;
    /** How the tool ended, once it has (or the launcher died with it). */
    let closed: { code: number | null; signal: string | null; stderr: string } | null = null;
    let readerDone = false;
    /** The tool once the launcher started it; a stop before that kills it as soon as it is known. */
    let launched: LaunchedTool | null = null;
    // The reader's pause while the file holds nothing new, cut short (or skipped) once the tool has exited or is stopped.
    let wake: (() => void) | null = null;
    const nap = (ms: number): Promise<void> =>
      new Promise<void>((done) => {
        if (closed !== null || stopReason !== null) {
          setImmediate(done);
          return;
        }
        const timer = setTimeout(() => {
          wake = null;
          done();
        }, ms);
        wake = () => {
          clearTimeout(timer);
          wake = null;
          done();
        };
      });
    const overLimit = (): JacobianError => new JacobianError('OUTPUT_LIMIT_EXCEEDED', `${name} wrote more than ${options.maxOutputBytes} bytes and was killed`);
    const stop = (reason: unknown): void => {
      if (stopReason !== null) return;
      stopReason = reason;
      launched?.kill();
      wake?.();
      finish();
    };
    const onAbort = (): void => stop(new JacobianError('EXECUTION_CANCELLED', `${name} was killed: the run was cancelled`));
    const memory = options.memoryMb === undefined ? null : new MemoryWatch(name, options.memoryMb, (error) => stop(error));
    const timer = setTimeout(() => stop(new JacobianError('EXECUTION_TIMEOUT', `${name} was killed at the end of the wall-time budget`)), remaining);
    const sizeCheck = setInterval(() => {
      try {
        if (fstatSync(fd).size > options.maxOutputBytes) stop(overLimit());
      } catch (error) {
        stop(new JacobianError('PROVIDER_FAILED', `${name}'s spool file could not be examined: ${toAppError(error).message}`, { cause: error }));
      }
    }, SPOOL_SIZE_CHECK_MS);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (outcome: { error: unknown } | { stderr: string }): void => {
      if (settled) return;
      settled = true;
      memory?.stop();
      clearTimeout(timer);
      clearInterval(sizeCheck);
      options.signal?.removeEventListener('abort', onAbort);
      if ('error' in outcome) reject(toAppError(outcome.error));
      else resolve(outcome.stderr);
    };
    // The outcome is known once the tool is gone and, unless it was stopped, everything it wrote was taken.
    const finish = (): void => {
      if (closed === null) return;
      if (stopReason !== null) {
        settle({ error: stopReason });
        return;
      }
      if (!readerDone) return;
      const { code, signal } = closed;
      const errText = closed.stderr.trim();
      if (code !== 0) {
        // A tool that ran out of its address-space cap says so on stderr or stdout (Singular).
        const outOfMemory = memory?.explainExit(code, signal, `${errText}\n${readTail(fd, STDERR_LIMIT)}`) ?? null;
        if (outOfMemory !== null) {
          settle({ error: outOfMemory });
          return;
        }
        const detail = errText === '' ? '' : `: ${errText.slice(0, 500)}`;
        settle({ error: new JacobianError('PROVIDER_FAILED', `${name} exited with ${code === null ? `signal ${signal ?? 'unknown'}` : `status ${code}`}${detail}`) });
        return;
      }
      settle({ stderr: errText });
    };

    sharedLauncher()
      .launch({ file: tool, args, env: { LC_ALL: 'C' }, stdinFile: stdin, stdoutFile: file, stderrLimit: STDERR_LIMIT, addressSpaceKiB: options.memoryMb === undefined ? null : addressSpaceLimitKiB(options.memoryMb) })
      .then(
        (started) => {
          launched = started;
          if (stopReason !== null) started.kill();
          else memory?.start(started.pid);
          started.exited.then(
            (exit) => {
              closed = exit;
              wake?.();
              finish();
            },
            (error: unknown) => {
              // The launcher died and took the tool with it: nothing it wrote is vouched for.
              const lost = new JacobianError('PROVIDER_FAILED', `${name} was lost: ${toAppError(error).message}`, { cause: error });
              if (stopReason === null) stop(lost);
              closed = { code: null, signal: 'SIGKILL', stderr: '' };
              finish();
            },
          );
        },
        (error: unknown) => {
          // Never started: there is no exit to wait for.
          stopReason ??= new JacobianError('PROVIDER_FAILED', `${name} could not be started: ${toAppError(error).message}`, { cause: error });
          wake?.();
          settle({ error: stopReason });
        },
      );

    // The reader: synchronous reads of what the tool wrote (page cache, tens of microseconds; the
    // thread pool may be busy with file writes and syncs), each followed by a turn of the event
    // loop. The file is read to its end once the tool has exited.
    void (async () => {
      const buffer = Buffer.allocUnsafe(SPOOL_READ_BYTES);
      let position = 0;
      while (stopReason === null) {
        const ended = closed !== null;
        const got = readSync(fd, buffer, 0, buffer.length, position);
        if (got === 0) {
          if (ended) break;
          await nap(SPOOL_POLL_MS);
          continue;
        }
        position += got;
        if (position > options.maxOutputBytes) {
          stop(overLimit());
          break;
        }
        const wait = onChunk(buffer.subarray(0, got));
        if (wait !== null) await wait;
        else if (got < buffer.length) await nap(SPOOL_POLL_MS);
        else await new Promise<void>((done) => setImmediate(done));
      }
      readerDone = true;
      finish();
    })().catch((error: unknown) => stop(error));
  });
}

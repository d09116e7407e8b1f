/**
 * Entry point of a pool child process, forked by `process-pool.ts`: compiled (child-entry.js,
 * plain `node`, compiled kernels) or, from the TypeScript sources, with tsx preloaded.
 *
 * The child is deliberately dumb: it imports kernels, runs one at a time, and reports back.
 * Every hard limit (wall time, memory, cancellation) is enforced by the parent with SIGKILL,
 * because a kernel stuck in a synchronous loop cannot be asked politely to stop.
 */
import { JacobianError, toAppError, type SerializedError } from '../errors.js';
import type { RunProgress } from '../contracts/progress.js';
import type { KernelContext } from './process-pool.js';
import { isParentMessage, type ChildMessage, type RunMessage } from './protocol.js';

function send(message: ChildMessage): void {
  // Without an IPC channel there is nobody to report to; the guard below already exited.
  // A parent that died mid-task closes the channel: leave quietly instead of crashing on an
  // unhandled 'error' event, since nobody is left to read the answer.
  process.send?.(message, undefined, {}, (error: Error | null) => {
    if (error) process.exit(0);
  });
}

if (typeof process.send !== 'function') {
  process.stderr.write('child-entry must be started with child_process.fork (no IPC channel)\n');
  process.exit(1);
}

// Node caches ES modules itself; this map additionally avoids re-resolving the URL on every
// task and makes "imported once per child" an explicit property of this file.
const modules = new Map<string, Promise<Record<string, unknown>>>();
let current: { id: number; controller: AbortController } | undefined;

function loadModule(url: string): Promise<Record<string, unknown>> {
  let pending = modules.get(url);
  if (pending === undefined) {
    pending = import(url) as Promise<Record<string, unknown>>;
    modules.set(url, pending);
  }
  return pending;
}

function serializeFailure(error: unknown, signal: AbortSignal): SerializedError {
  // A kernel that gives up because ctx.signal fired usually rethrows a DOMException
  // AbortError (or the reason itself); report the reason so the parent sees the real cause.
  if (
    signal.aborted &&
    !(error instanceof JacobianError) &&
    (error === signal.reason || (error instanceof Error && error.name === 'AbortError'))
  ) {
    return toAppError(signal.reason).toJSON();
  }
  return toAppError(error).toJSON();
}

async function runKernel(message: RunMessage): Promise<void> {
  const controller = new AbortController();
  current = { id: message.id, controller };
  try {
    const module = await loadModule(message.moduleUrl);
    const fn = module[message.exportName];
    if (typeof fn !== 'function') {
      throw new JacobianError(
        'INTERNAL',
        `kernel module ${message.moduleUrl} has no exported function "${message.exportName}"`,
      );
    }
    const ctx: KernelContext = Object.freeze({
      deadline: message.deadline,
      signal: controller.signal,
      progress: (progress: RunProgress) => {
        if (current?.id === message.id) send({ type: 'progress', id: message.id, progress });
      },
    });
    const output: unknown = await (fn as (input: unknown, ctx: KernelContext) => unknown)(message.input, ctx);

    let json: string | undefined;
    try {
      json = JSON.stringify(output);
    } catch (error) {
      throw new JacobianError('INTERNAL', `kernel output is not JSON-serializable: ${toAppError(error).message}`);
    }
    // JSON has no `undefined`; report it the way JSON does inside arrays.
    const outputJson = json ?? 'null';
    const bytes = Buffer.byteLength(outputJson, 'utf8');
    // Refuse here, before the bytes are copied into the IPC pipe and the parent's heap.
    if (bytes > message.maxOutputBytes) {
      throw new JacobianError(
        'OUTPUT_LIMIT_EXCEEDED',
        `kernel output is ${bytes} bytes of JSON, over the limit of ${message.maxOutputBytes}`,
        { data: { outputBytes: bytes, maxOutputBytes: message.maxOutputBytes } },
      );
    }
    send({ type: 'result', id: message.id, outputJson, rssBytes: process.memoryUsage.rss() });
  } catch (error) {
    send({ type: 'error', id: message.id, error: serializeFailure(error, controller.signal) });
  } finally {
    current = undefined;
  }
}

process.on('message', (raw: unknown) => {
  if (!isParentMessage(raw)) return;
  if (raw.type === 'soft-cancel') {
    if (current?.id === raw.id) {
      current.controller.abort(
        new JacobianError('EXECUTION_TIMEOUT', 'soft deadline reached; the kernel was asked to stop'),
      );
    }
    return;
  }
  if (current !== undefined) {
    // The parent never overlaps tasks on one child; refusing keeps a protocol bug visible.
    send({
      type: 'error',
      id: raw.id,
      error: { code: 'INTERNAL', message: `child ${process.pid} is already running task ${current.id}` },
    });
    return;
  }
  void runKernel(raw);
});

// The parent is gone (or closed the channel): nobody can receive results, so stop now rather
// than linger as an orphan.
process.on('disconnect', () => process.exit(0));

/**
 * Import the kernel modules the parent names after `--warm` (file:// URLs) and run the `warmUp`
 * each exports, if any, before saying ready: the one-time start-up a run would otherwise pay on
 * first use (see ProcessPool's warm modules). A module that fails here is left to the run that
 * needs it, which reports the failure; one that takes longer than {@link WARM_UP_MAX_MS} is left
 * to finish in the background, so that a slow one cannot keep the child from starting.
 */
const WARM_UP_MAX_MS = 10_000;

async function warmUp(urls: readonly string[]): Promise<void> {
  const all = Promise.all(
    urls.map(async (url) => {
      try {
        const module = await loadModule(url);
        const warm = module['warmUp'];
        if (typeof warm === 'function') await (warm as () => unknown)();
      } catch {
        // reported by the run that needs it
      }
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, WARM_UP_MAX_MS)))]);
  clearTimeout(timer);
}

const warm = process.argv.indexOf('--warm');
void warmUp(warm < 0 ? [] : process.argv.slice(warm + 1)).then(() => send({ type: 'ready' }));

/**
 * The process-wide z3-solver instance of a pool child: loaded once, one Context per role. The
 * z3 kernels (graph, countermodel) and the provider's health check all run through it, so the
 * check proves the very start-up and solving path the kernels use.
 *
 * It imports nothing but z3-solver and the error class: the health check runs in a new pool
 * child at a cold start, where loading the whole shared workspace (its contracts and zod
 * schemas, 0.2-0.6 s on a busy host) would only delay it.
 */
import type { Context, Z3HighLevel, Z3LowLevel } from 'z3-solver';
import { JacobianError } from '@jacobian/shared/errors';

/** The initialized z3-solver API (high-level plus low-level bindings). */
export type Z3Api = Z3HighLevel & Z3LowLevel;

/** The Context name every Z3 object made through {@link withZ3Context} carries. */
export type Z3ContextName = 'jacobian';

/*
 * Module-level caches, deliberate: the kernels run inside a long-lived, isolated child
 * process that serves many requests.
 *
 * - The initialized WASM module: `init()` compiles a large binary and starts worker threads
 *   (~0.3-0.5 s), which would dominate small requests if repeated.
 * - One Context per role. Measured with z3-solver 5.2.0, a Context is never reclaimed once
 *   created (about 10 MB of WASM heap each, even after GC), so a Context per request would
 *   exhaust the 2 GiB WASM memory after ~200 requests. Reusing one is safe because requests
 *   add nothing to the Context itself: every query lives in its own Solver (own SMT-LIB
 *   declarations, released eagerly), and an interrupt does not outlive the check it stopped.
 * - Each role's Context is used by one task at a time (a promise-chain lock): Z3 contexts are
 *   not thread-safe, and a check runs on a worker thread while the main thread stays free.
 */
let z3ApiPromise: Promise<Z3Api> | undefined;

interface ContextSlot {
  context: Context<Z3ContextName> | undefined;
  /** Tail of the queue of tasks using this slot's Context. */
  tail: Promise<void>;
}
const contextSlots = new Map<string, ContextSlot>();

/**
 * Load (once per process) and return the initialized z3-solver API.
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE if the package cannot be loaded or initialized.
 */
export function loadZ3(): Promise<Z3Api> {
  if (z3ApiPromise === undefined) {
    z3ApiPromise = import('z3-solver')
      .then((module) => module.init())
      .catch((error: unknown) => {
        // Forget the failed attempt so a later call can retry instead of failing forever.
        z3ApiPromise = undefined;
        throw new JacobianError('PROVIDER_UNAVAILABLE', 'z3-solver could not be initialized', {
          cause: error,
          data: { detail: error instanceof Error ? error.message : String(error) },
        });
      });
  }
  return z3ApiPromise;
}

/**
 * What a pool child does before it says ready when a run of this module was killed before (see
 * the process pool's warm modules): Z3's start-up (about 0.2 s; the first run in a child paid it,
 * and with it about 0.5 s in all), so that a short budget is not spent on it in every new child.
 */
export async function warmUp(): Promise<void> {
  await loadZ3();
}

/**
 * Run `task` with exclusive use of the process-wide Z3 Context for `role` (created on first
 * use). Tasks for the same role run one after another. If `task` throws, the Context is
 * discarded and the next task gets a new one: after an unexpected failure its state is not
 * trusted, and leaking one Context is the lesser cost.
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE if Z3 cannot be initialized; otherwise whatever
 *   `task` throws.
 */
export async function withZ3Context<T>(
  role: string,
  task: (z3: Context<Z3ContextName>) => Promise<T>,
): Promise<T> {
  const api = await loadZ3();
  let slot = contextSlots.get(role);
  if (slot === undefined) {
    slot = { context: undefined, tail: Promise.resolve() };
    contextSlots.set(role, slot);
  }
  const current = slot;
  const previous = current.tail;
  let release!: () => void;
  current.tail = new Promise<void>((resolve) => {
    release = resolve;
  });
  await previous;
  try {
    current.context ??= new api.Context('jacobian');
    return await task(current.context);
  } catch (error) {
    current.context = undefined;
    throw error;
  } finally {
    release();
  }
}

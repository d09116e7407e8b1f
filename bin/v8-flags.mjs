// The V8 flags of every jacobian process, set by the process itself as it starts (see
// applyJacobianV8Flags), so that every way of starting it (npm start, the containers' entry
// points, an MCP client's stdio command, the benchmark's own process) runs the same way.
// Plain JavaScript: bin/jacobian.mjs loads it before tsx's loader is registered.
import { setFlagsFromString } from 'node:v8';

/**
 * - `--always-sparkplug`: every function gets V8's baseline code (Sparkplug) when it is first
 *   compiled, instead of being interpreted until it has run often. A server answers many
 *   questions that each run some code for the first time, or for one of few times (a capability
 *   asked once, a new law set): measured on the countermodel benchmark's first calls, 4.9–5.2 ms
 *   against 5.8–6.3 ms per call, with the same times once warm, for 18 MB more memory and about
 *   0.15 s more to start.
 * - `--no-concurrent-marking` and `--no-concurrent-sweeping`: the collector marks and sweeps the
 *   old generation on the JavaScript thread, in steps between its work, instead of on helper
 *   threads beside it. A jacobian process mostly waits on, or streams beside, a native tool in a
 *   child process (geng, CaDiCaL, Singular…) that wants a core of its own; on two cores, helper
 *   threads marking beside the JavaScript thread take it from the tool. Measured on the graphs
 *   benchmark after other work (n = 10, 10 shards of geng -c 10 per round): the process's other
 *   threads used 560–1,030 ms of CPU per round with them, 310–500 ms without (the rest is the
 *   file writes of libuv's pool). Collection pauses (scavenges, the final pause of a
 *   mark-compact) still use helper threads: the JavaScript thread is stopped then, so they take
 *   no core from anyone. The kernel pool's children (TypeScript providers, all JavaScript, no
 *   tool beside them) are started without these flags.
 *
 * Node keeps V8's flags writable after start for setFlagsFromString. V8 reads the first when it
 * compiles a function and the other two each time the collector starts marking or sweeping, so
 * setting them before anything of Jacobian is compiled is enough (test/src/e2e/cli.test.ts
 * checks the first two in a jacobian process). `--single-threaded-gc` would also turn off the
 * helpers of the pauses, and `--no-parallel-marking` those of a mark-compact's final pause; V8
 * crashed before its first mark-compact finished when either was set this way.
 */
export const JACOBIAN_V8_FLAGS = Object.freeze(['--always-sparkplug', '--no-concurrent-marking', '--no-concurrent-sweeping']);

/** Set {@link JACOBIAN_V8_FLAGS} in this process. Call before anything of Jacobian is loaded. */
export function applyJacobianV8Flags() {
  for (const flag of JACOBIAN_V8_FLAGS) setFlagsFromString(flag);
}

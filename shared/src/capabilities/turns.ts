/**
 * Large synchronous steps of runs, one per turn of the event loop.
 *
 * In `jacobian serve` and `jacobian stdio` the embedded runner shares its thread with the MCP
 * API. Some per-run steps cost this thread time in proportion to the request, above all the
 * parse of a large payload with the capability's schema (a 300 KB inline graph: a few ms, more
 * under load). Runs dispatched together would take these steps back to back, within one turn of
 * the event loop, while no other request (a math.find) is even read. Here each such step waits for
 * a turn of its own: steps run one at a time, in the order they were asked for, each in a later
 * turn than the previous one, so that the I/O ready meanwhile (other requests) is handled between
 * two of them. The cost of one step is not removed, only kept from piling up.
 *
 * New connections come first. libuv accepts one connection per turn of the loop (libuv#3696), so
 * a client connecting behind a burst of N other connections waited N turns, each with a large step
 * in it (the slowest math.find of a burst of twenty large requests waited 0.7-1.4 s in the listen
 * queue). The HTTP server reports each connection it accepts ({@link connectionAccepted});
 * the next step then waits a turn more, until a turn accepts none, so that the connections
 * waiting are all accepted (and their requests read) first. Turns without a step cost microseconds.
 */

const waiting: (() => void)[] = [];
let scheduled = false;
/** Whether a connection was accepted since the last turn that ran (or skipped) a step. */
let accepted = false;
/** Turns in a row given to accepting connections: bounded, so that a steady flood of connections cannot hold the steps back for ever. */
let yielded = 0;
const MAX_TURNS_YIELDED = 64;

function runNext(): void {
  if (accepted && yielded < MAX_TURNS_YIELDED) {
    accepted = false;
    yielded++;
    setImmediate(runNext);
    return;
  }
  accepted = false;
  yielded = 0;
  const step = waiting.shift();
  step?.();
  // Queued from inside an immediate, the next one runs in the next turn, after its I/O.
  if (waiting.length > 0) setImmediate(runNext);
  else scheduled = false;
}

/**
 * Tell the steps that the server accepted a connection in this turn: more may be waiting in the
 * listen queue, so the next step waits for a turn that accepts none (see above).
 */
export function connectionAccepted(): void {
  accepted = true;
}

/**
 * Run `step` (synchronous) in a turn of the event loop of its own, after every step asked for
 * before it; resolves with its value or rejects with what it threw.
 */
export function inOwnTurn<T>(step: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    waiting.push(() => {
      try {
        resolve(step());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    if (!scheduled) {
      scheduled = true;
      setImmediate(runNext);
    }
  });
}

/** Whether `value`, as JSON, is longer than about `limit` characters; stops counting once it is. */
export function jsonLongerThanAbout(value: unknown, limit: number): boolean {
  let length = 0;
  const walk = (node: unknown): boolean => {
    if (typeof node === 'string') length += node.length + 2;
    else if (typeof node === 'number') length += 8;
    else if (node === null || typeof node !== 'object') length += 5;
    else if (Array.isArray(node)) {
      length += 1 + node.length;
      for (const member of node) if (length > limit || walk(member)) return true;
    } else {
      length += 1;
      for (const key in node) {
        length += key.length + 4;
        if (length > limit || walk((node as Record<string, unknown>)[key])) return true;
      }
    }
    return length > limit;
  };
  return walk(value);
}

/**
 * Large synchronous steps of runs, one per turn of the event loop.
 *
 * In `jacobian serve` and `jacobian stdio` the embedded runner shares its thread with the MCP
 * API. Some per-run steps cost this thread time in proportion to the request, above all the
 * parse of a large payload with the capability's schema (a 300 KB inline graph: about 100 ms).
 * Runs dispatched together would take these steps back to back, within one turn of the event
 * loop, while no other request (a math.find) is even read. Here each such step waits for a turn
 * of its own: steps run one at a time, in the order they were asked for, each in a later turn
 * than the previous one, so that the I/O ready meanwhile (other requests) is handled between two
 * of them. The cost of one step is not removed, only kept from piling up.
 */

const waiting: (() => void)[] = [];
let scheduled = false;

function runNext(): void {
  const step = waiting.shift();
  step?.();
  // Queued from inside an immediate, the next one runs in the next turn, after its I/O.
  if (waiting.length > 0) setImmediate(runNext);
  else scheduled = false;
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

/**
 * JSON objects taken from clients as records (`z.record`): a key named `__proto__` is refused.
 *
 * Why: `JSON.parse` gives such a key as an own property, but a record zod builds assigns each key
 * to a new object, and assigning `__proto__` sets that object's prototype instead of adding a
 * key. The key would be dropped without a word: a capability's strict input schema would never
 * see it (so never refuse it), and the request digest would be that of a request the client did
 * not send. So it is refused, at the path where it was found, before anything else happens.
 */
import { z } from 'zod';

/** The key a JavaScript object cannot hold as plain data. */
export const RESERVED_JSON_KEY = '__proto__';

/**
 * The path of the first own `__proto__` key in `value` (depth first, keys in their order), or
 * null when it holds none. Objects and arrays are looked into, at any depth, without recursion;
 * anything else is a leaf.
 */
export function reservedKeyPath(value: unknown): (string | number)[] | null {
  // Each entry knows its parent, so a path is only spelled out for the key found: linear in the size, whatever the depth.
  interface Visit {
    value: unknown;
    key: string | number;
    parent: Visit | null;
  }
  const pathOf = (visit: Visit, last: string): (string | number)[] => {
    const path: (string | number)[] = [last];
    for (let at: Visit | null = visit; at !== null && at.parent !== null; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Visit[] = [{ value, key: '', parent: null }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const current = visit.value;
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push({ value: current[index] as unknown, key: index, parent: visit });
      continue;
    }
    if (Object.hasOwn(current, RESERVED_JSON_KEY)) return pathOf(visit, RESERVED_JSON_KEY);
    const keys = Object.keys(current);
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index]!;
      stack.push({ value: (current as Record<string, unknown>)[key], key, parent: visit });
    }
  }
  return null;
}

/**
 * `schema` (a record, or an object holding records) that first refuses a value with an own
 * `__proto__` key at any depth, naming its path; it advertises the same JSON Schema as `schema`.
 */
export function refusingReservedKeys<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    const path = reservedKeyPath(value);
    if (path !== null) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        path,
        message: `a key may not be ${RESERVED_JSON_KEY}: a JSON object parsed into JavaScript cannot keep it as data (it would be dropped without a word), so it is refused`,
      });
    }
    return value;
  }, schema);
}

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { refusingReservedKeys, reservedKeyPath } from './json-record.js';

/** A value as a client sends it: JSON.parse keeps `__proto__` as an own key. */
const parsed = (text: string): unknown => JSON.parse(text);

describe('reservedKeyPath', () => {
  it('finds an own __proto__ key at any depth, in objects and arrays, and names its path', () => {
    expect(reservedKeyPath(parsed('{"__proto__": 1}'))).toEqual(['__proto__']);
    expect(reservedKeyPath(parsed('{"a": {"b": [0, {"c": 1}, {"__proto__": {}}]}}'))).toEqual(['a', 'b', 2, '__proto__']);
    expect(reservedKeyPath(parsed('[[{"x": {"__proto__": null}}]]'))).toEqual([0, 0, 'x', '__proto__']);
  });

  it('reports the first one, depth first, keys in their order', () => {
    expect(reservedKeyPath(parsed('{"a": {"__proto__": 1}, "b": {"__proto__": 2}}'))).toEqual(['a', '__proto__']);
    expect(reservedKeyPath(parsed('{"b": [{"__proto__": 2}], "a": {"__proto__": 1}}'))).toEqual(['b', 0, '__proto__']);
  });

  it('finds nothing in values without one, nor in a string or key that merely mentions it', () => {
    for (const value of [null, 0, 'x', [], {}, parsed('{"a": "__proto__", "__proto": 1, "proto": {"x": ["__proto__"]}}')]) expect(reservedKeyPath(value)).toBeNull();
    // An inherited __proto__ (every plain object has one) is not a key.
    expect(reservedKeyPath({ a: {} })).toBeNull();
  });

  it('looks into deeply nested JSON without recursion', () => {
    const deep = `${'['.repeat(100_000)}{"__proto__": 1}${']'.repeat(100_000)}`;
    expect(reservedKeyPath(parsed(deep))?.length).toBe(100_001);
  });
});

describe('refusingReservedKeys', () => {
  const Request = z.object({ payload: refusingReservedKeys(z.record(z.string(), z.unknown()).describe('input')) }).strict();

  it('refuses a record holding the key, at its path, instead of dropping it', () => {
    const result = Request.safeParse(parsed('{"payload": {"n": 3, "__proto__": {"n": 4}}}'));
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]).toMatchObject({ code: 'custom', path: ['payload', '__proto__'] });
    expect(result.error?.issues[0]?.message).toContain('may not be __proto__');
    // The control: the bare record takes the same value and loses the key.
    const bare = z.record(z.string(), z.unknown()).parse(parsed('{"n": 3, "__proto__": {"n": 4}}'));
    expect(Object.keys(bare)).toEqual(['n']);
  });

  it('passes every other value through as the wrapped schema parses it', () => {
    expect(Request.parse(parsed('{"payload": {"n": 3, "list": [{"a": 1}]}}'))).toEqual({ payload: { n: 3, list: [{ a: 1 }] } });
    expect(Request.safeParse({ payload: 'x' }).error?.issues[0]?.path).toEqual(['payload']);
  });

  it('advertises the JSON Schema of the wrapped schema, both ways', () => {
    const bare = z.object({ payload: z.record(z.string(), z.unknown()).describe('input') }).strict();
    for (const io of ['input', 'output'] as const) expect(z.toJSONSchema(Request, { io })).toEqual(z.toJSONSchema(bare, { io }));
  });
});

import canonicalizeReference from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  canonicalBytes,
  canonicalDigest,
  canonicalize,
  formatJsonPath,
  sha256Hex,
  type JsonValue,
} from './canonical-json.js';
import { JacobianError, type JsonPath } from './errors.js';

/** Run `fn` and return the JacobianError it throws (failing the test otherwise). */
function thrown(fn: () => unknown): JacobianError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(JacobianError);
    return error as JacobianError;
  }
  throw new Error('expected a JacobianError to be thrown');
}

// Keys are NFC-normalized by the arbitrary so generated objects never collide after NFC;
// string values stay raw so normalization of values is exercised.
const keyArb = fc.string({ unit: 'binary', maxLength: 6 }).map((k) => k.normalize('NFC'));
const stringArb = fc.string({ unit: 'binary', maxLength: 12 });
const intArb = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger(), fc.constant(-0));

const { json: jsonArb } = fc.letrec<{ json: JsonValue }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    intArb,
    stringArb,
    fc.array(tie('json'), { maxLength: 5 }),
    fc.dictionary(keyArb, tie('json'), { maxKeys: 5 }),
  ),
}));

/** Deep copy with every string and key NFC-normalized and -0 turned into 0. */
function normalized(value: JsonValue): JsonValue {
  if (typeof value === 'string') return value.normalize('NFC');
  if (typeof value === 'number') return value === 0 ? 0 : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(normalized);
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, k.normalize('NFC'), { value: normalized(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Deep copy with keys inserted in a seed-dependent order. */
function reordered(value: JsonValue, seed: number): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => reordered(v, seed));
  const entries = Object.entries(value);
  let state = seed >>> 0;
  for (let i = entries.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of entries) {
    Object.defineProperty(out, k, { value: reordered(v, seed), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Put `bad` somewhere inside `value`, steered by `choices`; returns the new value and where. */
function inject(value: JsonValue, bad: unknown, choices: number[]): { value: unknown; path: JsonPath } {
  const [choice = 0, ...rest] = choices;
  if (Array.isArray(value)) {
    if (value.length === 0 || choice % 3 === 0) return { value: [...value, bad], path: [value.length] };
    const index = choice % value.length;
    const inner = inject(value[index]!, bad, rest);
    const copy: unknown[] = [...value];
    copy[index] = inner.value;
    return { value: copy, path: [index, ...inner.path] };
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0 || choice % 3 === 0) {
      let key = 'injected';
      while (Object.hasOwn(value, key)) key += '_';
      return { value: { ...value, [key]: bad }, path: [key] };
    }
    const key = keys[choice % keys.length]!;
    const inner = inject(value[key]!, bad, rest);
    const copy: Record<string, unknown> = {};
    for (const k of keys) Object.defineProperty(copy, k, { value: k === key ? inner.value : value[k], enumerable: true });
    return { value: copy, path: [key, ...inner.path] };
  }
  return { value: bad, path: [] };
}

/** Keys of a flat JSON object with string values, in textual order. */
function keysInOrder(text: string): string[] {
  const members = text.slice(1, -1).match(/"(?:[^"\\]|\\.)*":"(?:[^"\\]|\\.)*"/g) ?? [];
  return members.map((member) => (JSON.parse(`[${member.replace('":"', '","')}]`) as string[])[0]!);
}

function nested(depth: number, seed: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = (seed >> i) & 1 ? [value] : { k: value };
  return value;
}

describe('canonicalize: properties', () => {
  it('produces valid JSON that parses back to the normalized value', () => {
    fc.assert(
      fc.property(jsonArb, (value) => {
        const out = canonicalize(value);
        expect(JSON.parse(out)).toEqual(normalized(value));
      }),
    );
  });

  it('is idempotent: canonicalize(JSON.parse(out)) === out', () => {
    fc.assert(
      fc.property(jsonArb, (value) => {
        const out = canonicalize(value);
        expect(canonicalize(JSON.parse(out))).toBe(out);
      }),
    );
  });

  it('agrees with the reference RFC 8785 implementation on NFC-normalized input', () => {
    fc.assert(
      fc.property(jsonArb, (value) => {
        expect(canonicalize(value)).toBe(canonicalizeReference(normalized(value)));
      }),
    );
  });

  it('does not depend on object key insertion order', () => {
    fc.assert(
      fc.property(jsonArb, fc.integer(), (value, seed) => {
        expect(canonicalize(reordered(value, seed))).toBe(canonicalize(value));
      }),
    );
  });

  it('gives equal output for NFC-equivalent strings and keys', () => {
    fc.assert(
      fc.property(stringArb, (s) => {
        const forms = [s, s.normalize('NFC'), s.normalize('NFD'), s.normalize('NFC').normalize('NFD')];
        const expected = canonicalize({ [s.normalize('NFC')]: s.normalize('NFC') });
        for (const form of forms) expect(canonicalize({ [form]: form })).toBe(expected);
      }),
    );
    expect(canonicalize('e\u0301')).toBe(canonicalize('\u00e9'));
    expect(canonicalize('e\u0301')).toBe('"\u00e9"');
  });

  it('rejects any non-integer number anywhere, reporting where it is', () => {
    const badNumber = fc.oneof(
      fc.double({ noNaN: false }).filter((n) => !Number.isSafeInteger(n) && !Object.is(n, -0)),
      fc.constantFrom(NaN, Infinity, -Infinity, 0.5, 2 ** 53, -(2 ** 53), 1e21),
    );
    fc.assert(
      fc.property(jsonArb, badNumber, fc.array(fc.nat(), { maxLength: 8 }), (value, bad, choices) => {
        const injected = inject(value, bad, choices);
        const error = thrown(() => canonicalize(injected.value));
        expect(error.code).toBe('CANONICAL_JSON_INVALID');
        expect(error.path).toEqual(injected.path);
        expect(error.message).toMatch(/strings/);
      }),
    );
  });

  it('enforces the depth limit exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.nat(), (maxDepth, seed) => {
        expect(() => canonicalize(nested(maxDepth, seed), { maxDepth })).not.toThrow();
        const error = thrown(() => canonicalize(nested(maxDepth + 1, seed), { maxDepth }));
        expect(error.code).toBe('SIZE_LIMIT_EXCEEDED');
        expect(error.path).toHaveLength(maxDepth);
        expect(error.message).toMatch(/maxDepth/);
      }),
    );
  });

  it('enforces the size limit exactly (UTF-8 bytes of the output)', () => {
    fc.assert(
      fc.property(jsonArb, (value) => {
        const size = Buffer.byteLength(canonicalize(value), 'utf8');
        expect(canonicalize(value, { maxBytes: size })).toBe(canonicalize(value));
        const error = thrown(() => canonicalize(value, { maxBytes: size - 1 }));
        expect(error.code).toBe('SIZE_LIMIT_EXCEEDED');
        expect(error.message).toMatch(/maxBytes/);
      }),
    );
  });
});

describe('canonicalize: RFC 8785 vectors', () => {
  it('sorts keys by UTF-16 code units (RFC 8785 §3.2.3)', () => {
    // The RFC's example minus U+FB33, which NFC rewrites (see next test).
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
      '\ue000': 'Private Use',
    };
    // U+1F600 sorts before U+E000 because its high surrogate 0xD83D < 0xE000 (code-unit, not code-point order).
    // (Object.keys would list "1" first, as JS orders integer-like keys first, so compare the text.)
    expect(keysInOrder(canonicalize(input))).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ue000']);
    expect(canonicalize(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ue000":"Private Use"}',
    );
  });

  it('applies NFC before sorting, so the RFC example key U+FB33 becomes U+05D3 U+05BC', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // Plain RFC 8785 (reference implementation) keeps U+FB33 and sorts it last.
    expect(keysInOrder(canonicalizeReference(input)!)).toEqual([
      '\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33',
    ]);
    expect(keysInOrder(canonicalize(input))).toEqual([
      '\r', '1', '\u0080', '\u00f6', '\u05d3\u05bc', '\u20ac', '\ud83d\ude00',
    ]);
  });

  it('escapes strings as RFC 8785 §3.2.2.2 prescribes', () => {
    expect(canonicalize('\u20ac$\u000F\u000aA\'\u0042\u0022\u005c\\"/')).toBe('"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"');
    expect(canonicalize('\u2028\u2029\u007f')).toBe('"\u2028\u2029\u007f"');
  });

  it('serializes literals and integers', () => {
    expect(canonicalize({ b: [null, true, false], a: -0, c: 9007199254740991, d: -9007199254740991 })).toBe(
      '{"a":0,"b":[null,true,false],"c":9007199254740991,"d":-9007199254740991}',
    );
    expect(canonicalize([])).toBe('[]');
    expect(canonicalize({})).toBe('{}');
    expect(canonicalize(Object.create(null))).toBe('{}');
  });
});

describe('canonicalize: rejections', () => {
  it.each([
    ['undefined', undefined],
    ['a function', () => 1],
    ['a bigint', 10n],
    ['a symbol', Symbol('s')],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['a Set', new Set()],
    ['a class instance', new (class Point { x = 1 })()],
    ['a typed array', new Uint8Array(2)],
    ['a boxed string', Object('x') as unknown],
  ])('rejects %s, nested, with its path', (_label, bad) => {
    const error = thrown(() => canonicalize({ outer: [1, { inner: bad }] }));
    expect(error.code).toBe('CANONICAL_JSON_INVALID');
    expect(error.path).toEqual(['outer', 1, 'inner']);
    expect(error.message).toContain('outer[1].inner');
  });

  it('names strings as the way to send big numbers', () => {
    expect(thrown(() => canonicalize(10n)).message).toMatch(/big or rational numbers as strings/);
    expect(thrown(() => canonicalize(0.1)).message).toMatch(/big or rational numbers as strings/);
  });

  it('takes ASCII text as it is, and still normalizes text with one character beyond ASCII', () => {
    // A long text of ASCII only (the graph6 of an enumeration page, say) skips the NFC and surrogate scans.
    const ascii = Array.from({ length: 5000 }, (_, i) => String.fromCharCode(32 + (i % 95))).join('\n');
    expect(canonicalize({ text: ascii })).toBe(`{"text":${JSON.stringify(ascii)}}`);
    expect(canonicalize(`${ascii}e\u0301`)).toBe(JSON.stringify(`${ascii}\u00e9`));
    expect(canonicalize(`\u0000\u001f\u007f"\\`)).toBe('"\\u0000\\u001f\u007f\\"\\\\"');
    expect(thrown(() => canonicalize(`${ascii}\ud800`)).message).toMatch(/lone UTF-16 surrogate/);
  });

  it('rejects lone surrogates in strings and keys', () => {
    for (const s of ['\ud800', 'a\udc00', '\ude00\ud83d', 'x\ud83d']) {
      expect(thrown(() => canonicalize([s])).path).toEqual([0]);
      expect(thrown(() => canonicalize({ [s]: 1 })).path).toEqual([s]);
      expect(thrown(() => canonicalize(s)).message).toMatch(/lone UTF-16 surrogate/);
    }
  });

  it('rejects keys that collide after NFC', () => {
    const error = thrown(() => canonicalize({ x: { '\u00e9': 1, 'e\u0301': 2 } }));
    expect(error.code).toBe('CANONICAL_JSON_INVALID');
    expect(error.path).toEqual(['x', 'e\u0301']);
    expect(error.message).toMatch(/NFC/);
  });

  it('rejects sparse arrays, array subclasses, accessors, hidden and symbol keys, cycles', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(thrown(() => canonicalize([1, , 3])).path).toEqual([1]);
    expect(thrown(() => canonicalize(new (class Extra extends Array<number> {})())).code).toBe('CANONICAL_JSON_INVALID');
    const getter = Object.defineProperty({}, 'g', { get: () => 1, enumerable: true });
    expect(thrown(() => canonicalize(getter)).path).toEqual(['g']);
    const hidden = Object.defineProperty({}, 'h', { value: 1, enumerable: false });
    expect(thrown(() => canonicalize(hidden)).path).toEqual(['h']);
    expect(thrown(() => canonicalize({ [Symbol('s')]: 1 })).code).toBe('CANONICAL_JSON_INVALID');
    const cycle: Record<string, unknown> = { a: [] };
    (cycle['a'] as unknown[]).push(cycle);
    const error = thrown(() => canonicalize(cycle));
    expect(error.code).toBe('CANONICAL_JSON_INVALID');
    expect(error.path).toEqual(['a', 0]);
    // Shared (non-circular) references are fine.
    const shared = { v: 1 };
    expect(canonicalize([shared, shared])).toBe('[{"v":1},{"v":1}]');
  });

  it('prefixes error paths with options.path', () => {
    const error = thrown(() => canonicalize({ a: 1.5 }, { path: ['payload', 2] }));
    expect(error.path).toEqual(['payload', 2, 'a']);
    expect(error.message).toContain('payload[2].a');
  });

  it('validates its own limits', () => {
    expect(thrown(() => canonicalize(1, { maxDepth: -1 })).code).toBe('INVALID_REQUEST');
    expect(thrown(() => canonicalize(1, { maxBytes: 1.5 })).path).toEqual(['maxBytes']);
  });

  it('uses default limits of depth 64 and 16 MiB', () => {
    expect(() => canonicalize(nested(64, 0))).not.toThrow();
    expect(thrown(() => canonicalize(nested(65, 0))).code).toBe('SIZE_LIMIT_EXCEEDED');
    const big = 'x'.repeat(16 * 1024 * 1024 - 2);
    expect(canonicalize(big)).toHaveLength(16 * 1024 * 1024);
    expect(thrown(() => canonicalize(big + 'x')).code).toBe('SIZE_LIMIT_EXCEEDED');
  });

  it('counts multi-byte characters in UTF-8 bytes for the size limit', () => {
    expect(canonicalize('\u20ac', { maxBytes: 5 })).toBe('"\u20ac"');
    expect(thrown(() => canonicalize('\u20ac', { maxBytes: 4 })).code).toBe('SIZE_LIMIT_EXCEEDED');
  });
});

describe('bytes and digests', () => {
  it('canonicalBytes is the UTF-8 encoding of canonicalize', () => {
    expect(Buffer.from(canonicalBytes({ b: '\u00e9', a: 1 })).toString('utf8')).toBe('{"a":1,"b":"\u00e9"}');
  });

  it('canonicalBytes equals the UTF-8 encoding of canonicalize for any value, or fails as it does', () => {
    fc.assert(
      fc.property(jsonArb, (value) => {
        let text: string;
        try {
          text = canonicalize(value);
        } catch (error) {
          expect(thrown(() => canonicalBytes(value)).code).toBe((error as JacobianError).code);
          return;
        }
        expect(canonicalBytes(value)).toEqual(new TextEncoder().encode(text));
      }),
    );
  });

  it('canonicalBytes writes ASCII-only documents (escapes included) and mixed ones byte for byte', () => {
    // graph6-like text: backslashes and newlines escaped, every other printable character as is.
    const listing = 'I?`@bC\\Wo\nI\\?`FB_w_\n"quoted"\t\u0001\n';
    const cases: unknown[] = [
      { graph6: listing, count: 3 },
      { 'cl\u00e9': listing },
      { a: listing, b: '\u{1F600} and \u00e9' },
      [listing, '\u20ac', 'e\u0301'],
      'plain',
    ];
    for (const value of cases) {
      const bytes = canonicalBytes(value);
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(bytes).toString('utf8')).toBe(canonicalize(value));
    }
  });

  it('canonicalBytes keeps the maxBytes limit of canonicalize, for ASCII and other strings', () => {
    const ascii = 'a\\b\nc';
    const size = Buffer.byteLength(canonicalize(ascii));
    expect(canonicalBytes(ascii, { maxBytes: size }).byteLength).toBe(size);
    expect(thrown(() => canonicalBytes(ascii, { maxBytes: size - 1 })).code).toBe('SIZE_LIMIT_EXCEEDED');
    expect(canonicalBytes('\u20ac', { maxBytes: 5 }).byteLength).toBe(5);
    expect(thrown(() => canonicalBytes('\u20ac', { maxBytes: 4 })).code).toBe('SIZE_LIMIT_EXCEEDED');
  });

  it('sha256Hex matches known vectors for strings and bytes', () => {
    const empty = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(sha256Hex('')).toBe(empty);
    expect(sha256Hex(new Uint8Array())).toBe(empty);
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('canonicalDigest hashes the canonical bytes and ignores key order', () => {
    expect(canonicalDigest({ b: 2, a: 1 })).toBe(sha256Hex('{"a":1,"b":2}'));
    expect(canonicalDigest({ a: 1, b: 2 })).toBe(canonicalDigest({ b: 2, a: 1 }));
  });

  it('formatJsonPath renders paths for messages', () => {
    expect(formatJsonPath([])).toBe('(root)');
    expect(formatJsonPath(['a', 0, 'b c', 'd'])).toBe('a[0]["b c"].d');
    expect(formatJsonPath([0, 'x'])).toBe('[0].x');
  });
});

describe('arrays of safe integers (written as one chunk)', () => {
  it('give the reference canonical form, nested or not', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.constant(-0), fc.constant(Number.MIN_SAFE_INTEGER))), (list) => {
        expect(canonicalize(list)).toBe(canonicalizeReference(list));
        expect(canonicalize({ edges: [list, list] })).toBe(canonicalizeReference({ edges: [list, list] }));
      }),
    );
  });

  it('still refuse a hole, an unsafe integer and a float, at the element', () => {
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    expect(thrown(() => canonicalize([1, , 3])).path).toEqual([1]);
    expect(thrown(() => canonicalize([1, 2 ** 53])).path).toEqual([1]);
    expect(thrown(() => canonicalize({ x: [1, 2.5] })).path).toEqual(['x', 1]);
  });

  it('report the size limit at the element where it is passed', () => {
    const error = thrown(() => canonicalize([1000, 2000, 3000, 4000], { maxBytes: 12 }));
    expect(error.code).toBe('SIZE_LIMIT_EXCEEDED');
    expect(error.path).toEqual([2]);
  });
});

describe('a too long array of safe integers', () => {
  it('fails where the element-by-element walk fails: the first chunk past the limit names its path', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5000, max: 5000 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 200 }), (list, maxBytes) => {
        // The walk's chunks: "[", then per element "," (after the first) and the number, each at [i], then "]".
        let at = 0;
        let expected: JsonPath | null = null;
        const chunk = (length: number, path: JsonPath): void => {
          at += length;
          if (expected === null && at > maxBytes) expected = path;
        };
        chunk(1, []);
        list.forEach((n, i) => {
          if (i > 0) chunk(1, [i]);
          chunk(String(n).length, [i]);
        });
        chunk(1, []);
        if (expected === null) {
          expect(canonicalize(list, { maxBytes })).toBe(JSON.stringify(list));
          return;
        }
        const error = thrown(() => canonicalize(list, { maxBytes }));
        expect({ code: error.code, path: error.path }).toEqual({ code: 'SIZE_LIMIT_EXCEEDED', path: expected });
      }),
    );
  });
});

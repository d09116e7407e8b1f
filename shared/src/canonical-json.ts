import { createHash } from 'node:crypto';

import { JacobianError, type JsonPath } from './errors.js';

/**
 * A JSON value as Jacobian accepts it. Numbers are restricted further at runtime by
 * {@link canonicalize}: only safe integers are allowed.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object (the only container with named members). */
export type JsonObject = { [key: string]: JsonValue };

/** Options for {@link canonicalize} and the functions built on it. */
export interface CanonicalJsonOptions {
  /** Maximum nesting of arrays/objects; a bare scalar has depth 0, `[]` has depth 1. Default 64. */
  maxDepth?: number;
  /** Maximum size of the canonical output in UTF-8 bytes. Default 16 MiB. */
  maxBytes?: number;
  /**
   * Where this value sits inside a larger document. It is prepended to the `path` of every
   * error, so a caller canonicalizing `request.payload` can report `['payload', 'x', 3]`.
   */
  path?: JsonPath;
}

/** Default nesting limit for canonical JSON. */
export const DEFAULT_CANONICAL_MAX_DEPTH = 64;
/** Default size limit (UTF-8 bytes of canonical output): 16 MiB. */
export const DEFAULT_CANONICAL_MAX_BYTES = 16 * 1024 * 1024;

// Deeper limits would risk exhausting the call stack of the recursive walk below, which
// would surface as an opaque RangeError instead of a diagnosable limit error.
const MAX_ALLOWED_DEPTH = 4096;

// Matches a high surrogate not followed by a low one, or a low surrogate not preceded by a
// high one. No `u` flag on purpose: we need to see UTF-16 code units, not code points.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Render a JSON path for humans, e.g. `payload.edges[3][1]` or `summary["a b"]`.
 * The root itself renders as `(root)`.
 */
export function formatJsonPath(path: JsonPath): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  const type = typeof value;
  if (type !== 'object') return type;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === null) return 'object with null prototype';
  const ctor = (proto as { constructor?: unknown }).constructor;
  if (typeof ctor === 'function' && ctor.name !== '') return `instance of ${ctor.name}`;
  return 'object with a non-standard prototype';
}

function checkLimit(name: 'maxDepth' | 'maxBytes', value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new JacobianError(
      'INVALID_REQUEST',
      `canonical JSON option ${name} must be an integer between 0 and ${max}, got ${String(value)}`,
      { path: [name], data: { [name]: String(value) } },
    );
  }
  return value;
}

/** Mutable state of one canonicalization run. */
interface Walk {
  readonly maxDepth: number;
  readonly maxBytes: number;
  readonly chunks: string[];
  bytes: number;
  /** Whether every chunk so far is ASCII (as many UTF-8 bytes as code units). */
  ascii: boolean;
  /** Containers currently being serialized, to report cycles instead of overflowing depth. */
  readonly ancestors: Set<object>;
}

/** Append `chunk`; `ascii` says it is known to be ASCII (so its UTF-8 length need not be counted). */
function emit(walk: Walk, chunk: string, path: JsonPath, ascii = false): void {
  const bytes = ascii ? chunk.length : Buffer.byteLength(chunk, 'utf8');
  if (bytes !== chunk.length) walk.ascii = false;
  walk.bytes += bytes;
  walk.chunks.push(chunk);
  // Checked as we go so an oversized document fails without being fully serialized.
  if (walk.bytes > walk.maxBytes) {
    throw new JacobianError(
      'SIZE_LIMIT_EXCEEDED',
      `canonical JSON exceeds the size limit of ${walk.maxBytes} UTF-8 bytes (maxBytes) while serializing ${formatJsonPath(path)}`,
      { path, data: { maxBytes: walk.maxBytes }, hint: 'Send less data, or store large inputs as artifacts and pass their URIs.' },
    );
  }
}

/** Whether `value` is ASCII only: as many UTF-8 bytes as code units (one scan, in native code). */
function isAscii(value: string): boolean {
  return Buffer.byteLength(value, 'utf8') === value.length;
}

/** NFC-normalize a string after rejecting lone surrogates (which have no UTF-8 encoding). */
function normalizeString(value: string, path: JsonPath, role: 'string' | 'object key'): string {
  // A string of ASCII only has no surrogate and is its own NFC: long texts such as graph6
  // listings skip both scans.
  if (isAscii(value)) return value;
  return normalizeNonAscii(value, path, role);
}

function normalizeNonAscii(value: string, path: JsonPath, role: 'string' | 'object key'): string {
  const match = LONE_SURROGATE.exec(value);
  if (match !== null) {
    throw new JacobianError(
      'CANONICAL_JSON_INVALID',
      `${role} at ${formatJsonPath(path)} contains a lone UTF-16 surrogate at code unit ${match.index}; strings must be well-formed Unicode`,
      { path },
    );
  }
  return value.normalize('NFC');
}

function serializeNumber(value: number, path: JsonPath): string {
  if (!Number.isSafeInteger(value)) {
    const what = Number.isNaN(value)
      ? 'NaN'
      : !Number.isFinite(value)
        ? 'an infinite number'
        : Number.isInteger(value)
          ? 'an integer outside the safe range ±(2^53−1)'
          : 'a non-integer number';
    throw new JacobianError(
      'CANONICAL_JSON_INVALID',
      `number at ${formatJsonPath(path)} is ${what}; only safe integers are allowed in canonical JSON — send big or rational numbers as strings`,
      { path, hint: 'Encode e.g. 0.5 as "1/2" and 2^64 as "18446744073709551616".' },
    );
  }
  // String(-0) is already "0", matching RFC 8785; safe integers never use exponent notation.
  return String(value);
}

function compareUtf16(a: string, b: string): number {
  // JS string comparison is by UTF-16 code units, which is exactly RFC 8785 §3.2.3.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether every element is a safe integer; a hole reads as undefined, so a sparse array is not. */
function safeIntegersOnly(value: unknown[]): boolean {
  if (value.length === 0) return false;
  for (let index = 0; index < value.length; index++) {
    const member = value[index];
    if (typeof member !== 'number' || !Number.isSafeInteger(member)) return false;
  }
  return true;
}

function serializeArray(walk: Walk, value: unknown[], path: JsonPath, depth: number): void {
  if (Object.getPrototypeOf(value) !== Array.prototype) {
    throw new JacobianError(
      'CANONICAL_JSON_INVALID',
      `value at ${formatJsonPath(path)} is an ${describeValue(value)}; only plain arrays are allowed in canonical JSON`,
      { path },
    );
  }
  // An array of safe integers only (a SAT model, an edge, a permutation) is its JSON.stringify
  // text, written as one chunk: a 4-million-literal model took 2.4 s element by element on the
  // API's thread, well under 0.1 s this way. Anything else takes the walk below.
  if (safeIntegersOnly(value)) {
    const text = JSON.stringify(value);
    if (walk.bytes + text.length <= walk.maxBytes) {
      emit(walk, text, path, true);
      return;
    }
    // Too long: count what fits, and emit the first element that does not, which fails there
    // as the walk would (same path, same error).
    walk.bytes += 1;
    for (let index = 0; index < value.length; index++) {
      const piece = `${index > 0 ? ',' : ''}${String(value[index])}`;
      if (walk.bytes + piece.length > walk.maxBytes) emit(walk, piece, [...path, index], true);
      walk.bytes += piece.length;
    }
  }
  emit(walk, '[', path);
  for (let index = 0; index < value.length; index++) {
    const childPath = [...path, index];
    if (!Object.hasOwn(value, index)) {
      throw new JacobianError(
        'CANONICAL_JSON_INVALID',
        `array element ${formatJsonPath(childPath)} is a hole; sparse arrays are not allowed in canonical JSON`,
        { path: childPath },
      );
    }
    if (index > 0) emit(walk, ',', childPath);
    serializeValue(walk, value[index], childPath, depth);
  }
  emit(walk, ']', path);
}

function serializeObject(walk: Walk, value: object, path: JsonPath, depth: number): void {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    throw new JacobianError(
      'CANONICAL_JSON_INVALID',
      `value at ${formatJsonPath(path)} is an ${describeValue(value)}; only plain objects (prototype Object.prototype or null) are allowed in canonical JSON`,
      { path },
    );
  }
  const members: { key: string; normalized: string }[] = [];
  const seen = new Map<string, string>();
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === 'symbol') {
      throw new JacobianError(
        'CANONICAL_JSON_INVALID',
        `object at ${formatJsonPath(path)} has a symbol key ${String(key)}; only string keys are allowed in canonical JSON`,
        { path },
      );
    }
    const keyPath = [...path, key];
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    // Getters could return different data on each read, and hidden properties would be
    // silently dropped; both would make the digest misrepresent the value.
    if (descriptor === undefined || !('value' in descriptor) || descriptor.enumerable !== true) {
      throw new JacobianError(
        'CANONICAL_JSON_INVALID',
        `property ${formatJsonPath(keyPath)} is an accessor or non-enumerable property; only enumerable data properties are allowed in canonical JSON`,
        { path: keyPath },
      );
    }
    const normalized = normalizeString(key, keyPath, 'object key');
    const previous = seen.get(normalized);
    if (previous !== undefined) {
      throw new JacobianError(
        'CANONICAL_JSON_INVALID',
        `object at ${formatJsonPath(path)} has keys ${JSON.stringify(previous)} and ${JSON.stringify(key)} that are equal after Unicode NFC normalization; keys must be unique after NFC`,
        { path: keyPath },
      );
    }
    seen.set(normalized, key);
    members.push({ key, normalized });
  }
  members.sort((a, b) => compareUtf16(a.normalized, b.normalized));

  emit(walk, '{', path);
  let first = true;
  for (const { key, normalized } of members) {
    const childPath = [...path, key];
    emit(walk, `${first ? '' : ','}${JSON.stringify(normalized)}:`, childPath);
    first = false;
    serializeValue(walk, (value as Record<string, unknown>)[key], childPath, depth);
  }
  emit(walk, '}', path);
}

function serializeValue(walk: Walk, value: unknown, path: JsonPath, depth: number): void {
  switch (typeof value) {
    case 'string': {
      // ECMAScript JSON.stringify string escaping is the one RFC 8785 §3.2.2.2 prescribes. It
      // escapes only with ASCII, so an ASCII string stays ASCII.
      const ascii = isAscii(value);
      emit(walk, JSON.stringify(ascii ? value : normalizeNonAscii(value, path, 'string')), path, ascii);
      return;
    }
    case 'number':
      emit(walk, serializeNumber(value, path), path);
      return;
    case 'boolean':
      emit(walk, value ? 'true' : 'false', path);
      return;
    case 'bigint':
      throw new JacobianError(
        'CANONICAL_JSON_INVALID',
        `value at ${formatJsonPath(path)} is a bigint; only safe integers are allowed in canonical JSON — send big or rational numbers as strings`,
        { path },
      );
    case 'undefined':
    case 'function':
    case 'symbol':
      throw new JacobianError(
        'CANONICAL_JSON_INVALID',
        `value at ${formatJsonPath(path)} is ${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}; canonical JSON allows only null, booleans, strings, safe integers, arrays and plain objects`,
        { path },
      );
    case 'object':
      break;
  }
  if (value === null) {
    emit(walk, 'null', path);
    return;
  }
  const nextDepth = depth + 1;
  if (nextDepth > walk.maxDepth) {
    throw new JacobianError(
      'SIZE_LIMIT_EXCEEDED',
      `value at ${formatJsonPath(path)} is nested ${nextDepth} levels deep; canonical JSON allows at most ${walk.maxDepth} (maxDepth)`,
      { path, data: { maxDepth: walk.maxDepth } },
    );
  }
  if (walk.ancestors.has(value)) {
    throw new JacobianError(
      'CANONICAL_JSON_INVALID',
      `value at ${formatJsonPath(path)} is a circular reference; canonical JSON must be a tree`,
      { path },
    );
  }
  walk.ancestors.add(value);
  if (Array.isArray(value)) serializeArray(walk, value, path, nextDepth);
  else serializeObject(walk, value, path, nextDepth);
  walk.ancestors.delete(value);
}

/**
 * Serialize a value as canonical JSON: RFC 8785 (JCS) with Jacobian's stricter rules.
 *
 * - Strings and object keys are normalized to Unicode NFC; lone surrogates are rejected, as
 *   are two keys of one object that become equal after NFC.
 * - Numbers must be safe integers (`-0` becomes `0`); floats, NaN, ±Infinity and unsafe
 *   integers are rejected — big or rational numbers travel as strings.
 * - Only null, booleans, strings, numbers, hole-free plain arrays and plain objects
 *   (prototype `Object.prototype` or `null`) are accepted.
 * - Object members are ordered by UTF-16 code units of their (normalized) keys.
 *
 * @throws JacobianError `CANONICAL_JSON_INVALID` for a disallowed value and
 *   `SIZE_LIMIT_EXCEEDED` when `maxDepth` or `maxBytes` is exceeded; `path` locates the value.
 */
export function canonicalize(value: unknown, limits: CanonicalJsonOptions = {}): string {
  return serialize(value, limits).chunks.join('');
}

/**
 * The UTF-8 bytes of {@link canonicalize}'s output, written chunk by chunk into one array of the
 * size the walk counted: no joined string is made and encoded again. Preparing a put of a page
 * of 1 MiB of graph6 took 4.1–5.1 ms instead of 5.0–6.4 ms on this project's test machine
 * (2026-12-01, three runs each way, alternating). An ASCII-only document is written as Latin-1,
 * which copies its bytes.
 */
export function canonicalBytes(value: unknown, limits: CanonicalJsonOptions = {}): Uint8Array {
  const walk = serialize(value, limits);
  const bytes = new Uint8Array(walk.bytes);
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // An ASCII chunk's UTF-8 bytes are its Latin-1 bytes, which are written without encoding.
  const encoding = walk.ascii ? 'latin1' : 'utf8';
  let at = 0;
  for (const chunk of walk.chunks) at += view.write(chunk, at, encoding);
  if (at !== walk.bytes) throw new Error(`canonical JSON: ${at} bytes written where ${walk.bytes} were counted`);
  return bytes;
}

function serialize(value: unknown, limits: CanonicalJsonOptions): Walk {
  const walk: Walk = {
    maxDepth: checkLimit('maxDepth', limits.maxDepth, DEFAULT_CANONICAL_MAX_DEPTH, MAX_ALLOWED_DEPTH),
    maxBytes: checkLimit('maxBytes', limits.maxBytes, DEFAULT_CANONICAL_MAX_BYTES, Number.MAX_SAFE_INTEGER),
    chunks: [],
    bytes: 0,
    ascii: true,
    ancestors: new Set(),
  };
  serializeValue(walk, value, [...(limits.path ?? [])], 0);
  return walk;
}

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 encoding. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Lowercase hex SHA-256 of a value's canonical JSON bytes. */
export function canonicalDigest(value: unknown, limits?: CanonicalJsonOptions): string {
  return sha256Hex(canonicalBytes(value, limits));
}

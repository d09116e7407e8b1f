/**
 * A compact, bounded rendering of a zod schema (or the part of it at a path), for error
 * messages that show an agent what was expected: `{kind: "Q"} | {kind: "GF", characteristic:
 * string}`, `"lex" | "grlex" | "grevlex"`, `[string, …]`, optional keys marked `?`.
 *
 * Derived from the schema itself, so every capability's errors show its own contract without
 * a word written per capability. Deep schemas are shown to a bounded depth (`{…}` below it) and
 * a bounded length.
 */
import type { z } from 'zod';
import { isPlainObject } from '../artifacts/manifest.js';

type Schema = z.core.$ZodType;
type Def = { readonly type: string } & Readonly<Record<string, unknown>>;

/** Longest rendering in characters; past it the depth shrinks, then the text is cut. */
export const SHAPE_MAX_LENGTH = 320;
const MAX_DEPTH = 3;

function defOf(schema: Schema): Def {
  return schema._zod.def as unknown as Def;
}

function child(def: Def, key: string): Schema | undefined {
  return def[key] as Schema | undefined;
}

/** The schema a value is checked against once wrappers (optional, default, pipes, lazy…) are looked through. */
function unwrap(schema: Schema): Schema {
  let current = schema;
  for (let guard = 0; guard < 32; guard++) {
    const def = defOf(current);
    switch (def.type) {
      case 'optional':
      case 'nonoptional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
        current = child(def, 'innerType') ?? current;
        break;
      case 'pipe':
        current = child(def, 'in') ?? current;
        break;
      case 'lazy':
        current = (def['getter'] as () => Schema)();
        break;
      default:
        return current;
    }
  }
  return current;
}

function isOptional(schema: Schema): boolean {
  return schema._zod.optin === 'optional';
}

function isInteger(def: Def): boolean {
  const checks = (def['checks'] as Array<{ _zod?: { def?: { format?: string } } }> | undefined) ?? [];
  return checks.some((check) => /int/.test(check._zod?.def?.format ?? ''));
}

function render(schema: Schema, depth: number, maxDepth: number): string {
  const def = defOf(schema);
  const inner = (key: string, nextDepth = depth): string => {
    const next = child(def, key);
    return next === undefined ? 'any' : render(next, nextDepth, maxDepth);
  };
  switch (def.type) {
    case 'optional':
    case 'nonoptional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return inner('innerType');
    case 'nullable':
      return `${inner('innerType')} | null`;
    case 'pipe':
      return inner('in');
    case 'lazy':
      return depth >= maxDepth ? '…' : render((def['getter'] as () => Schema)(), depth, maxDepth);
    case 'string':
      return 'string';
    case 'number':
      return isInteger(def) ? 'integer' : 'number';
    case 'bigint':
      return 'integer';
    case 'boolean':
    case 'null':
    case 'undefined':
      return def.type;
    case 'literal':
      return (def['values'] as unknown[]).map((value) => JSON.stringify(value)).join(' | ');
    case 'enum':
      return Object.values(def['entries'] as Record<string, unknown>)
        .map((value) => JSON.stringify(value))
        .join(' | ');
    case 'array':
      return depth >= maxDepth ? '[…]' : `[${inner('element', depth + 1)}, …]`;
    case 'tuple': {
      if (depth >= maxDepth) return '[…]';
      const items = (def['items'] as Schema[]).map((item) => render(item, depth + 1, maxDepth));
      if (def['rest'] !== null && def['rest'] !== undefined) items.push(`${inner('rest', depth + 1)}…`);
      return `[${items.join(', ')}]`;
    }
    case 'record':
      return depth >= maxDepth ? '{…}' : `{<${inner('keyType', depth + 1)}>: ${inner('valueType', depth + 1)}}`;
    case 'object': {
      if (depth >= maxDepth) return '{…}';
      const shape = def['shape'] as Record<string, Schema>;
      const entries = Object.entries(shape).map(([key, value]) => `${key}${isOptional(value) ? '?' : ''}: ${render(value, depth + 1, maxDepth)}`);
      return `{${entries.join(', ')}}`;
    }
    case 'union': {
      const options = (def['options'] as Schema[]).map((option) => render(option, depth, maxDepth));
      // Alternatives that render alike at this depth are one alternative to the reader.
      return [...new Set(options)].join(' | ');
    }
    case 'intersection':
      return `${inner('left')} & ${inner('right')}`;
    case 'any':
    case 'unknown':
      return 'any';
    default:
      return def.type;
  }
}

/**
 * `schema` rendered compactly, in at most {@link SHAPE_MAX_LENGTH} characters.
 *
 * @example
 * renderShape(FieldSpecSchema) // '{kind: "Q"} | {kind: "GF", characteristic: string}'
 */
export function renderShape(schema: Schema, maxLength = SHAPE_MAX_LENGTH): string {
  for (let depth = MAX_DEPTH; depth >= 1; depth--) {
    const text = render(schema, 0, depth);
    if (text.length <= maxLength) return text;
  }
  const text = render(schema, 0, 1);
  return `${text.slice(0, maxLength - 1)}…`;
}

/** The value at `path` in `value`, or undefined. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (isPlainObject(current)) current = current[String(key)];
    else if (Array.isArray(current) && typeof key === 'number') current = current[key];
    else return undefined;
  }
  return current;
}

/** The option of a union that holds `key`, preferring the one whose discriminator matches the value. */
function unionOption(def: Def, key: PropertyKey, value: unknown): Schema | undefined {
  const options = (def['options'] as Schema[]).map(unwrap);
  const holding = options.filter((option) => {
    const optionDef = defOf(option);
    return optionDef.type === 'object' && String(key) in (optionDef['shape'] as Record<string, Schema>);
  });
  const discriminator = def['discriminator'];
  if (typeof discriminator === 'string' && isPlainObject(value)) {
    const wanted = value[discriminator];
    const matching = holding.find((option) => {
      const tag = unwrap((defOf(option)['shape'] as Record<string, Schema>)[discriminator] as Schema);
      const tagDef = defOf(tag);
      return tagDef.type === 'literal' && (tagDef['values'] as unknown[]).includes(wanted);
    });
    if (matching !== undefined) return matching;
  }
  return holding[0];
}

/**
 * The part of `schema` that checks the value at `path` (with `input`, the value checked, to
 * choose among a discriminated union's options), or undefined when the path leaves the schema.
 */
export function schemaAt(schema: Schema, path: readonly PropertyKey[], input?: unknown): Schema | undefined {
  let current: Schema | undefined = schema;
  for (let i = 0; i < path.length && current !== undefined; i++) {
    const key = path[i] as PropertyKey;
    const here = unwrap(current);
    const def = defOf(here);
    switch (def.type) {
      case 'object': {
        const shape = def['shape'] as Record<string, Schema>;
        const catchall = child(def, 'catchall');
        current = shape[String(key)] ?? (catchall !== undefined && defOf(catchall).type !== 'never' ? catchall : undefined);
        break;
      }
      case 'array':
        current = typeof key === 'number' ? child(def, 'element') : undefined;
        break;
      case 'tuple':
        current = typeof key === 'number' ? ((def['items'] as Schema[])[key] ?? child(def, 'rest') ?? undefined) : undefined;
        break;
      case 'record':
        current = child(def, 'valueType');
        break;
      case 'union': {
        const option = unionOption(def, key, valueAt(input, path.slice(0, i)));
        current = option === undefined ? undefined : schemaAt(option, [key]);
        break;
      }
      case 'intersection': {
        const left = child(def, 'left');
        const right = child(def, 'right');
        current = (left === undefined ? undefined : schemaAt(left, [key])) ?? (right === undefined ? undefined : schemaAt(right, [key]));
        break;
      }
      default:
        current = undefined;
    }
  }
  return current;
}

/** Whether a rendering of `schema` says more than zod's own "expected <type>" (objects, unions, enums…). */
export function isStructured(schema: Schema): boolean {
  return !['string', 'number', 'bigint', 'boolean', 'null', 'undefined', 'any', 'unknown'].includes(defOf(unwrap(schema)).type) || defOf(schema).type === 'nullable';
}

/** What a value is, in a word or two, for "got …" in messages. */
export function kindOfValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === '') return 'an empty string';
  if (typeof value === 'string') return value.length <= 24 ? `the string ${JSON.stringify(value)}` : 'a string';
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return `${value}`;
  return isPlainObject(value) ? 'an object' : `a ${typeof value}`;
}

export { valueAt as valueAtPath };

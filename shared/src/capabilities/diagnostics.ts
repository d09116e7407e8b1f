import type { z } from 'zod';
import { ErrorCode, type JacobianError, type JsonPath, type Stage } from '../errors.js';
import type { Diagnostic } from '../contracts/result.js';
import { isStructured, kindOfValue, renderShape, schemaAt, valueAtPath } from './schema-shape.js';

/** What the issues are read against: the schema that produced them, and the value it checked. */
export interface IssueContext {
  /** The schema the error came from: messages show the expected shape at the failing path. */
  schema?: z.core.$ZodType;
  /** The value it checked: messages name what was found there. */
  input?: unknown;
}

const CONTRACT_HINT = 'inspect the capability with math.find view CONTRACT for the exact input schema';

/** Levenshtein distance, for suggesting a near name. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The keys of the object schema at `path`, when it is one. */
function objectKeys(schema: z.core.$ZodType | undefined): string[] {
  const def = schema?._zod.def as { type?: string; shape?: Record<string, unknown> } | undefined;
  return def?.type === 'object' && def.shape !== undefined ? Object.keys(def.shape) : [];
}

/** The keys each alternative of a union of objects has and no other has, when every one has some. */
function distinguishingKeys(union: z.core.$ZodType | undefined): string[][] | undefined {
  const def = union?._zod.def as { type?: string; options?: z.core.$ZodType[] } | undefined;
  if (def?.type !== 'union' || def.options === undefined) return undefined;
  const keySets = def.options.map((option) => objectKeys(option));
  if (keySets.some((keys) => keys.length === 0)) return undefined;
  const distinct = keySets.map((keys, i) => keys.filter((key) => keySets.every((other, j) => j === i || !other.includes(key))));
  return distinct.every((keys) => keys.length > 0) ? distinct : undefined;
}

function shown(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'the request' : path.map(String).join('.');
}

/**
 * The message for one issue. `shownPath` is where the request holds it (with the caller's
 * prefix); `path` is where the schema in `context` holds it.
 */
function describeIssue(issue: z.core.$ZodIssue, shownPath: readonly PropertyKey[], path: readonly PropertyKey[], context: IssueContext): string {
  const at = shown(shownPath);
  const { schema, input } = context;
  const has = (p: readonly PropertyKey[]): boolean => valueAtPath(input, p) !== undefined;
  const got = (p: readonly PropertyKey[]): string => (context.input === undefined ? '' : ` (got ${kindOfValue(valueAtPath(input, p))})`);
  const here = schema === undefined ? undefined : schemaAt(schema, path, input);
  switch (issue.code) {
    case 'unrecognized_keys': {
      // The path already ends at the unknown key (see zodIssuesToDiagnostics).
      const parent = shownPath.length <= 1 ? 'the request' : shown(shownPath.slice(0, -1));
      const owner = schema === undefined ? undefined : schemaAt(schema, path.slice(0, -1), input);
      const key = issue.keys[0] ?? '';
      const near = objectKeys(owner === undefined ? undefined : unwrapObject(owner)).filter((name) => editDistance(name.toLowerCase(), key.toLowerCase()) <= (key.length <= 3 ? 1 : 2));
      const suggestion = near.length === 0 ? '' : ` (did you mean ${near.map((name) => `"${name}"`).join(' or ')}?)`;
      const expected = owner === undefined ? '' : `; expected ${renderShape(owner)}`;
      return `${parent}: unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}${suggestion}; only the fields of the CONTRACT schema are accepted${expected}`;
    }
    case 'invalid_type': {
      const missing = context.input !== undefined && !has(path);
      const expected = here !== undefined && isStructured(here) ? renderShape(here) : issue.expected;
      if (missing) return `${at}: required, expected ${expected}`;
      const received = context.input === undefined && issue.message.includes('received') ? ` (${issue.message})` : got(path);
      return `${at}: expected ${expected}${received}`;
    }
    case 'invalid_value':
      return here === undefined ? `${at}: ${issue.message}` : `${at}: expected ${renderShape(here)}${got(path)}`;
    case 'invalid_union': {
      const values: readonly unknown[] | undefined = 'options' in issue ? issue.options : undefined;
      if (issue.discriminator !== undefined && values !== undefined && issue.errors.length === 0) {
        // No option's discriminator matched: the path ends at the discriminator; the union is the object holding it.
        const union = schema === undefined ? undefined : schemaAt(schema, path.slice(0, -1), input);
        const options = values.map((option) => JSON.stringify(option)).join(' | ');
        return `${at}: expected ${options}${got(path)}${union === undefined ? '' : `; the accepted forms are ${renderShape(union)}`}`;
      }
      if (here === undefined) return `${at}: ${issue.message}`;
      const keys = distinguishingKeys(unwrapSchema(here));
      const by = keys === undefined ? '' : `; give the fields of exactly one form (${keys.map((k) => k.join(', ')).join(' | ')})`;
      // The alternative the value came closest to, and its first complaint.
      const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0]?.[0];
      const near = closest === undefined ? '' : `; closest form: ${shown([...shownPath, ...closest.path])}: ${closest.code === 'unrecognized_keys' ? `unknown field ${closest.keys.map((k) => `"${k}"`).join(', ')}` : closest.message.replace(/^Invalid input: /, '')}`;
      return `${at}: matches none of the accepted forms ${renderShape(here)}${by}${near}`;
    }
    case 'custom':
    case 'invalid_element':
    case 'invalid_format':
    case 'invalid_key':
    case 'not_multiple_of':
    case 'too_big':
    case 'too_small':
      // zod's own messages already state the rule ("Too big: expected number to be <=256"),
      // and a refinement's message names the accepted combinations.
      return `${at}: ${issue.message}`;
  }
}

function unwrapSchema(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType };
  if (def.innerType !== undefined) return unwrapSchema(def.innerType);
  if (def.type === 'pipe' && def.in !== undefined) return unwrapSchema(def.in);
  return schema;
}

function unwrapObject(schema: z.core.$ZodType): z.core.$ZodType {
  return unwrapSchema(schema);
}

/**
 * The hint for an issue: the expected shape of the object holding the failing field, so that
 * an agent can rewrite the whole object at once, and where the full contract is.
 */
function hintFor(shownPath: readonly PropertyKey[], path: readonly PropertyKey[], context: IssueContext): string {
  if (context.schema === undefined || path.length === 0) return CONTRACT_HINT;
  const parent = schemaAt(context.schema, path.slice(0, -1), context.input);
  if (parent === undefined || shownPath.length < 2) return CONTRACT_HINT;
  return `${shown(shownPath.slice(0, -1))} is ${renderShape(parent)}; ${CONTRACT_HINT}`;
}

/**
 * Turn zod issues into diagnostics naming the field (path) and the rule (message). Given the
 * schema and the value it checked, each message also shows the expected shape at the failing
 * path (object keys, optional ones marked `?`, enum and literal values, union alternatives),
 * derived from the schema, and what was found there.
 */
export function zodIssuesToDiagnostics(error: z.ZodError, prefix: JsonPath, stage: Stage = 'VALIDATION', context: IssueContext = {}): Diagnostic[] {
  // One diagnostic per unknown key, with the key in its path, so the field is named there too.
  const issues = error.issues.flatMap((issue): z.core.$ZodIssue[] =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => ({ ...issue, keys: [key], path: [...issue.path, key] })) : [issue],
  );
  return issues.slice(0, 20).map((issue) => {
    const relative = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const path = [...prefix, ...relative];
    return {
      severity: 'ERROR',
      code: 'INVALID_REQUEST',
      stage,
      message: describeIssue(issue, path, relative, context).slice(0, 2000),
      path,
      hint: hintFor(path, relative, context).slice(0, 1000),
    };
  });
}

/** A diagnostic for a JacobianError at its own stage. */
export function errorDiagnostic(error: JacobianError): Diagnostic {
  return {
    severity: 'ERROR',
    code: error.code,
    stage: ErrorCode[error.code].stage,
    message: error.message,
    path: error.path ?? null,
    hint: error.hint ?? null,
  };
}

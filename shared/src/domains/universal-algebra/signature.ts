/**
 * The signature a request declares: which operations exist (name, arity 0, 1 or 2, and whether a
 * binary one is written infix) and which names are variables. Laws are parsed against it, so a
 * name that is not declared is an error at a stated position, never a guess.
 */
import { z } from 'zod';
import { JacobianError, type JsonPath } from '../../errors.js';
import { RESERVED_JSON_KEY } from '../../contracts/json-record.js';
import { UNIVERSAL_ALGEBRA_LIMITS } from './limits.js';

/**
 * The single characters that may name an operation. Parentheses, the comma and `=` are the
 * law syntax itself and so are not among them.
 */
export const OPERATION_SYMBOLS: readonly string[] = [
  '*', '+', '-', '/', '\\', '^', '&', '|', '~', '!', '?', '#', '@', '%', '<', '>',
  '·', '∘', '∗', '⋅', '⋆', '∧', '∨', '⊕', '⊗', '⊙', '⊖', '¬', '→', '⇒', '↔', '⊓', '⊔', '⊤', '⊥',
];
const SYMBOL_SET: ReadonlySet<string> = new Set(OPERATION_SYMBOLS);

/** Identifiers: a letter or `_`, then letters, digits or `_`. Variables are always identifiers. */
export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Numerals such as `0` or `1` may name operations (usually constants), never variables. */
export const NUMERAL_PATTERN = /^(0|[1-9][0-9]*)$/;

/** Whether `name` is one of {@link OPERATION_SYMBOLS}. */
export function isOperationSymbol(name: string): boolean {
  return SYMBOL_SET.has(name);
}

/**
 * `__proto__` names nothing: it cannot be a key of a JSON record (an operation's table, a
 * variable's value in an assignment), because parsers drop or misread it (see json-record.ts).
 */
const RESERVED_NAME = RESERVED_JSON_KEY;

/** Whether `name` may name an operation: an identifier, a numeral, or one operation symbol. */
export function isOperationName(name: string): boolean {
  if (name === RESERVED_NAME) return false;
  return (
    (name.length <= UNIVERSAL_ALGEBRA_LIMITS.maxNameLength && (IDENTIFIER_PATTERN.test(name) || NUMERAL_PATTERN.test(name))) ||
    isOperationSymbol(name)
  );
}

/** Whether `name` may name a variable: an identifier (not `__proto__`). */
export function isVariableName(name: string): boolean {
  return name !== RESERVED_NAME && name.length <= UNIVERSAL_ALGEBRA_LIMITS.maxNameLength && IDENTIFIER_PATTERN.test(name);
}

const Arity = z.union([z.literal(0), z.literal(1), z.literal(2)]);

/** One operation of a signature, as a request declares it. */
export const OperationDeclarationSchema = z
  .object({
    name: z
      .string()
      .refine(isOperationName, `must be an identifier, a numeral or one of the symbols ${OPERATION_SYMBOLS.join(' ')} (at most ${UNIVERSAL_ALGEBRA_LIMITS.maxNameLength} characters), other than __proto__ (a table, a JSON record, cannot carry that key)`)
      .describe('the operation name: an identifier (f, inv, e), a numeral (0, 1) or one symbol (*, +, \\, /, ∘ …)'),
    arity: Arity.describe('0 for a constant, 1 for a unary operation, 2 for a binary operation'),
    infix: z.boolean().default(false).describe('binary only: also written between its arguments (x * y); every operation can be written in prefix form f(x, y)'),
  })
  .strict();
export type OperationDeclaration = z.infer<typeof OperationDeclarationSchema>;

/** Everything wrong with a declared signature, each with the path of the field at fault. */
export function signatureProblems(signature: { operations: readonly OperationDeclaration[]; variables: readonly string[] }): { path: JsonPath; message: string }[] {
  const problems: { path: JsonPath; message: string }[] = [];
  const seen = new Map<string, JsonPath>();
  const claim = (name: string, path: JsonPath): void => {
    const earlier = seen.get(name);
    if (earlier !== undefined) problems.push({ path, message: `the name "${name}" is already declared at ${earlier.join('.')}; operation and variable names must all differ` });
    else seen.set(name, path);
  };
  signature.operations.forEach((operation, index) => {
    claim(operation.name, ['operations', index, 'name']);
    if (operation.infix && operation.arity !== 2) {
      problems.push({ path: ['operations', index, 'infix'], message: `only a binary operation can be infix; "${operation.name}" has arity ${operation.arity}` });
    }
  });
  signature.variables.forEach((variable, index) => claim(variable, ['variables', index]));
  return problems;
}

/**
 * The signature part of a request: operations and variables. Names must all differ; `infix`
 * is allowed on binary operations only.
 */
export const SignatureSchema = z
  .object({
    operations: z
      .array(OperationDeclarationSchema)
      .min(1)
      .max(UNIVERSAL_ALGEBRA_LIMITS.maxOperations)
      .describe('the operations, in the order their tables and symmetry breaking use'),
    variables: z
      .array(z.string().refine(isVariableName, `must be an identifier of at most ${UNIVERSAL_ALGEBRA_LIMITS.maxNameLength} characters, other than __proto__ (an assignment, a JSON record, cannot carry that key)`))
      .max(UNIVERSAL_ALGEBRA_LIMITS.maxVariables)
      .describe('the names that laws may use as (universally quantified) variables'),
  })
  .strict()
  .superRefine((signature, ctx) => {
    for (const problem of signatureProblems(signature)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
export type SignatureInput = z.input<typeof SignatureSchema>;

/** A validated signature with name lookups, as the parser and the evaluator use it. */
export interface Signature {
  readonly operations: readonly OperationDeclaration[];
  readonly variables: readonly string[];
  /** Operation by name. */
  readonly operationByName: ReadonlyMap<string, OperationDeclaration>;
  readonly variableSet: ReadonlySet<string>;
}

/**
 * Validate a declared signature and build its lookups.
 *
 * @param path where the signature sits in the request, for error paths (e.g. `['payload', 'signature']`).
 * @throws JacobianError INVALID_REQUEST naming the field at fault.
 * @example
 * resolveSignature({ operations: [{ name: '*', arity: 2, infix: true }, { name: 'e', arity: 0 }], variables: ['x', 'y'] });
 */
export function resolveSignature(input: unknown, path: JsonPath = ['signature']): Signature {
  const parsed = SignatureSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at: JsonPath = [...path, ...(issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p))];
    throw new JacobianError('INVALID_REQUEST', `${at.join('.')}: ${issue?.message ?? 'invalid signature'}`, { path: at });
  }
  const { operations, variables } = parsed.data;
  return {
    operations,
    variables,
    operationByName: new Map(operations.map((operation) => [operation.name, operation])),
    variableSet: new Set(variables),
  };
}

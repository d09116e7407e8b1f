/**
 * The typed polynomial artifact and its canonical forms: a ring spec (field, variables, order),
 * canonical text (what {@link printPolynomial} writes parses back to the same polynomial), and a
 * canonical JSON shape whose terms are sorted by the ring's order with coefficients as exact
 * decimal strings. Decoding JSON checks that it is canonical, so equal polynomials have one
 * JSON form and one artifact digest.
 */
import { z } from 'zod';
import { JacobianError, type JsonPath } from '../../errors.js';
import { fieldFromSpec, FieldSpecSchema, fieldSpecOf } from './field.js';
import { POLYNOMIAL_LIMITS } from './limits.js';
import { MonomialOrderSchema, PolynomialRing, totalDegree, type Monomial, type Polynomial, type PolynomialTerm } from './polynomial.js';
import { VARIABLE_NAME_PATTERN } from './syntax.js';

const VariableName = z
  .string()
  .min(1)
  .max(POLYNOMIAL_LIMITS.maxNameLength)
  .regex(VARIABLE_NAME_PATTERN, 'a variable name is a letter or "_" followed by letters, digits or "_"');

/** A polynomial ring as JSON: coefficient field, variables (the first is the largest), monomial order. */
export const RingSpecSchema = z
  .object({
    field: FieldSpecSchema,
    variables: z
      .array(VariableName)
      .min(1)
      .max(POLYNOMIAL_LIMITS.maxVariables)
      .refine((names) => new Set(names).size === names.length, 'variable names must be distinct')
      .describe('the variables in decreasing order: the first is the largest in every monomial order'),
    order: MonomialOrderSchema,
  })
  .strict();
export type RingSpec = z.infer<typeof RingSpecSchema>;

/** A coefficient in canonical text: `-3`, `7/2` over Q; a residue 0 ≤ a < p over GF(p). */
const CoefficientText = z.string().min(1).max(2 * POLYNOMIAL_LIMITS.maxCoefficientDigits + 2);

/** One term: a non-zero coefficient and one exponent per variable. */
export const TermJsonSchema = z
  .object({
    coefficient: CoefficientText.describe('exact, in lowest terms: "-3", "7/2"; over GF(p) the least non-negative residue'),
    exponents: z.array(z.number().int().min(0).max(POLYNOMIAL_LIMITS.maxDegree)).describe('one exponent per ring variable, in the ring order'),
  })
  .strict();
export type TermJson = z.infer<typeof TermJsonSchema>;

/** A polynomial as canonical JSON: terms strictly decreasing in the ring's order; [] is zero. */
export const PolynomialJsonSchema = z
  .object({ terms: z.array(TermJsonSchema).max(POLYNOMIAL_LIMITS.maxTerms) })
  .strict()
  // Its JSON Schema is written once, under $defs/polynomial, however often a contract uses it.
  .meta({ id: 'polynomial', description: 'a polynomial as its terms: exact coefficients, one exponent per ring variable' });
export type PolynomialJson = z.infer<typeof PolynomialJsonSchema>;

/** A list of polynomials of one ring, the typed polynomial artifact. */
export const PolynomialListPayloadSchema = z
  .object({
    ring: RingSpecSchema,
    polynomials: z.array(PolynomialJsonSchema).max(POLYNOMIAL_LIMITS.maxPolynomials),
  })
  .strict();
export type PolynomialListPayload = z.infer<typeof PolynomialListPayloadSchema>;

/** Schema URI of {@link PolynomialListPayloadSchema}. */
export const POLYNOMIAL_LIST_SCHEMA_URI = 'jacobian:schema/polynomial.list/v1';

function invalid(message: string, path: JsonPath, rule: string): JacobianError {
  return new JacobianError('INVALID_REQUEST', message, { path, data: { rule } });
}

/**
 * The ring a spec describes, its field validated (GF(p) needs a prime). The spec is parsed with
 * {@link RingSpecSchema} first, so it may come straight from JSON.
 */
export function resolveRing(spec: unknown, path: JsonPath = ['ring']): PolynomialRing<unknown> {
  const parsed = RingSpecSchema.safeParse(spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`${path.join('.') || 'ring'}: ${issue?.message ?? 'invalid ring'}`, [...path, ...(issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p))], 'ring');
  }
  const { field, variables, order } = parsed.data;
  return new PolynomialRing<unknown>(fieldFromSpec(field, [...path, 'field']), variables, order);
}

/** The JSON spec of a ring. */
export function ringSpecOf(ring: PolynomialRing<unknown>): RingSpec {
  return { field: fieldSpecOf(ring.field), variables: [...ring.variables], order: ring.order };
}

function monomialText<C>(ring: PolynomialRing<C>, m: Monomial): string {
  const parts: string[] = [];
  for (let i = 0; i < m.length; i++) {
    const e = m[i] as number;
    if (e === 0) continue;
    const name = ring.variables[i] as string;
    parts.push(e === 1 ? name : `${name}^${e}`);
  }
  return parts.join('*');
}

/**
 * Canonical text: terms in decreasing order, `c*x^2*y` with coefficient 1 omitted, `-` and ` - `
 * for negative coefficients over Q, `0` for zero. It parses back to the same polynomial.
 */
export function printPolynomial<C>(ring: PolynomialRing<C>, p: Polynomial<C>): string {
  if (p.length === 0) return '0';
  const F = ring.field;
  let out = '';
  p.forEach((t, i) => {
    const negative = F.isNegative(t.coefficient);
    const c = negative ? F.neg(t.coefficient) : t.coefficient;
    const mono = monomialText(ring, t.monomial);
    const body = mono === '' ? F.format(c) : F.isOne(c) ? mono : `${F.format(c)}*${mono}`;
    out += i === 0 ? (negative ? `-${body}` : body) : negative ? ` - ${body}` : ` + ${body}`;
  });
  return out;
}

/** The canonical JSON form of a polynomial. */
export function polynomialToJson<C>(ring: PolynomialRing<C>, p: Polynomial<C>): PolynomialJson {
  return { terms: p.map((t) => ({ coefficient: ring.field.format(t.coefficient), exponents: Array.from(t.monomial) })) };
}

/**
 * Read canonical JSON back, rejecting anything not canonical: wrong exponent count, a zero or
 * non-normalized coefficient, terms out of order or repeated, a degree above the limit.
 */
export function polynomialFromJson<C>(ring: PolynomialRing<C>, json: unknown, path: JsonPath = []): Polynomial<C> {
  const parsed = PolynomialJsonSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`${path.join('.') || 'polynomial'}: ${issue?.message ?? 'not a polynomial'}`, [...path, ...(issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p))], 'polynomial-json');
  }
  const F = ring.field;
  const terms: PolynomialTerm<C>[] = [];
  for (const [i, t] of parsed.data.terms.entries()) {
    const at = [...path, 'terms', i];
    if (t.exponents.length !== ring.arity) throw invalid(`term ${i} has ${t.exponents.length} exponents but the ring has ${ring.arity} variables`, [...at, 'exponents'], 'exponents');
    const monomial = Int32Array.from(t.exponents);
    if (totalDegree(monomial) > POLYNOMIAL_LIMITS.maxDegree) throw invalid(`term ${i} has total degree above the limit of ${POLYNOMIAL_LIMITS.maxDegree}`, [...at, 'exponents'], 'size');
    const c = F.parseCanonical(t.coefficient);
    if (c === null || F.isZero(c)) {
      throw invalid(`term ${i}: "${t.coefficient.slice(0, 40)}" is not a non-zero coefficient of ${F.name} in canonical form`, [...at, 'coefficient'], 'coefficient');
    }
    const previous = terms[terms.length - 1];
    if (previous !== undefined && ring.compare(previous.monomial, monomial) <= 0) {
      throw invalid(`term ${i} is not smaller than term ${i - 1} in the ${ring.order} order (terms must be strictly decreasing)`, at, 'term-order');
    }
    terms.push({ monomial, coefficient: c });
  }
  return terms;
}

/** Encode a list of polynomials as the typed artifact payload. */
export function polynomialListToJson(ring: PolynomialRing<unknown>, polynomials: readonly Polynomial<unknown>[]): PolynomialListPayload {
  return { ring: ringSpecOf(ring), polynomials: polynomials.map((p) => polynomialToJson(ring, p)) };
}

/**
 * matrix.characteristic_polynomial.compute and matrix.minimal_polynomial.compute on our
 * TypeScript engine (characteristic.ts, run in its isolated kernel). Both answer the polynomial
 * as coefficients (lowest degree first) and as the polynomial core's canonical text in a variable
 * of the request's choosing (default x); the minimal polynomial is stored as a claim for
 * matrix.minimal_polynomial.verify.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  JacobianError,
  MATRIX_SCHEMA_URI,
  MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI,
  MINIMAL_POLYNOMIAL_CLAIM_SEMANTICS_URI,
  MinimalPolynomialClaimSchema,
  POLYNOMIAL_LIMITS,
  PolynomialRing,
  printPolynomial,
  RATIONALS,
  resolveMatrixRing,
  runKernel,
  VARIABLE_NAME_PATTERN,
  type CapabilityContext,
  type CapabilityDefinition,
  type Diagnostic,
  type Field,
  type MatrixPayload,
  type ProviderRuntime,
  type ResolvedMatrix,
} from '@jacobian/shared';
import {
  answerField,
  type EngineRecord,
  EngineSchema,
  MATRIX_DESCRIPTOR_LIMITS,
  MATRIX_VERSION,
  type MatrixBackendOptions,
  matrixInput,
  pariRunOptions,
  pariToolsOf,
  providerEngine,
  requireSquare,
  resolveMatrix,
  servedBy,
  servedOutcome,
  storeClaim,
} from './capability-support.js';
import type { PariTools } from '../providers/pari.js';
import { PARI_CHARACTERISTIC_METHOD, PARI_MINIMAL_METHOD, pariCharacteristic, pariMinimal } from './pari-backend.js';
import { CharacteristicKernelOutput } from './characteristic.kernel.js';

export const MATRIX_CHARACTERISTIC_POLYNOMIAL_ID = 'matrix.characteristic_polynomial.compute';
export const MATRIX_MINIMAL_POLYNOMIAL_ID = 'matrix.minimal_polynomial.compute';

const KERNEL = { module: fileURLToPath(new URL('./characteristic.kernel.ts', import.meta.url)), exportName: 'characteristicKernel' };

export const CHARACTERISTIC_METHOD = 'Hessenberg reduction by similarity and the Hessenberg recurrence, modulo p; over Z and Q modulo word-size primes combined by the Chinese remainder theorem up to a Hadamard bound (exact)';
export const MINIMAL_METHOD = 'lcm of the local minimal polynomials of the standard basis vectors, each the first linear dependence of its Krylov sequence, modulo p; over Z and Q modulo word-size primes combined by the Chinese remainder theorem until the bound on the entries of m(A) proves m(A) = 0, or, when its degree is n modulo a prime, the characteristic polynomial (exact, no factorization)';

const Variable = z
  .string()
  .min(1)
  .max(POLYNOMIAL_LIMITS.maxNameLength)
  .regex(VARIABLE_NAME_PATTERN, 'a variable name is a letter or "_" followed by letters, digits or "_"')
  .optional()
  .describe('the variable of the polynomial text (default "x")');

export const CharacteristicPolynomialInput = matrixInput({ variable: Variable });
export type CharacteristicPolynomialInput = z.infer<typeof CharacteristicPolynomialInput>;
export const MinimalPolynomialInput = CharacteristicPolynomialInput;
export type MinimalPolynomialInput = CharacteristicPolynomialInput;

const Coefficients = z.array(z.string()).describe('the coefficients c_0, c_1, …, c_d, lowest degree first (c_d = 1: the polynomial is monic), exact in the field');

export const CharacteristicPolynomialOutput = z
  .object({
    polynomial: z.string().describe('det(x I − A) in the polynomial core\'s canonical text, e.g. "x^2 - 5*x - 2"'),
    coefficients: Coefficients,
    degree: z.number().int().describe('n, the order of the matrix'),
    variable: z.string(),
    trace: z.string().describe('tr A = −c_{n−1}'),
    determinant: z.string().describe('det A = (−1)^n c_0'),
    square_free: z.boolean().describe('no repeated factor (gcd with its derivative is 1): then A has n distinct eigenvalues in the algebraic closure and is diagonalizable there'),
    field: z.string().describe('Q for integer and rational matrices (over Z the coefficients are integers), GF(p) otherwise'),
    engine: EngineSchema,
  })
  .strict();
export type CharacteristicPolynomialOutput = z.infer<typeof CharacteristicPolynomialOutput>;

export const MinimalPolynomialOutput = z
  .object({
    polynomial: z.string().describe('the minimal polynomial in the polynomial core\'s canonical text, e.g. "x^2 - 3*x + 2"'),
    coefficients: Coefficients,
    degree: z.number().int().describe('its degree, at most n; equal to n exactly when A is cyclic (non-derogatory)'),
    n: z.number().int().describe('the order of the matrix'),
    variable: z.string(),
    diagonalizable: z.boolean().describe('true exactly when the minimal polynomial is square-free (gcd with its derivative is 1), i.e. A is diagonalizable over the algebraic closure of the field'),
    field: z.string().describe('Q for integer and rational matrices, GF(p) otherwise'),
    result_uri: z.string().nullable().describe('the answer stored as a claim, to pass as result_uri to matrix.minimal_polynomial.verify; null when not retained'),
    engine: EngineSchema,
  })
  .strict();
export type MinimalPolynomialOutput = z.infer<typeof MinimalPolynomialOutput>;

/** The field of the answers, its elements, and the text of coefficients in `variable`. */
export function polynomialText(matrix: MatrixPayload, coefficients: readonly string[], variable: string): string {
  const F = (resolveMatrixRing(matrix.ring).field ?? RATIONALS) as Field<unknown>;
  const ring = new PolynomialRing<unknown>(F, [variable], 'lex');
  const terms = [];
  for (let k = coefficients.length - 1; k >= 0; k--) {
    const c = F.parseCanonical(coefficients[k] as string);
    if (c === null) throw new JacobianError('INTERNAL', `the kernel answered a non-canonical coefficient "${String(coefficients[k]).slice(0, 40)}"`);
    if (!F.isZero(c)) terms.push({ monomial: Int32Array.of(k), coefficient: c });
  }
  return printPolynomial(ring, terms);
}

async function runCharacteristic(context: CapabilityContext, operation: 'characteristic' | 'minimal', resolved: ResolvedMatrix): Promise<{ output: CharacteristicKernelOutput; ms: number }> {
  const started = Date.now();
  const output = CharacteristicKernelOutput.parse(await runKernel(context, KERNEL, { operation, matrix: resolved.matrix }));
  return { output, ms: Date.now() - started };
}

/** The polynomial (coefficients lowest first, square-freeness) on PARI/GP or our kernel, with the engine record. */
async function characteristicOn(
  pari: PariTools | null,
  context: CapabilityContext,
  operation: 'characteristic' | 'minimal',
  resolved: ResolvedMatrix,
  runtime: ProviderRuntime,
): Promise<{ coefficients: string[]; square_free: boolean; engine: EngineRecord }> {
  if (pari === null) {
    const { output, ms } = await runCharacteristic(context, operation, resolved);
    return { ...output, engine: providerEngine(runtime, operation === 'characteristic' ? CHARACTERISTIC_METHOD : MINIMAL_METHOD, ms) };
  }
  const answer = operation === 'characteristic' ? await pariCharacteristic(pari, resolved.matrix, pariRunOptions(context)) : await pariMinimal(pari, resolved.matrix, pariRunOptions(context));
  return { coefficients: answer.coefficients, square_free: answer.squareFree, engine: providerEngine(runtime, operation === 'characteristic' ? PARI_CHARACTERISTIC_METHOD : PARI_MINIMAL_METHOD, answer.ms) };
}

const COMMON = {
  version: MATRIX_VERSION,
  domain: 'matrix',
  modes: ['EXPLORE'],
  role: 'producer',
  pool: 'heavy',
  input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
  accepted_artifact_types: [MATRIX_SCHEMA_URI],
  assurance_ceiling: 'COMPUTED',
  limits: { ...MATRIX_DESCRIPTOR_LIMITS },
} as const;

/** matrix.characteristic_polynomial.compute on PARI/GP (when `runtime` is its) or our TypeScript engine. */
export function characteristicPolynomialCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<CharacteristicPolynomialInput, CharacteristicPolynomialOutput> {
  const pari = pariToolsOf(MATRIX_CHARACTERISTIC_POLYNOMIAL_ID, runtime, options);
  const served = servedBy(pari, 'The exact characteristic polynomial det(x I − A) of a square dense matrix over Z, Q or GF(p), as coefficients (lowest degree first) and as polynomial text in a variable of your choice (default x): by Hessenberg reduction (similarity transformations, which keep the characteristic polynomial) and the Hessenberg recurrence modulo primes; over Z and Q the residues modulo word-size primes are combined by the Chinese remainder theorem up to a Hadamard bound, so the answer is exact with no fraction growth. Its roots are the eigenvalues; the answer also gives the trace and determinant read off it and whether it is square-free (n distinct eigenvalues, so diagonalizable over the algebraic closure). By Cayley–Hamilton it annihilates A; matrix.minimal_polynomial.compute gives the least such polynomial. A non-square matrix is refused before any work, naming the rule.', ['matrix', 'linear-algebra', 'characteristic-polynomial', 'eigenvalues', 'exact', 'typescript'], 'charpoly');
  return {
    ...COMMON,
    modes: [...COMMON.modes],
    input_kinds: [...COMMON.input_kinds],
    accepted_artifact_types: [...COMMON.accepted_artifact_types],
    id: MATRIX_CHARACTERISTIC_POLYNOMIAL_ID,
    title: 'Characteristic polynomial det(xI − A) over Z, Q or GF(p)',
    description: served.description,
    tags: served.tags,
    keywords: [
      'characteristic polynomial',
      'charpoly',
      'det(xI - A)',
      'det(xI − A)',
      'eigenvalues',
      'eigenvalue polynomial',
      'Cayley–Hamilton',
      'Cayley-Hamilton theorem',
      'trace and determinant',
      'Hessenberg reduction',
      'secular equation',
      'characteristic polynomial mod p',
      'diagonalizable',
    ],
    role: 'producer',
    produced_artifact_types: [],
    input: CharacteristicPolynomialInput,
    output: CharacteristicPolynomialOutput,
    examples: [
      { title: 'A 2×2 integer matrix: x^2 - 5*x - 2', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[1, 2], [3, 4]] } } },
      { title: 'A 3×3 matrix over GF(5), in the variable t', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'GF', characteristic: '5' }, rows: [[1, 2, 0], [0, 3, 4], [2, 0, 1]] }, variable: 't' } },
    ],
    relationships: [],
    scope_rule: 'Covers exactly the given square matrix: its characteristic polynomial over Q (for Z and Q entries) or GF(p).',
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      requireSquare(resolved, input, 'the characteristic polynomial');
      const output = await characteristicOn(pari, context, 'characteristic', resolved, runtime);
      const n = resolved.matrix.nrows;
      const variable = input.variable ?? 'x';
      const F = (resolveMatrixRing(resolved.matrix.ring).field ?? RATIONALS) as Field<unknown>;
      const c = (k: number): unknown => F.parseCanonical(output.coefficients[k] as string);
      const constant = c(0);
      return servedOutcome<CharacteristicPolynomialOutput>(
        pari,
        {
          polynomial: polynomialText(resolved.matrix, output.coefficients, variable),
          coefficients: output.coefficients,
          degree: n,
          variable,
          trace: F.format(F.neg(c(n - 1))),
          determinant: F.format(n % 2 === 0 ? constant : F.neg(constant)),
          square_free: output.square_free,
          field: answerField(resolved),
          engine: output.engine,
        },
        resolved,
        'the characteristic polynomial det(x I − A)',
        'Hessenberg reduction and the recurrence ran to the end exactly',
      );
    },
  };
}

/** matrix.minimal_polynomial.compute on PARI/GP (when `runtime` is its) or our TypeScript engine; the answer is stored as a claim. */
export function minimalPolynomialCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<MinimalPolynomialInput, MinimalPolynomialOutput> {
  const pari = pariToolsOf(MATRIX_MINIMAL_POLYNOMIAL_ID, runtime, options);
  const served = servedBy(pari, 'The exact minimal polynomial of a square dense matrix over Z, Q (answered over Q) or GF(p): the monic polynomial m of least degree with m(A) = 0, which divides every annihilating polynomial, the characteristic polynomial included (Cayley–Hamilton), and has the same irreducible factors. Computed without factoring, as the lcm of the local minimal polynomials of the standard basis vectors (first linear dependence of each Krylov sequence e_i, A e_i, A² e_i, …); over Z and Q modulo word-size primes, combined by the Chinese remainder theorem until a bound proves the result kills A exactly. Answers coefficients (lowest degree first), polynomial text in a variable of your choice (default x), and whether A is diagonalizable over the algebraic closure (m square-free). The answer is stored as a claim that matrix.minimal_polynomial.verify checks independently. A non-square matrix is refused before any work, naming the rule.', ['matrix', 'linear-algebra', 'minimal-polynomial', 'eigenvalues', 'exact', 'certificate', 'typescript'], 'minpoly');
  return {
    ...COMMON,
    modes: [...COMMON.modes],
    input_kinds: [...COMMON.input_kinds],
    accepted_artifact_types: [...COMMON.accepted_artifact_types],
    id: MATRIX_MINIMAL_POLYNOMIAL_ID,
    title: 'Minimal polynomial of a matrix over Z, Q or GF(p)',
    description: served.description,
    tags: served.tags,
    keywords: [
      'minimal polynomial',
      'minpoly',
      'annihilating polynomial',
      'least degree polynomial with p(A) = 0',
      'Cayley–Hamilton',
      'diagonalizable',
      'is the matrix diagonalizable',
      'eigenvalues',
      'Krylov sequence',
      'cyclic matrix',
      'non-derogatory',
      'minimal polynomial mod p',
    ],
    role: 'producer',
    produced_artifact_types: [MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI],
    input: MinimalPolynomialInput,
    output: MinimalPolynomialOutput,
    examples: [
      { title: 'diag(2, 2, 3): minimal polynomial x^2 - 5*x + 6 (the characteristic polynomial is cubic)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0, 0], [0, 2, 0], [0, 0, 3]] } } },
      { title: 'A Jordan block over GF(7) is not diagonalizable: (x - 1)^2', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'GF', characteristic: '7' }, rows: [[1, 1], [0, 1]] } } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'matrix.minimal_polynomial.verify' }],
    scope_rule: 'Covers exactly the given square matrix: its minimal polynomial over Q (for Z and Q entries) or GF(p).',
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      requireSquare(resolved, input, 'the minimal polynomial');
      const output = await characteristicOn(pari, context, 'minimal', resolved, runtime);
      const n = resolved.matrix.nrows;
      const variable = input.variable ?? 'x';
      const degree = output.coefficients.length - 1;
      const claim = MinimalPolynomialClaimSchema.parse({ matrix: resolved.matrix, coefficients: output.coefficients });
      const diagnostics: Diagnostic[] = [];
      const resultUri = await storeClaim(
        { schema_uri: MINIMAL_POLYNOMIAL_CLAIM_SCHEMA_URI, semantics_uri: MINIMAL_POLYNOMIAL_CLAIM_SEMANTICS_URI, payload: claim, parents: resolved.input_uris, summary: { degree, n } },
        context,
        diagnostics,
      );
      return servedOutcome<MinimalPolynomialOutput>(
        pari,
        {
          polynomial: polynomialText(resolved.matrix, output.coefficients, variable),
          coefficients: output.coefficients,
          degree,
          n,
          variable,
          diagonalizable: output.square_free,
          field: answerField(resolved),
          result_uri: resultUri,
          engine: output.engine,
        },
        resolved,
        'the minimal polynomial',
        'the Krylov sequences of all standard basis vectors were reduced to their first dependences exactly',
        { evidence: { artifact_uris: resultUri === null ? [] : [resultUri], diagnostics } },
      );
    },
  };
}

/**
 * What the matrix capabilities share: the operand input, the kernel call, the engine record and
 * the outcome of an exact computation.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  JacobianError,
  MATRIX_LIMITS,
  matrixOperandShape,
  refineMatrixOperand,
  resolveMatrixOperand,
  runKernel,
  toAppError,
  type CapabilityContext,
  type CapabilityOutcome,
  type Diagnostic,
  type MatrixOperand,
  type ProviderRuntime,
  type ResolvedMatrix,
} from '@jacobian/shared';
import { LinearAlgebraKernelOutput, type LinearAlgebraKernelInput, type LinearAlgebraOperation } from './linear-algebra.kernel.js';
import { PARI_PROVIDER, type PariRunOptions, type PariTools } from '../providers/pari.js';

const KERNEL = { module: fileURLToPath(new URL('./linear-algebra.kernel.ts', import.meta.url)), exportName: 'linearAlgebraKernel' };

export const MATRIX_VERSION = '1.0.0';

/** The provider name of our TypeScript linear algebra engine (provider.ts registers it). */
export const LINEAR_ALGEBRA_TS_PROVIDER = 'jacobian-linear-algebra-ts';

/** The limits every matrix capability states. */
export const MATRIX_DESCRIPTOR_LIMITS = { max_rows: MATRIX_LIMITS.maxRows, max_columns: MATRIX_LIMITS.maxColumns, max_entry_bits: MATRIX_LIMITS.maxEntryBits } as const;

/** The input of a capability that takes one matrix, with `extra` fields of its own. */
export function matrixInput<S extends z.ZodRawShape>(extra: S) {
  return z
    .object({ ...matrixOperandShape, ...extra })
    .strict()
    .superRefine((input, ctx) => refineMatrixOperand(input as MatrixOperand, ctx));
}

export const EngineSchema = z
  .object({ provider: z.string(), version: z.string(), method: z.string(), compute_ms: z.number().int() })
  .strict()
  .describe('who computed the answer and how');
export type EngineRecord = z.infer<typeof EngineSchema>;

export const FRACTION_FREE_METHOD = 'fraction-free Gaussian elimination (Bareiss) on big integers, rows scaled to integers';
export const MULTIMODULAR_METHOD = 'multimodular: Gaussian elimination modulo word-size primes, as many as Hadamard\'s bound asks for, rows scaled to integers; deterministic';
export const GF_METHOD = 'Gaussian elimination over GF(p)';

/** Fields in which answers are written: Q for Z and Q matrices, GF(p) otherwise. */
export function answerField(resolved: ResolvedMatrix): string {
  return resolved.matrix.ring.kind === 'GF' ? `GF(${resolved.matrix.ring.characteristic})` : 'Q';
}

/** Where the request put the matrix, for errors about its shape. */
export function matrixPath(input: MatrixOperand): (string | number)[] {
  return input.matrix_uri !== undefined ? ['payload', 'matrix_uri'] : ['payload', 'matrix', 'rows'];
}

/** A square matrix, or INVALID_REQUEST naming the matrix and the rule, before any work. */
export function requireSquare(resolved: ResolvedMatrix, input: MatrixOperand, what: string): void {
  const { nrows, ncols } = resolved.matrix;
  if (nrows !== ncols) {
    const path = matrixPath(input);
    throw new JacobianError('INVALID_REQUEST', `${path.join('.')}: ${what} is defined for square matrices only; this one is ${nrows}×${ncols} (rule square)`, {
      path,
      data: { rule: 'square', nrows, ncols },
      hint: 'matrix.rank.compute, matrix.rref.compute and matrix.nullspace.compute take any shape',
    });
  }
}

export async function resolveMatrix(input: MatrixOperand, context: CapabilityContext): Promise<ResolvedMatrix> {
  return resolveMatrixOperand(input, context.artifacts, { signal: context.signal });
}

/** Run one operation in the isolated kernel; the answer is parsed, and must be of that operation, before it is used. */
export async function runLinearAlgebra<K extends LinearAlgebraOperation>(
  context: CapabilityContext,
  input: LinearAlgebraKernelInput & { operation: K },
): Promise<{ output: Extract<LinearAlgebraKernelOutput, { operation: K }>; ms: number }> {
  const started = Date.now();
  const output = LinearAlgebraKernelOutput.parse(await runKernel(context, KERNEL, input));
  if (output.operation !== input.operation) throw new JacobianError('INTERNAL', `the linear algebra kernel answered ${output.operation} to ${input.operation}`);
  return { output: output as Extract<LinearAlgebraKernelOutput, { operation: K }>, ms: Date.now() - started };
}

/** The engine record of the provider `runtime` describes, computing by `method`. */
export function providerEngine(runtime: ProviderRuntime, method: string, ms: number): EngineRecord {
  return { provider: runtime.provider, version: runtime.version, method, compute_ms: ms };
}

/** Our engine's record: elimination modulo p over GF(p), `method` over Z and Q. */
export function engineRecord(runtime: ProviderRuntime, resolved: ResolvedMatrix, ms: number, method: string = FRACTION_FREE_METHOD): EngineRecord {
  return providerEngine(runtime, resolved.matrix.ring.kind === 'GF' ? GF_METHOD : method, ms);
}

/**
 * Store a claim for its checker. A claim over the store's size limit is not kept: a warning in
 * `diagnostics` and null (the answer in the output stands).
 */
export async function storeClaim(draft: Parameters<CapabilityContext['artifacts']['put']>[0], context: CapabilityContext, diagnostics: Diagnostic[]): Promise<string | null> {
  try {
    return (await context.artifacts.put(draft, { signal: context.signal })).uri;
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
    diagnostics.push({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED', stage: 'ARTIFACT', message: `the claim was not stored: ${appError.message}`.slice(0, 2000), path: null, hint: 'the answer in the output stands; give it inline to the checker' });
    return null;
  }
}

/**
 * The capabilities PARI/GP can serve take the probe that found it: registered with
 * firstHealthyOf([pari, ours]), they run on gp when the runtime is PARI's and on our engine
 * otherwise.
 */
export interface MatrixBackendOptions {
  readonly pari?: { readonly tools: PariTools | undefined } | undefined;
}

/** gp's tools when the runtime is PARI's, null for our engine. */
export function pariToolsOf(id: string, runtime: ProviderRuntime, options: MatrixBackendOptions): PariTools | null {
  if (runtime.provider !== PARI_PROVIDER) return null;
  const tools = options.pari?.tools;
  if (tools === undefined) throw new JacobianError('REGISTRATION_INVALID', `${id} on PARI/GP needs the tools its probe found`);
  return tools;
}

/** A gp run's bounds from the run's budget: its deadline, signal and memory; output up to 4× the budget's (at least 16 MiB). */
export function pariRunOptions(context: CapabilityContext): PariRunOptions {
  return { signal: context.signal, deadline: context.deadline, maxOutputBytes: Math.min(256 * 1024 * 1024, Math.max(16 * 1024 * 1024, 4 * context.budget.max_output_bytes)), memoryMb: context.budget.memory_mb };
}

/** What a descriptor says about who computes, for the provider that serves it. */
export function servedBy(tools: PariTools | null, description: string, tags: readonly string[], pariFunction: string): { description: string; tags: string[] } {
  if (tools === null) return { description, tags: [...tags] };
  return { description: `${description} Served by PARI/GP (${pariFunction}), its answer rechecked by us before it is returned.`, tags: tags.map((tag) => (tag === 'typescript' ? 'pari-gp' : tag)) };
}

export const TS_ASSURANCE = 'computed exactly by our TypeScript linear algebra engine; not independently checked';
export const PARI_ASSURANCE = 'computed exactly by PARI/GP and rechecked by us as the engine method states; not independently verified';

/** The completeness basis of an answer PARI/GP served. */
export const PARI_RECHECKED_BASIS = 'PARI/GP ran to the end and its answer passed our recheck';

/**
 * The outcome of an exact computation by the provider that served it: with `pari` null (our
 * engine), `oursBasis` and our assurance; with PARI/GP's tools, that its answer passed our recheck
 * (`options.pariBasis`, by default {@link PARI_RECHECKED_BASIS}) and PARI's assurance.
 */
export function servedOutcome<O>(
  pari: PariTools | null,
  output: O,
  resolved: ResolvedMatrix,
  what: string,
  oursBasis: string,
  options: { subject?: string; evidence?: { artifact_uris: string[]; diagnostics: Diagnostic[] }; pariBasis?: string } = {},
): CapabilityOutcome<O> {
  const { subject = resolved.description, evidence, pariBasis = PARI_RECHECKED_BASIS } = options;
  return pari === null ? exactOutcome(output, resolved, what, oursBasis, subject, evidence, TS_ASSURANCE) : exactOutcome(output, resolved, what, pariBasis, subject, evidence, PARI_ASSURANCE);
}

/** How a producer whose answer is one stored claim (determinant, rank) gets that answer. */
export interface ClaimProducer<A, O> {
  /** PARI/GP's answer, rechecked, when the runtime is PARI's; `pariMethod` names it in the engine record. */
  pari(tools: PariTools, options: PariRunOptions): Promise<{ answer: A; ms: number }>;
  pariMethod: string;
  /** Our isolated kernel's answer; `method` names it over Z and Q (GF(p): {@link GF_METHOD}). */
  ours(): Promise<{ answer: A; ms: number }>;
  method: string;
  /** The claim to store for the checker: its schema, semantics, payload and summary. */
  claim(answer: A): Omit<Parameters<CapabilityContext['artifacts']['put']>[0], 'parents'>;
  /** The output, given the answer, the stored claim's URI and the engine record. */
  output(answer: A, resultUri: string | null, engine: EngineRecord): O;
}

/**
 * Run a {@link ClaimProducer}: the answer from PARI/GP (`tools` set) or our kernel, the claim
 * stored (its parents the matrix's input URIs), and the exact outcome of `what`.
 */
export async function produceClaim<A, O>(context: CapabilityContext, runtime: ProviderRuntime, tools: PariTools | null, resolved: ResolvedMatrix, what: string, producer: ClaimProducer<A, O>): Promise<CapabilityOutcome<O>> {
  const { answer, engine } =
    tools !== null
      ? await producer.pari(tools, pariRunOptions(context)).then(({ answer, ms }) => ({ answer, engine: providerEngine(runtime, producer.pariMethod, ms) }))
      : await producer.ours().then(({ answer, ms }) => ({ answer, engine: engineRecord(runtime, resolved, ms, producer.method) }));
  const diagnostics: Diagnostic[] = [];
  const resultUri = await storeClaim({ ...producer.claim(answer), parents: resolved.input_uris }, context, diagnostics);
  return servedOutcome(tools, producer.output(answer, resultUri, engine), resolved, what, 'elimination ran to the end exactly', {
    evidence: { artifact_uris: resultUri === null ? [] : [resultUri], diagnostics },
  });
}

/** The outcome of an exact computation by our engine: `what` of `subject` (by default the matrix as resolved). */
export function exactOutcome<O>(
  output: O,
  resolved: ResolvedMatrix,
  what: string,
  basis: string,
  subject: string = resolved.description,
  evidence: { artifact_uris: string[]; diagnostics: Diagnostic[] } = { artifact_uris: [], diagnostics: [] },
  assurance: string = TS_ASSURANCE,
): CapabilityOutcome<O> {
  return {
    status: 'COMPLETED',
    output,
    scope: { kind: 'EXACT_INPUT', statement: `${what} of ${subject}`.slice(0, 2000), input_uris: resolved.input_uris },
    completeness: { status: 'COMPLETE', basis: basis.slice(0, 1000) },
    qualifiers: ['EXACT', 'DETERMINISTIC'],
    assurance: { level: 'COMPUTED', basis: assurance, verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: evidence.artifact_uris,
    diagnostics: evidence.diagnostics,
  };
}

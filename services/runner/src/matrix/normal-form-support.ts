/**
 * What the integer normal form capabilities share: the input (a Z matrix and `transforms`), the
 * refusal of other rings, the isolated kernel call, and the stored claim for
 * matrix.normal_form.verify.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  JacobianError,
  NORMAL_FORM_CLAIM_SCHEMA_URI,
  NORMAL_FORM_CLAIM_SEMANTICS_URI,
  NormalFormClaimSchema,
  requireIntegerMatrix,
  runKernel,
  type CapabilityContext,
  type Diagnostic,
  type MatrixOperand,
  type ProviderRuntime,
  type ResolvedMatrix,
} from '@jacobian/shared';
import { matrixInput, matrixPath, storeClaim, type EngineRecord } from './capability-support.js';
import { NormalFormKernelOutput, type NormalFormKernelInput } from './normal-form.kernel.js';

const KERNEL = { module: fileURLToPath(new URL('./normal-form.kernel.ts', import.meta.url)), exportName: 'normalFormKernel' };

export const NORMAL_FORM_METHOD = 'unimodular row and column operations from the extended gcd on big integers (entries above Hermite pivots reduced as each pivot is placed; least-magnitude Smith pivots)';

/** The input of both capabilities: one integer matrix, and whether to return the transforms. */
export const NormalFormInput = matrixInput({
  transforms: z.boolean().default(false).describe('also return the unimodular transforms (and store the claim for matrix.normal_form.verify); default false'),
});
export type NormalFormInput = z.infer<typeof NormalFormInput>;

/** A matrix over Z, or INVALID_REQUEST naming the ring and the rule. */
export function requireInteger(resolved: ResolvedMatrix, input: MatrixOperand, what: string): void {
  const path = input.matrix_uri !== undefined ? matrixPath(input) : ['payload', 'matrix', 'ring'];
  requireIntegerMatrix(resolved.matrix, path, what);
}

/** Run one normal form in the isolated kernel; the answer is parsed, and must be of that operation, before it is used. */
export async function runNormalForm<K extends 'hermite' | 'smith'>(
  context: CapabilityContext,
  input: NormalFormKernelInput & { operation: K },
): Promise<{ output: Extract<NormalFormKernelOutput, { operation: K }>; ms: number }> {
  const started = Date.now();
  const output = NormalFormKernelOutput.parse(await runKernel(context, KERNEL, input));
  if (output.operation !== input.operation) throw new JacobianError('INTERNAL', `the normal form kernel answered ${output.operation} to ${input.operation}`);
  return { output: output as Extract<NormalFormKernelOutput, { operation: K }>, ms: Date.now() - started };
}

export function normalFormEngine(runtime: ProviderRuntime, ms: number): EngineRecord {
  return { provider: runtime.provider, version: runtime.version, method: NORMAL_FORM_METHOD, compute_ms: ms };
}

/** Store the claim (with its transforms) for matrix.normal_form.verify; null when not retained (a warning in `diagnostics`). */
export async function storeNormalFormClaim(claim: unknown, resolved: ResolvedMatrix, context: CapabilityContext, diagnostics: Diagnostic[]): Promise<string | null> {
  const parsed = NormalFormClaimSchema.safeParse(claim);
  if (!parsed.success) {
    diagnostics.push({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED', stage: 'ARTIFACT', message: `the claim was not stored: ${parsed.error.issues[0]?.message ?? 'not a claim'}`.slice(0, 2000), path: null, hint: 'the answer in the output stands' });
    return null;
  }
  const { form, matrix } = parsed.data;
  return storeClaim(
    { schema_uri: NORMAL_FORM_CLAIM_SCHEMA_URI, semantics_uri: NORMAL_FORM_CLAIM_SEMANTICS_URI, payload: parsed.data, parents: resolved.input_uris, summary: { form, nrows: matrix.nrows, ncols: matrix.ncols } },
    context,
    diagnostics,
  );
}

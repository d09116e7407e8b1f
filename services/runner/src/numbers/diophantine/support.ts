/**
 * What the Diophantine capabilities share: integer inputs (JSON integers or decimal text), the
 * isolated kernel call, the engine record, the stored claim, and the outcome of an exact answer.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  DIOPHANTINE_CLAIM_SCHEMA_URI,
  DIOPHANTINE_CLAIM_SEMANTICS_URI,
  DiophantineClaimSchema,
  integerTextSchema,
  JacobianError,
  runKernel,
  type CapabilityContext,
  type CapabilityOutcome,
  type Diagnostic,
  type ProviderRuntime,
  type JsonValue,
  type Qualifier,
} from '@jacobian/shared';
import { storeClaim } from '../../matrix/capability-support.js';
import { DiophantineKernelOutput, type DiophantineKernelInput } from './diophantine.kernel.js';

const KERNEL = { module: fileURLToPath(new URL('./diophantine.kernel.ts', import.meta.url)), exportName: 'diophantineKernel' };

export const DIOPHANTINE_VERSION = '1.0.0';
export const DIOPHANTINE_TS_PROVIDER = 'jacobian-diophantine-ts';

/** An integer given as a JSON integer (safe range) or as decimal text of at most `maxDigits` digits; read as canonical text. */
export function integerInput(maxDigits: number, sign: 'any' | 'non-negative' | 'positive' = 'any') {
  const text = integerTextSchema({ maxDigits, sign });
  return z
    .union([z.number().int().refine(Number.isSafeInteger, 'a JSON integer must be a safe integer; give larger ones as decimal text'), z.string()])
    .transform((value, ctx) => {
      const canonical = typeof value === 'number' ? String(value) : value;
      const parsed = text.safeParse(canonical === '-0' ? '0' : canonical);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
        return z.NEVER;
      }
      return parsed.data;
    })
    .describe(`an integer: a JSON integer or decimal text of at most ${maxDigits} digits`);
}

/** A binary quadratic form [a, b, c] of integers. */
export function formInput(maxDigits: number) {
  const n = integerInput(maxDigits);
  return z.tuple([n, n, n]).describe('[a, b, c]: the binary quadratic form a x² + b xy + c y² (integers, as JSON integers or decimal text)');
}

export const EngineSchema = z
  .object({ provider: z.string(), version: z.string(), method: z.string(), compute_ms: z.number().int() })
  .strict()
  .describe('who computed the answer and how');
export type EngineRecord = z.infer<typeof EngineSchema>;

export function engineRecord(runtime: ProviderRuntime, method: string, ms: number): EngineRecord {
  return { provider: runtime.provider, version: runtime.version, method, compute_ms: ms };
}

/** Run one operation in the isolated kernel; the answer is parsed, and must be of that operation. */
export async function runDiophantine<K extends DiophantineKernelInput['operation']>(
  context: CapabilityContext,
  input: DiophantineKernelInput & { operation: K },
): Promise<{ output: Extract<DiophantineKernelOutput, { operation: K }>; ms: number }> {
  const started = Date.now();
  const output = DiophantineKernelOutput.parse(await runKernel(context, KERNEL, input));
  if (output.operation !== input.operation) throw new JacobianError('INTERNAL', `the Diophantine kernel answered ${output.operation} to ${input.operation}`);
  return { output: output as Extract<DiophantineKernelOutput, { operation: K }>, ms: Date.now() - started };
}

/** Store a claim for diophantine.claim.verify; null (with a warning) when it is not retained. */
export async function storeDiophantineClaim(claim: unknown, summary: Record<string, JsonValue>, context: CapabilityContext, diagnostics: Diagnostic[], parents: string[] = []): Promise<string | null> {
  const parsed = DiophantineClaimSchema.safeParse(claim);
  if (!parsed.success) {
    diagnostics.push({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED', stage: 'ARTIFACT', message: `the claim was not stored: ${parsed.error.issues[0]?.message ?? 'not a claim'}`.slice(0, 2000), path: null, hint: 'the answer in the output stands' });
    return null;
  }
  return storeClaim({ schema_uri: DIOPHANTINE_CLAIM_SCHEMA_URI, semantics_uri: DIOPHANTINE_CLAIM_SEMANTICS_URI, payload: parsed.data, parents, summary }, context, diagnostics);
}

export const TS_ASSURANCE = 'computed exactly by our TypeScript code and rechecked as the output says; not independently verified (diophantine.claim.verify can)';

/** The outcome of an exact answer of ours: `statement` is what it covers, `basis` why it is complete. */
export function exactOutcome<O>(
  output: O,
  statement: string,
  basis: string,
  options: { assurance?: string; qualifiers?: Qualifier[]; artifactUris?: string[]; diagnostics?: Diagnostic[]; inputUris?: string[] } = {},
): CapabilityOutcome<O> {
  return {
    status: 'COMPLETED',
    output,
    scope: { kind: 'EXACT_INPUT', statement: statement.slice(0, 2000), input_uris: options.inputUris ?? [] },
    completeness: { status: 'COMPLETE', basis: basis.slice(0, 1000) },
    qualifiers: options.qualifiers ?? ['EXACT', 'DETERMINISTIC'],
    assurance: { level: 'COMPUTED', basis: (options.assurance ?? TS_ASSURANCE).slice(0, 1000), verification_record_uri: null, checker_id: null },
    obligations: [],
    relationships: [],
    artifact_uris: options.artifactUris ?? [],
    diagnostics: options.diagnostics ?? [],
  };
}

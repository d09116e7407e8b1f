/**
 * The worker thread of the admission pool (admission-pool.ts): the size-proportional part of
 * admitting a large math.run request, off the API's event loop. For each request it parses the
 * arguments (JSON text), checks them against the request schema, checks the payload against the
 * capability's advertised input schema, and fixes the run's identity (canonical digest, job ID).
 * It answers with the verdict only; the payload stays with the caller, which already holds it.
 */
import { parentPort } from 'node:worker_threads';
import { z } from 'zod';
import { admitRequest, CapabilityRequestSchema, toAppError, zodIssuesToDiagnostics } from '@jacobian/shared';
import type { AdmissionJob, AdmissionVerdict } from './admission-pool.js';

/** Input schemas by the key the pool gave them; the pool resends a schema this worker forgot. */
const SCHEMAS_KEPT = 256;
const schemas = new Map<string, z.ZodType>();

function schemaFor(job: AdmissionJob): z.ZodType | undefined {
  if (job.capability === undefined) return undefined;
  const { key, input_schema: inputSchema } = job.capability;
  let schema = schemas.get(key);
  if (schema === undefined && inputSchema !== undefined) {
    // Compiled by zod: a valid payload (the common case) is checked by generated code, an invalid
    // one by zod's ordinary parser, which gives the same errors.
    schema = z.compile(z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0]));
    if (schemas.size >= SCHEMAS_KEPT) schemas.delete(schemas.keys().next().value as string);
    schemas.set(key, schema);
  }
  return schema;
}

function admit(job: AdmissionJob): AdmissionVerdict {
  const args: unknown = JSON.parse(job.args_json);
  const parsed = CapabilityRequestSchema.safeParse(args);
  if (!parsed.success) return { kind: 'request_invalid', diagnostics: zodIssuesToDiagnostics(parsed.error, [], 'VALIDATION', { schema: CapabilityRequestSchema, input: args }) };
  if (job.capability === undefined) return { kind: 'crashed', message: 'a valid request was sent without its capability' };
  const schema = schemaFor(job);
  if (schema === undefined) return { kind: 'schema_missing' };
  const payload = schema.safeParse(parsed.data.payload);
  if (!payload.success) return { kind: 'payload_invalid', diagnostics: zodIssuesToDiagnostics(payload.error, ['payload'], 'VALIDATION', { schema, input: parsed.data.payload }) };
  try {
    const { payload: _payload, ...run } = admitRequest(parsed.data, job.tenant);
    return { kind: 'admitted', run };
  } catch (error) {
    return { kind: 'refused', error: toAppError(error).toJSON() };
  }
}

const port = parentPort;
if (port === null) throw new Error('admission-worker.ts runs as a worker thread of the admission pool');
port.on('message', (job: AdmissionJob) => {
  let verdict: AdmissionVerdict;
  try {
    verdict = admit(job);
  } catch (error) {
    verdict = { kind: 'crashed', message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage({ id: job.id, verdict });
});
port.postMessage({ ready: true });

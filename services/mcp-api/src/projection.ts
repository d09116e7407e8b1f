import type { CapabilityResult, JacobianError, WriteReceipt } from '@jacobian/shared';
import type { ReasoningNote } from './api.js';
import { boundedJson } from './bounded-json.js';
import { FIND_RESPONSE_MAX_BYTES, type FindResponse } from './find.js';

const OUTPUT_TEXT_LIMIT = 4000;

function compactJson(value: unknown, limit: number): string {
  // Bounded: only what is shown is serialized, however large the value.
  const { text, cut } = boundedJson(value, limit);
  return cut ? `${text}… (truncated; the complete value is in structuredContent)` : text;
}

/**
 * The text content of a math.run result: a deliberate compact projection of execution,
 * output, completeness, assurance, scope, obligations, diagnostics and artifact URIs, for
 * clients that read text only. structuredContent holds the complete result.
 */
export function projectResult(result: CapabilityResult): string {
  const lines = [
    `${result.capability_id}${result.capability_version ? `@${result.capability_version}` : ''} [${result.mode}] execution: ${result.execution.status} in ${result.execution.runtime_ms} ms (job ${result.execution.job_id})`,
    `assurance: ${result.assurance.level} (${result.assurance.basis})${result.assurance.verification_record_uri ? ` record: ${result.assurance.verification_record_uri}` : ''}`,
    `completeness: ${result.completeness.status} (${result.completeness.basis})`,
    `scope: ${result.scope ? `${result.scope.kind}: ${result.scope.statement}` : 'none'}`,
  ];
  if (result.qualifiers.length > 0) lines.push(`qualifiers: ${result.qualifiers.join(', ')}`);
  if (result.output !== null && result.output !== undefined) lines.push(`output: ${compactJson(result.output, OUTPUT_TEXT_LIMIT)}`);
  for (const obligation of result.obligations) {
    lines.push(`obligation ${obligation.id} [${obligation.status}]: ${obligation.statement}${obligation.discharged_by.length ? ` (discharged by ${obligation.discharged_by.join(', ')})` : ''}`);
  }
  for (const relation of result.relationships) lines.push(`relationship: ${relation.subject} ${relation.predicate} ${relation.object}`);
  lines.push(`artifacts: ${result.artifact_uris.length > 0 ? result.artifact_uris.join(' ') : 'none retained'}`);
  if (result.provider) lines.push(`provider: ${result.provider.name} ${result.provider.version} (${result.provider.digest_kind} ${result.provider.digest.slice(0, 16)}…)`);
  for (const d of result.diagnostics) {
    lines.push(`${d.severity} ${d.code} [${d.stage}]${d.path ? ` at ${d.path.join('.')}` : ''}: ${d.message}${d.hint ? ` (hint: ${d.hint})` : ''}`);
  }
  return lines.join('\n');
}

/**
 * The text content of a math.find response. A CONTRACT or FULL inspection keeps the
 * complete input schema so text-only clients can build a valid call.
 */
export function projectFind(response: FindResponse): string {
  const lines = [`catalog ${response.catalog_digest} · policy ${response.policy_profile} ${response.policy_digest}`];
  for (const d of response.diagnostics) {
    lines.push(`${d.severity} ${d.code}${d.path && d.path.length > 0 ? ` at ${d.path.join('.')}` : ''}: ${d.message}${d.hint ? ` (hint: ${d.hint})` : ''}`);
  }
  if (response.capability !== null) {
    const c = response.capability;
    const { input_schema: inputSchema, output_schema: _output, provider_runtime: _runtime, ...rest } = c;
    const schemaLine = inputSchema === undefined ? undefined : `input_schema: ${JSON.stringify(inputSchema)}`;
    // The answer carries this text beside the structured response, JSON-escaped (quotes and
    // newlines grow by about a fifth), so the summary gets what the bound leaves once the
    // structured response and the complete input schema are counted.
    const left = FIND_RESPONSE_MAX_BYTES - Buffer.byteLength(JSON.stringify(response)) - 1.2 * Buffer.byteLength(schemaLine ?? '') - 1024;
    lines.push(compactJson(rest, Math.max(500, Math.min(6000, Math.floor(left / 1.2)))));
    if (schemaLine !== undefined) lines.push(schemaLine);
  } else if (response.diagnostics.length === 0) {
    lines.push(`${response.kind}: ${response.matches.length} of ${response.total_matches ?? 0} match(es)`);
    lines.push(`portfolio_fit: ${String(response.portfolio_fit)} (${String(response.portfolio_fit_basis)})`);
    if (response.routing_status !== 'UNCONSTRAINED') lines.push(`routing_status: ${String(response.routing_status)} (${String(response.routing_basis)})`);
    if (response.domain_filter_status !== 'UNFILTERED') {
      const installed = response.installed_domains ? `; installed domains: ${response.installed_domains.join(', ')}` : '';
      lines.push(`domain_filter_status: ${String(response.domain_filter_status)} (${String(response.domain_filter_basis)}${installed})`);
    }
    for (const match of response.matches) {
      const relevance = match['relevance_score'];
      const score = typeof relevance === 'number' ? ` score ${relevance} ${String(match['lexical_fit'])} coverage ${String(match['query_coverage_milli'])}‰` : '';
      lines.push(`- ${String(match['capability_id'])} [${(match['modes'] as string[]).join(', ')}]${score}: ${String(match['title'])}`);
    }
    if (response.next_cursor) lines.push(`next_cursor: ${response.next_cursor}`);
    if (response.recovery_paths.length > 0) lines.push('recovery paths (unranked):', ...response.recovery_paths.map((p) => `- ${p.kind}: ${p.detail}`));
  }
  const text = lines.join('\n');
  return Buffer.byteLength(text) <= FIND_RESPONSE_MAX_BYTES / 2 ? text : `${text.slice(0, FIND_RESPONSE_MAX_BYTES / 2 - 200)}… (truncated)`;
}

/** The reasoning lines appended to a math.run's text when the log is on. */
export function projectReasoningNote(note: ReasoningNote): string {
  const ids = `run ${note.reasoning_run_id ?? '(none)'}, call ${note.reasoning_call_id ?? '(none)'}`;
  const lines = [`reasoning: ${note.status} (${ids})${note.violation === null ? '' : ` violation: ${note.violation}`}`];
  if (note.status === 'BOUND') {
    lines.push(note.outcome_recorded ? `reasoning outcome recorded; result_digest: ${note.result_digest ?? 'none'}` : 'reasoning outcome NOT recorded');
  }
  lines.push(`reasoning next_required: ${note.next_required ?? 'unknown'}: ${note.guidance}`);
  return lines.join('\n');
}

/** The text content of a reasoning.write receipt; it always names the next required entry. */
export function projectReceipt(receipt: WriteReceipt): string {
  const lines = [`reasoning.write ${receipt.phase} recorded: run ${receipt.reasoning_run_id}, sequence ${receipt.sequence} (${receipt.resource_uri})`];
  if (receipt.reasoning_call_id !== null) lines.push(`reasoning_call_id: ${receipt.reasoning_call_id}`);
  if (receipt.comparison !== null) {
    const fields = Object.entries(receipt.comparison).map(([field, verdict]) => `${field} ${verdict}`);
    lines.push(`comparison with the recorded outcome: ${fields.join(', ')}`);
    if (receipt.mismatched_fields.length > 0) lines.push(`MISMATCHED: ${receipt.mismatched_fields.join(', ')} differ from what the server recorded`);
  }
  if (receipt.violation !== null) lines.push(`protocol violation recorded: ${receipt.violation}`);
  lines.push(`cycles: ${receipt.cycles_used} used, ${receipt.cycles_remaining} remaining${receipt.finalized ? '; run finished' : ''}`);
  lines.push(`next_required: ${receipt.next_required} (allowed: ${receipt.allowed_next.join(', ') || 'none'}): ${receipt.guidance}`);
  return lines.join('\n');
}

/** The text content of a refused reasoning.write. */
export function projectReasoningError(error: JacobianError): string {
  const data = error.data === undefined ? '' : ` ${JSON.stringify(error.data)}`;
  return `ERROR ${error.code}${error.path ? ` at ${error.path.join('.')}` : ''}: ${error.message}${error.hint ? ` (hint: ${error.hint})` : ''}${data}`;
}

import type { CapabilityResult, JacobianError, WriteReceipt } from '@jacobian/shared';
import type { ReasoningNote } from './api.js';
import { boundedJson } from './bounded-json.js';
import type { FindResponse } from './find.js';

/** Every math.find answer (structured content and text content, as sent) stays under this many bytes. */
export const FIND_RESPONSE_MAX_BYTES = 16 * 1024;
/**
 * Bytes kept free under FIND_RESPONSE_MAX_BYTES for what wraps the tool result on the wire: the
 * modern era's `"resultType":"complete"` and server-info `_meta` (about 110 bytes), the JSON-RPC
 * envelope (`{"result":…,"jsonrpc":"2.0","id":…}`, about 45) and `isError`.
 */
const ENVELOPE_BYTES = 192;
/** The most a math.find tool result (structured content plus text content, as JSON) may take. */
export const FIND_ANSWER_MAX_BYTES = FIND_RESPONSE_MAX_BYTES - ENVELOPE_BYTES;

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
 * The size in bytes of the math.find tool result carrying `response` with `text`: the
 * CallToolResult's JSON (the text JSON-escaped), as it is sent inside the JSON-RPC response.
 */
export function findAnswerBytes(response: FindResponse, text: string): number {
  return Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text }], structuredContent: response }));
}

/**
 * The text lines of each search or browse match, in page order: `- <capability_id>: <title>`,
 * a search match's signals said once for a run of matches sharing them, on a line of their own
 * before the run (`score 4 STRONG coverage 1000‰:`). Ranking is by score, so such runs are long.
 */
export function matchLines(matches: readonly Record<string, unknown>[]): string[][] {
  let previous: string | null = null;
  return matches.map((match) => {
    const relevance = match['relevance_score'];
    if (typeof relevance !== 'number') return [`- ${String(match['capability_id'])}: ${String(match['title'])}`];
    const line = `- ${String(match['capability_id'])}`;
    const signals = `score ${relevance} ${String(match['lexical_fit'])} coverage ${String(match['query_coverage_milli'])}‰:`;
    const starts = signals !== previous;
    previous = signals;
    return starts ? [signals, line] : [line];
  });
}

/**
 * What each match's text lines add to the tool result as sent, in bytes: each line JSON-escaped
 * (its two quotes pay for the escaped newline that joins it), plus one spare byte per match.
 */
export function matchLineBytes(matches: readonly Record<string, unknown>[]): number[] {
  return matchLines(matches).map((lines) => lines.reduce((sum, line) => sum + Buffer.byteLength(JSON.stringify(line)), 1));
}

export interface ProjectFindOptions {
  /**
   * Whether to cut the inspection summary so the answer stays under the bound (default true).
   * The complete input schema and the inline examples are never cut.
   */
  clip?: boolean;
}

/**
 * The text content of a math.find response. An inspection keeps, whole, the complete input
 * schema (CONTRACT and FULL) and every inline example as the payload of a ready math.run call,
 * so text-only clients can build a valid call; the summary before them is cut only when the
 * answer would otherwise pass the bound.
 */
export function projectFind(response: FindResponse, options: ProjectFindOptions = {}): string {
  const head = [`catalog ${response.catalog_digest} · policy ${response.policy_profile} ${response.policy_digest}`];
  for (const note of response.pending_providers) head.push(`pending: ${note.detail}`);
  for (const d of response.diagnostics) {
    head.push(`${d.severity} ${d.code}${d.path && d.path.length > 0 ? ` at ${d.path.join('.')}` : ''}: ${d.message}${d.hint ? ` (hint: ${d.hint})` : ''}`);
  }
  if (response.capability !== null) {
    const c = response.capability;
    const id = String(c['capability_id']);
    // The output fields' descriptions (output_summary) stay in structuredContent: the text names
    // the fields (output_fields) and spends its room on the schema and the examples.
    const { input_schema: inputSchema, output_schema: _output, provider_runtime: _runtime, output_summary: _outputs, examples, example, ...rest } = c;
    const tail: string[] = [];
    if (inputSchema !== undefined) tail.push(`input_schema: ${JSON.stringify(inputSchema)}`);
    const call = (ex: { mode?: unknown; payload?: unknown }): string => JSON.stringify({ capability_id: id, mode: ex.mode, payload: ex.payload });
    if (example !== undefined) {
      const ex = example as { title?: unknown; mode?: unknown; payload?: unknown };
      tail.push(`example ${String(c['example_index'])} of ${String(c['examples_available'])}: ${String(ex.title)}`, `math.run arguments: ${call(ex)}`);
    }
    if (Array.isArray(examples)) {
      const inline = Array.isArray(c['examples_inline']) ? (c['examples_inline'] as number[]) : [];
      for (const [i, ex] of (examples as { title?: unknown; mode?: unknown; payload?: unknown }[]).entries()) {
        tail.push(`example ${String(inline[i] ?? i)} (${String(ex.title)}): math.run arguments: ${call(ex)}`);
      }
      const available = typeof c['examples_available'] === 'number' ? c['examples_available'] : examples.length;
      if (examples.length < available) {
        const missing = Array.from({ length: available }, (_, i) => i).filter((i) => !inline.includes(i));
        tail.push(`not inline (size bound), example ${missing.join(', ')}: math.find {"capability_id": "${id}", "example_index": N} returns each whole`);
      }
    }
    const text = (summary: string): string => [...head, summary, ...tail].join('\n');
    const whole = JSON.stringify(rest);
    if (options.clip === false || findAnswerBytes(response, text(whole)) <= FIND_ANSWER_MAX_BYTES) return text(whole);
    // Cut the summary (never the schema or the examples) by what the answer is over, measured.
    let keep = whole.length;
    for (let attempt = 0; attempt < 8 && keep > 0; attempt++) {
      const over = findAnswerBytes(response, text(compactJson(rest, keep))) - FIND_ANSWER_MAX_BYTES;
      if (over <= 0) break;
      keep = Math.max(0, keep - over - 64);
    }
    return text(compactJson(rest, keep));
  }
  const lines = head;
  if (response.diagnostics.length === 0) {
    lines.push(`${response.kind}: ${response.matches.length} of ${response.total_matches ?? 0} match(es)`);
    lines.push(`portfolio_fit: ${String(response.portfolio_fit)} (${String(response.portfolio_fit_basis)})`);
    if (response.routing_status !== 'UNCONSTRAINED') lines.push(`routing_status: ${String(response.routing_status)} (${String(response.routing_basis)})`);
    if (response.domain_filter_status !== 'UNFILTERED') {
      const installed = response.installed_domains ? `; installed domains: ${response.installed_domains.join(', ')}` : '';
      lines.push(`domain_filter_status: ${String(response.domain_filter_status)} (${String(response.domain_filter_basis)}${installed})`);
    }
    for (const matchText of matchLines(response.matches)) lines.push(...matchText);
    if (response.next_cursor) lines.push(`next_cursor: ${response.next_cursor}`);
    if (response.recovery_paths.length > 0) lines.push('recovery paths (unranked):', ...response.recovery_paths.map((p) => `- ${p.kind}: ${p.detail}`));
  }
  return lines.join('\n');
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

import { BUDGET_LIMITS, REASONING_MAX_CYCLES, REASONING_SUMMARY_MAX_BYTES, REASONING_SUMMARY_MAX_CHARS } from '@jacobian/shared';
import { LARGE_REQUEST_BYTES, MAX_REQUEST_BYTES } from './admission-pool.js';
import { ANSWER_GRACE_MS } from './api.js';
import { PROGRESS_HEARTBEAT_MS } from './tools.js';

const mib = (bytes: number): string => `${bytes / (1024 * 1024)} MiB`;

/** The operating model served at jacobian://instructions; the limits it states are the enforced ones. */
export const INSTRUCTIONS = `# Jacobian: operating model

Jacobian exposes installed mathematical operations ("capabilities") through two tools.
It does not choose a strategy for you: decomposition, composition, iteration and when to stop
are yours.

## Discovery: math.find
- No arguments: browse the installed catalog in stable capability-ID order (\`limit\` 1-20,
  default 5; pass \`next_cursor\` back with the same filters to continue).
- \`query\`: lexical search over capability IDs, titles, descriptions, tags and keywords (each
  descriptor's vocabulary of its field: synonyms, names of laws, invariants, methods and tools),
  optionally filtered by \`domain\`, \`mode\` and \`input_kind\`. Ranking is deterministic
  retrieval: a term matching an ID token weighs 4, a tag, keyword or title token 3, a description
  token 1; ties break by ID. A high rank says the words match, not that the operation fits your
  problem or that it is the best one.
- \`domain\`: only operations of this domain or carrying this exact tag. \`mode\`: only operations
  offering EXPLORE or VERIFY.
- \`input_kind\`: only operations accepting that kind of input: STRUCTURED_REQUEST (a JSON
  payload), FORMAL_PROPOSITION, TYPED_ARTIFACT or NATURAL_LANGUAGE_PROOF. With TYPED_ARTIFACT,
  \`artifact_type\` narrows to operations accepting that exact schema URI (the \`schema_uri\` of
  the stored artifact's manifest); \`artifact_type\` is rejected with any other input kind.
- \`capability_id\`: exact inspection. \`view\` SUMMARY (default) gives the outcome, modes, tags,
  provider and field summaries, and \`examples_available\`; CONTRACT adds the complete input
  schema and the validated invocation examples that fit (\`examples_inline\` lists their
  indices); FULL adds the output schema, provider runtime and licence. \`example_index\` (with
  \`capability_id\`, without \`view\`) returns that one example whole, 0 to examples_available - 1,
  so every example is reachable. The text content of CONTRACT and FULL keeps the complete input
  schema (\`input_schema: {...}\`) and each inline example as ready math.run arguments.
- Unknown or ill-combined arguments are rejected with a diagnostic naming the field and the rule.
- Every response carries the catalog digest and the operator-policy digest. The catalog
  (\`capability://catalog\`) is the inventory of what is installed and allowed right now; a
  capability whose provider is missing or unhealthy is simply absent.
- Paging: \`total_matches\` counts every match; \`next_cursor\`, when present, continues with the
  same arguments. A cursor is bound to the catalog digest and to the filters: it stays valid while
  the catalog is unchanged, and a cursor from an older catalog is rejected with a diagnostic
  saying the catalog changed (start again without it). Every answer, structured content and
  text content together as sent, stays under 16 KiB: a page holds \`limit\` cards when they fit
  (twenty compact cards do), and is shortened only when they do not.

### Operation cards (each search or browse match)
Compact, to be read twenty to a page, search or browse; inspection has every field whole.
capability_id, title, modes; input_kinds and \`accepts\` (the artifact types it takes as
TYPED_ARTIFACT); \`outputs\` (the output fields' names, the first 5 and how many more);
\`provider\` (its name; every installed provider is AVAILABLE, the catalog holds no other);
\`scope\` (the exact input a run covers, its first 56 characters); assurance_ceiling (the most a
result can claim); \`related\` (installed operations by kind, at most 2, the rest counted in
\`related_omitted\`); \`examples\` (how many the descriptor has, each returned whole by
\`example_index\`); and, while the page has room, \`inputs\` (the input schema's top-level
fields, sorted, each required one marked with a trailing \`*\`: \`["graph", "k*"]\`; inspection's
\`input_fields\` has them as required and available lists), then \`example\` in place of inputs
(the first validated invocation example within 256 bytes, with its \`index\`). A card whose
descriptor has no example always carries \`inputs\`; one with examples carries neither when the
page has no room left (inspect it, or fetch an example by index). A list that would be empty
is left out. related names installed operations only: the descriptor's declared
relationships (CONSUMES_OUTPUT_OF, VERIFIED_BY, VERIFIES) whose target is installed, then
ACCEPTS_OUTPUT_OF (this accepts an artifact type the other produces) and OUTPUT_ACCEPTED_BY (the
other accepts, as a typed artifact, a type this produces) for operations not already named;
inspection lists up to 8 with their \`artifact_type\`. These are facts about types, not advice to
chain the operations.

### Retrieval signals
All are computed deterministically from the descriptors and your arguments.
They are retrieval signals, not advice: they say how your words and filters meet the installed
descriptors, never that an operation suits your problem, and never that an operation is
impossible or absent in principle. A rejected request carries none of them (null, and no recovery paths).
- Terms: the distinct query tokens (split at anything but letters and digits) minus stop words
  and single Latin letters or digits. Text is folded the same way on both sides: lower case,
  ä ö ü ß written ae oe ue ss (Gröbner matches groebner), other accents dropped, plurals and
  -ing/-ed forms reduced (trees = tree, vertices = vertex, colouring = colour), -ivity read as
  -ive (associativity = associative); descriptor words joined by - or _ also match written
  together (counter-model = countermodel). A term hits a field when it equals a token there, or
  (5+ letters) is the start of one.
- \`query_terms\` (per search response): the terms, lower-cased and folded, each once.
- Per match: \`matched_on\` (the fields hit, one comma-separated string in this order: id, tags,
  keywords, title, description, e.g. \`"id,title"\`), \`matched_terms\` (the query terms it
  matched, present only when it did not match them all: absent means every one of
  \`query_terms\`), \`relevance_score\` (sum over terms of the heaviest field hit),
  \`query_coverage_milli\` = floor(1000 x matched terms / terms), and
  \`lexical_fit\`: STRONG when coverage is at least 500 and some term hits an ID, tag, keyword or
  title token; otherwise WEAK. Order among WEAK matches is not a measure of fit. The text
  content lists a search's matches by capability ID under a line of their shared signals
  (\`score 4 STRONG coverage 1000‰:\`), in ranked order; browse lines carry the title.
- \`portfolio_fit\` with \`portfolio_fit_basis\`, over all matches (not just the page):
  STRONG_CANDIDATES (at least one STRONG match), ONLY_WEAK_LEXICAL_MATCHES (matches, none STRONG),
  NO_LEXICAL_MATCHES (no match, no terms, or nothing passed the filters), UNFILTERED (browse and
  inspection, where nothing is ranked).
- \`domain_filter_status\` with \`domain_filter_basis\`: MATCHED (the domain names an installed
  domain or tag), UNKNOWN_DOMAIN (it names nothing installed; \`installed_domains\` lists the
  installed domains, sorted, at most 50), UNFILTERED (no domain given).
- \`routing_status\` with \`routing_basis\`, separate from portfolio_fit: UNCONSTRAINED (no input
  kind applies), ROUTED (some installed operation accepts the input kind, and artifact type if
  given; results are limited to those), NO_ROUTE (none does; no matches). Natural-language proof
  applies when declared as \`input_kind\` NATURAL_LANGUAGE_PROOF or, without an input_kind, when
  the query contains "informal proof", "proof prose", "prose proof" or "natural language proof"
  (or "proofs"). Proof prose is not a formal artifact: it routes only to an operation that
  declares it accepts NATURAL_LANGUAGE_PROOF.
- \`recovery_paths\`: present when the results are weak (ONLY_WEAK_LEXICAL_MATCHES or
  NO_LEXICAL_MATCHES), empty, or incompatible (NO_ROUTE, UNKNOWN_DOMAIN); otherwise an empty list.
  Each is {kind, detail}: REFORMULATE (other words, naming the terms that matched nothing; or a
  formal statement instead of proof prose), REMOVE_FILTER (one per filter given), BROWSE (no
  arguments), READ_CATALOG (\`capability://catalog\`). They are listed in that fixed order and are
  unranked: none is recommended over another.

## Contracts
Each capability has one mathematical outcome with a typed input schema. Inspect CONTRACT before
building a payload you are unsure of. Unknown fields, wrong types and out-of-range values are
rejected before anything is computed or stored, with a diagnostic naming the field and the rule.
Numbers in payloads are integers; send large or rational numbers as strings where a schema asks.

## Running: math.run
\`{ capability_id, payload, mode, budget }\`. \`mode\` is EXPLORE (compute, propose, search) or
VERIFY (an independent checker replays stored evidence). \`budget\` bounds wall time
(\`wall_time_ms\`, ${BUDGET_LIMITS.wall_time_ms.min} to ${BUDGET_LIMITS.wall_time_ms.max}, default ${BUDGET_LIMITS.wall_time_ms.default}), memory (\`memory_mb\`, ${BUDGET_LIMITS.memory_mb.min} to ${BUDGET_LIMITS.memory_mb.max}, default
${BUDGET_LIMITS.memory_mb.default}) and output size (\`max_output_bytes\`, ${BUDGET_LIMITS.max_output_bytes.min} to ${mib(BUDGET_LIMITS.max_output_bytes.max)}, default ${mib(BUDGET_LIMITS.max_output_bytes.default)}); the budget is part
of the request. The same request twice is one job: a second call while the first runs gets the
same result, and a COMPLETED answer is remembered for a while and returned again without
computing. A run that ended in TIMEOUT, CANCELLED or ERROR is computed afresh when asked again.

The budget holds end to end: the answer arrives within \`wall_time_ms\` plus about ${ANSWER_GRACE_MS / 1000} s,
counted from admission (time waiting for a free runner counts). A run that has no result by then
is answered TIMEOUT and withdrawn; it concluded nothing.

### Long runs and client timeouts
MCP clients time out requests (the TypeScript SDK's default is 60 s) while budgets reach
${BUDGET_LIMITS.wall_time_ms.max / 1000} s. Two ways to wait for a long run:
- **Progress** (any protocol version, stdio and HTTP): put a \`progressToken\` in the request's
  \`_meta\`. The call then gets \`notifications/progress\` while it runs: the run's own reports
  (at most a few per second, a count that only grows and a message saying where the run stands;
  a search reports the bounds it has proven so far), and whenever the run has said nothing for
  ${PROGRESS_HEARTBEAT_MS / 1000} s a heartbeat (\`running for N s\`, with the run's last message). A client that
  resets its timeout on progress (the SDK's \`resetTimeoutOnProgress: true\`) never times out a
  run that is still within its budget, whatever its timeout (1 s or more). Progress is
  information while you wait, never a result: a run that ends early concludes only what its
  result says.
- **Tasks** (current protocol over HTTP): a client that declares the tasks extension
  (\`io.modelcontextprotocol/tasks\` in its request's client capabilities) gets a task handle
  (\`resultType: "task"\`) instead of the result when a run takes more than about a second, and
  polls \`tasks/get\` with its \`taskId\` (at the suggested \`pollIntervalMs\`); each poll is a short
  request, so no client timeout applies to the run. While the task is \`working\`, its
  \`statusMessage\` is the run's latest progress; once \`completed\`, its \`result\` is the math.run
  result (\`failed\` carries an \`error\` instead). \`tasks/cancel\` ends the run and the task reads
  \`cancelled\` from then on, even if the work finished meanwhile. Such a client reads progress
  there and gets no progress notifications, even with a \`progressToken\`. The run is the same
  job either way. A task is kept for its run's wall-time budget plus an hour (\`ttlMs\`); any API
  process of a cluster answers for it, also after the one that started it restarted. A task ID
  that is unknown, expired or another tenant's is refused with a JSON-RPC invalid-params error.

### Large requests and outputs
The arguments of math.run are at most ${MAX_REQUEST_BYTES / (1024 * 1024)} MiB as JSON on every transport (beyond: an ERROR
result, code SIZE_LIMIT_EXCEEDED at \`payload\`; over HTTP a larger body is refused with 413). Arguments over ${LARGE_REQUEST_BYTES / 1024} KiB (as JSON) are checked in a worker
thread so they do not hold up other calls: against the request schema and the capability's
published input schema before anything runs; the cross-field rules a JSON Schema cannot state
(for example an edge naming a vertex that is not listed) are then checked by the runner before
it computes, and reported the same way (ERROR, the field's path and the rule). For repeated use,
store a large operand once (for example a graph with graph.construct.explicit, a CNF with
sat.cnf.materialize) and pass its artifact URI. Large outputs are kept as artifacts: an output
field documented as null above a limit (a SAT model of more than 100,000 variables) is then in
the stored artifact its URI names, and an INFO diagnostic \`OUTPUT_NOT_INLINE\` says so. The text
content of a result shows at most the first 4,000 characters of the output; structuredContent
holds all of it.

## Errors
Two kinds, kept apart. A request the protocol cannot take (malformed JSON-RPC, an unknown method
or tool, a refused token: HTTP 401 or 403 with a \`WWW-Authenticate\` challenge, a body over the
size limit) gets a protocol error and nothing runs. A tool call the server understood but whose
arguments or run failed gets a normal tool result with \`isError: true\`: for math.run an
execution status ERROR with diagnostics (code, the field's path, the rule), for math.find a
diagnostic naming the field. Fix the named field and call again; an ERROR result is never a
mathematical statement.

## Reading a result
- execution.status: COMPLETED, TIMEOUT, CANCELLED or ERROR. Only COMPLETED carries a conclusion;
  a timeout, cancellation or error is never a mathematical statement.
- output: the operation's typed value.
- scope: exactly what input or claim the result covers. A run covers its input and nothing more:
  finite or bounded runs stay finite evidence and never widen their own scope.
- completeness: COMPLETE (for exactly the stated scope), PARTIAL (bounds or part of the answer),
  UNKNOWN, or NOT_APPLICABLE, always with its basis.
- qualifiers: EXACT, APPROXIMATE, BOUNDED, EXHAUSTIVE, DETERMINISTIC, HEURISTIC.
- assurance: HEURISTIC, COMPUTED or VERIFIED, with its basis. Producers reach COMPUTED at most.
- obligations: what remains to be shown (for example optimality), and which capability can
  discharge it.
- diagnostics: code, stage, message, path and hint for everything that went wrong or deserves
  attention.

## Verification boundary
Search and computation never certify themselves. VERIFIED appears only in VERIFY mode, only for
a COMPLETED run, only when an independent checker that the operator authorized accepted the
evidence; it always comes with a verification record URI. The record is a signed artifact that
binds the checker's identity (ID and code digest), the exact claim, the candidate and input
artifacts, the scope, the evidence format and the request. A checker that is not authorized,
does not support the input, or rejects the claim cannot produce VERIFIED. VERIFIED covers the
whole claim asked: when the evidence leaves an obligation of that claim unshown, the answer stays
below VERIFIED (verdict UNDECIDED) and names the obligation and the evidence that would close it;
a weaker statement is verified only when you ask for it by name (a checker's claim_kind), as a
claim of its own. Operators authorize checkers outside MCP; nothing you send can change that.

## Composition and artifacts
Capabilities compose through artifacts: \`artifact://sha256/<hex>\` names the digest of a
canonical manifest (schema URI, semantics URI, payload digest, parents, summary). Read one as
the resource \`artifact://sha256/{digest}\` to get its manifest and payload; every read re-hashes
the bytes. Typed artifacts come from the capability that owns their type (for example a graph
from graph.construct.explicit); \`artifact.put\` stores generic payloads but confers no domain
meaning. An empty \`artifact_uris\` means the value was not retained. On a server that requires a
bearer token, everything you create (runs, artifacts, tasks, reasoning logs) belongs to your
token's tenant: another tenant's artifact URI reads as not found, also as an input.
`;

/** The reasoning-log section, appended when the operator turned the log on. */
function reasoningSection(mode: 'AUDIT' | 'REQUIRED'): string {
  const enforcement =
    mode === 'REQUIRED'
      ? `This server runs it in REQUIRED mode: a math.run without the current BEFORE_TOOL's IDs, or with
IDs that are unknown, already used, for another capability or mode, or out of order, is refused
with an ERROR result (code REASONING_PROTOCOL_VIOLATION) before anything is computed, and the
call stays open, so a corrected math.run can still use it.`
      : `This server runs it in AUDIT mode: the same checks, but a math.run that breaks the protocol
still runs; the breach is recorded in the run's log as a PROTOCOL_VIOLATION event.`;
  return `
## Reasoning log: reasoning.write
The operator keeps an external, append-only work log of model-authored summaries. ${enforcement}

Lifecycle, one cycle at a time:
1. \`reasoning.write\` with \`phase: "PLAN"\` and a \`summary\`: opens a run; keep its \`reasoning_run_id\`.
2. Before each math.run: \`BEFORE_TOOL\` with \`reasoning_run_id\`, the exact \`capability_id\`, the
   \`mode\` and a short purpose. Keep the returned \`reasoning_call_id\`.
3. Call math.run with both \`reasoning_run_id\` and \`reasoning_call_id\` next to its usual fields.
   The IDs change neither the request digest nor the job. After the run the server records its
   actual execution status, assurance level, completeness status, result digest and artifact
   URIs; the math.run text and \`_meta["jacobian/reasoning"]\` show the result digest and the
   next required entry.
4. \`AFTER_TOOL\` with both IDs, \`interpretation_status: "INTERPRETED"\`, a short interpretation,
   and what the result reported: \`execution_status\`, \`assurance_level\`, \`completeness_status\`
   (optionally \`result_digest\` and \`artifact_uris\`). The server compares each with what it
   recorded and answers MATCH or MISMATCH per field; mismatches are recorded, not corrected.
   If the result was lost, write \`interpretation_status: "RESULT_UNAVAILABLE"\` without those fields.
5. \`FINAL\` with \`reasoning_run_id\` once every call is interpreted; nothing follows it.

Every response names \`next_required\` (PLAN, MATH_RUN, AFTER_TOOL, BEFORE_TOOL_OR_FINAL, FINAL or
NONE) with one sentence of guidance. Bounds: a summary is at most ${REASONING_SUMMARY_MAX_CHARS} Unicode characters and
${REASONING_SUMMARY_MAX_BYTES} UTF-8 bytes; a run has at most ${REASONING_MAX_CYCLES} cycles and a bounded number of events. Never put prompts,
credentials, personal data, payloads or copied tool output in a summary: the log keeps only
summaries, IDs, statuses, digests and artifact URIs, never payloads or outputs.

Read a run's log as the resource \`reasoning://run/{run_id}\`: newline-delimited JSON
(\`application/x-ndjson\`), one event per line, numbered 1, 2, 3, … It is durable and survives a
restart of the server. The IDs are bearer identifiers: whoever holds one can read and extend the run.

The log is operational and unverified. It never changes capability membership, mathematics,
results, assurance or checker authority: only an authorized independent checker makes a result
VERIFIED, whatever the log says.
`;
}

const BY_MODE = {
  OFF: INSTRUCTIONS,
  AUDIT: INSTRUCTIONS + reasoningSection('AUDIT'),
  REQUIRED: INSTRUCTIONS + reasoningSection('REQUIRED'),
} as const;

/** The operating model for a reasoning-log mode: OFF is exactly {@link INSTRUCTIONS}. */
export function instructionsFor(mode: 'OFF' | 'AUDIT' | 'REQUIRED'): string {
  return BY_MODE[mode];
}

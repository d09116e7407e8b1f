/** The operating model served at jacobian://instructions. */
export const INSTRUCTIONS = `# Jacobian: operating model

Jacobian exposes installed mathematical operations ("capabilities") through two tools.
It does not choose a strategy for you: decomposition, composition, iteration and when to stop
are yours.

## Discovery: math.find
- No arguments: browse the installed catalog in stable capability-ID order (\`limit\` 1-20,
  default 5; pass \`next_cursor\` back with the same filters to continue).
- \`query\`: lexical search over capability IDs, titles, descriptions and tags, optionally
  filtered by \`domain\` and \`mode\`. Ranking is deterministic retrieval: a term matching an ID
  token weighs 4, a tag or title token 3, a description token 1; ties break by ID. A high rank
  says the words match, not that the operation fits your problem or that it is the best one.
- \`capability_id\`: exact inspection. \`view\` SUMMARY (default) gives the outcome, modes, tags,
  provider and field summaries; CONTRACT adds the complete input schema and validated invocation
  examples; FULL adds the output schema, provider runtime and licence.
- Every response carries the catalog digest and the operator-policy digest. The catalog
  (\`capability://catalog\`) is the inventory of what is installed and allowed right now; a
  capability whose provider is missing or unhealthy is simply absent.

## Contracts
Each capability has one mathematical outcome with a typed input schema. Inspect CONTRACT before
building a payload you are unsure of. Unknown fields, wrong types and out-of-range values are
rejected before anything is computed or stored, with a diagnostic naming the field and the rule.
Numbers in payloads are integers; send large or rational numbers as strings where a schema asks.

## Running: math.run
\`{ capability_id, payload, mode, budget }\`. \`mode\` is EXPLORE (compute, propose, search) or
VERIFY (an independent checker replays stored evidence). \`budget\` bounds wall time
(\`wall_time_ms\`), memory (\`memory_mb\`) and output size (\`max_output_bytes\`). The same request
twice is one job: the second call gets the first call's result.

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
does not support the input, or rejects the claim cannot produce VERIFIED. Operators authorize
checkers outside MCP; nothing you send can change that.

## Composition and artifacts
Capabilities compose through artifacts: \`artifact://sha256/<hex>\` names the digest of a
canonical manifest (schema URI, semantics URI, payload digest, parents, summary). Read one as
the resource \`artifact://sha256/{digest}\` to get its manifest and payload; every read re-hashes
the bytes. Typed artifacts come from the capability that owns their type (for example a graph
from graph.construct.explicit); \`artifact.put\` stores generic payloads but confers no domain
meaning. An empty \`artifact_uris\` means the value was not retained.
`;

import { McpServer, ResourceNotFoundError, ResourceTemplate, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { instrumentMcpTransport, toAppError, type ReasoningLog, type ReasoningMode } from '@jacobian/shared';
import type { Api } from './api.js';
import { instructionsFor } from './instructions.js';
import { findToolResult, progressChannel, reasoningWriteResult, runToolResult, TOOLS, type ProgressChannel } from './tools.js';
import { SERVER_VERSION } from './version.js';
import { TASKS_EXTENSION } from './tasks.js';

/** Name and version every instance reports, in `initialize` and in each modern result's `_meta`. */
export const SERVER_INFO = { name: 'jacobian', version: SERVER_VERSION } as const;

const ARTIFACT_TEMPLATE = 'artifact://sha256/{digest}';
const REASONING_RUN_TEMPLATE = 'reasoning://run/{run_id}';

const SERVER_INSTRUCTIONS =
  'Jacobian is a mathematical toolbox: discover installed operations with math.find, run one with math.run in EXPLORE or VERIFY mode. Results state what was computed, its scope, completeness and assurance; only an operator-authorized independent checker makes a result VERIFIED. Read jacobian://instructions for the full operating model.';
const REASONING_INSTRUCTIONS = {
  AUDIT:
    ' The reasoning log is on (AUDIT): open a run with reasoning.write PLAN, write BEFORE_TOOL before each math.run and pass its reasoning_run_id and reasoning_call_id to math.run, then AFTER_TOOL, and FINAL at the end; breaches are recorded.',
  REQUIRED:
    ' The reasoning log is REQUIRED: open a run with reasoning.write PLAN, write BEFORE_TOOL before each math.run and pass its reasoning_run_id and reasoning_call_id to math.run (otherwise it is refused), then AFTER_TOOL, and FINAL at the end.',
} as const;

/**
 * When the caller asked for progress (a `progressToken` in the request's `_meta`), the call's
 * progress channel (see progressChannel): the run's reports and a heartbeat while it runs, each
 * sent as `notifications/progress` on the same call; otherwise undefined.
 */
function progressNotifier(ctx: ServerContext, heartbeatMs: number | undefined): ProgressChannel | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return progressChannel(
    (notice) => {
      ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...notice } }).catch(() => undefined);
    },
    heartbeatMs === undefined ? {} : { heartbeatMs },
  );
}

/**
 * One MCP server instance over the shared API. Stateless HTTP builds one per request and
 * stdio one per connection, so nothing here may hold state between requests.
 */
export interface McpServerOptions {
  /** Advertise the tasks extension. */
  tasks?: boolean;
  /** Longest silence on a math.run call that asked for progress (default PROGRESS_HEARTBEAT_MS). */
  progressHeartbeatMs?: number;
  /** What the server is connected over, for its MCP spans' `network.transport`: `pipe` (stdio) or `tcp` (HTTP, the default). */
  transport?: 'pipe' | 'tcp';
}

/** The prompts every server registers. */
const PROMPTS = { discover: 'jacobian-discover', checkEvidence: 'jacobian-check-evidence' } as const;

/**
 * An API still starting (probing providers): what the server says about itself is known from
 * the configuration, so it can answer `server/discover`, `initialize` and the list methods at
 * once; every call that needs the API (math.find, math.run, the catalog, artifacts, the
 * reasoning log) waits for `ready`, so it is answered from the complete catalog.
 */
export interface StartingApi {
  /** The reasoning log's mode, as the API will have it (OFF: no reasoning.write tool). */
  readonly reasoningMode: ReasoningMode;
  readonly ready: Promise<Api>;
}

export function createMcpServer(source: Api | StartingApi, options: McpServerOptions = {}): McpServer {
  const started: Promise<Api> | undefined = 'ready' in source ? source.ready : undefined;
  const ready = (): Promise<Api> | Api => started ?? (source as Api);
  const mode: ReasoningMode = 'ready' in source ? source.reasoningMode : (source.reasoning?.mode ?? 'OFF');
  const server = new McpServer(
    { ...SERVER_INFO },
    {
      instructions: mode === 'OFF' ? SERVER_INSTRUCTIONS : SERVER_INSTRUCTIONS + REASONING_INSTRUCTIONS[mode],
      capabilities: { tools: {}, resources: {}, prompts: {}, ...(options.tasks === true ? { extensions: { [TASKS_EXTENSION]: {} } } : {}) },
    },
  );

  server.registerTool(TOOLS.find.name, TOOLS.find.config, async (args) => findToolResult(await ready(), args));
  server.registerTool(TOOLS.run.name, mode === 'OFF' ? TOOLS.run.config : TOOLS.runWithReasoning.config, async (args, ctx) => {
    const api = await ready();
    const notifier = progressNotifier(ctx, options.progressHeartbeatMs);
    try {
      return await runToolResult(api, args, ctx.mcpReq.signal, notifier?.listener);
    } finally {
      // No notification after the result.
      notifier?.stop();
    }
  });

  server.registerResource(
    'instructions',
    'jacobian://instructions',
    { title: 'Jacobian operating model', description: 'Discovery, contracts, composition, result dimensions, verification boundaries, artifacts', mimeType: 'text/markdown' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: instructionsFor(mode) }] }),
  );

  server.registerResource(
    'capability-catalog',
    'capability://catalog',
    { title: 'Installed capability catalog', description: 'Every installed capability after operator policy, with catalog and policy digests', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify((await ready()).catalog()) }] }),
  );

  server.registerResource(
    'artifact',
    new ResourceTemplate(ARTIFACT_TEMPLATE, { list: undefined }),
    { title: 'Content-addressed artifact', description: 'Manifest and payload of a stored artifact, re-hashed on read', mimeType: 'application/json' },
    async (uri, variables, ctx) => {
      const digest = variables['digest'];
      const artifactUri = `artifact://sha256/${Array.isArray(digest) ? digest.join('') : (digest ?? '')}`;
      try {
        const artifact = await (await ready()).readArtifact(artifactUri, ctx.mcpReq.signal);
        return {
          contents: [
            { uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ uri: artifact.uri, manifest: artifact.manifest, payload: artifact.payload }) },
          ],
        };
      } catch (error) {
        const appError = toAppError(error);
        if (appError.code === 'ARTIFACT_NOT_FOUND' || appError.code === 'INVALID_REQUEST') {
          throw new ResourceNotFoundError(uri.href, appError.message);
        }
        throw appError;
      }
    },
  );

  if (mode !== 'OFF') registerReasoning(server, async () => (await ready()).reasoning);

  server.registerPrompt(
    PROMPTS.discover,
    {
      title: 'Discover capabilities for a mathematical task',
      description: 'Turns a task into discovery and exact-contract steps; strategy stays with you.',
      argsSchema: z.object({ task: z.string().min(1).max(2000).describe('the mathematical task, in your words') }),
    },
    ({ task }) => ({
      description: 'Discovery steps for a mathematical task',
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Task: ${task}`,
              '',
              'Use Jacobian to find installed operations that may help. Steps (the choice of strategy is yours):',
              '1. Call math.find with a short query naming the outcome you want (and `domain`, `mode` or `input_kind` if you know them). Read `portfolio_fit`, `routing_status` and `recovery_paths`: weak or no lexical matches mean your words did not meet the installed descriptors, not that no operation exists; follow a recovery path (reformulate, remove a filter, browse with no arguments, read capability://catalog) rather than trusting the top-ranked weak match.',
              '2. For a promising match, call math.find with its capability_id and view CONTRACT to read the exact input schema and examples.',
              '3. Call math.run with a payload that satisfies that schema. Read execution, completeness, assurance and scope before using the output.',
              'A match is retrieval, not a recommendation: check that its contract fits the task.',
            ].join('\n'),
          },
        },
      ],
    }),
  );

  server.registerPrompt(
    PROMPTS.checkEvidence,
    {
      title: 'Check evidence with an independent checker',
      description: 'How to look for a compatible independent checker without treating computed evidence as verified.',
      argsSchema: z.object({
        capability_id: z.string().min(1).max(128).describe('the producer capability whose result you want checked'),
        result_uri: z.string().max(200).optional().describe('the artifact URI of the stored result, if any'),
      }),
    },
    ({ capability_id, result_uri }) => ({
      description: 'Look for an independent checker',
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Evidence to check: a result of ${capability_id}${result_uri ? ` stored as ${result_uri}` : ''}.`,
              '',
              `1. Inspect ${capability_id} with math.find (view SUMMARY) and look at its relationships for VERIFIED_BY entries.`,
              '2. Inspect each candidate checker with view CONTRACT: it must accept this exact artifact type and offer VERIFY mode.',
              '3. Run it with math.run in VERIFY mode. Only assurance VERIFIED with a verification_record_uri counts as verified; COMPUTED or HEURISTIC results, and any ERROR, TIMEOUT or CANCELLED run, are not.',
              '4. If no checker is installed or it is not authorized, the evidence stays COMPUTED: say so rather than treating it as verified.',
            ].join('\n'),
          },
        },
      ],
    }),
  );

  // Every request this server is delivered is an MCP span and a duration (see mcp-spans.ts).
  const tools = new Set<string>([TOOLS.find.name, TOOLS.run.name, ...(mode === 'OFF' ? [] : [TOOLS.reasoningWrite.name])]);
  const prompts = new Set<string>(Object.values(PROMPTS));
  const isKnown = (kind: 'tool' | 'prompt', name: string): boolean => (kind === 'tool' ? tools : prompts).has(name);
  const connect = server.connect.bind(server);
  server.connect = (transport) => connect(instrumentMcpTransport(transport, { transport: options.transport ?? 'tcp', isKnown }));
  return server;
}

/** reasoning.write and the `reasoning://run/{run_id}` template (not listed); only when the log is on. */
function registerReasoning(server: McpServer, logOf: () => Promise<ReasoningLog | null>): void {
  const log = async (): Promise<ReasoningLog> => {
    const started = await logOf();
    if (started === null) throw new Error('the reasoning log is off in this API, though the server was configured with it on');
    return started;
  };
  server.registerTool(TOOLS.reasoningWrite.name, TOOLS.reasoningWrite.config, async (args) => reasoningWriteResult(await log(), args));
  server.registerResource(
    'reasoning-run',
    new ResourceTemplate(REASONING_RUN_TEMPLATE, { list: undefined }),
    {
      title: 'Reasoning-log run',
      description: 'The append-only reasoning log of one run, one JSON event per line (operational, unverified)',
      mimeType: 'application/x-ndjson',
    },
    async (uri, variables) => {
      const runId = variables['run_id'];
      try {
        const run = await (await log()).read(Array.isArray(runId) ? runId.join('') : (runId ?? ''));
        return { contents: [{ uri: uri.href, mimeType: 'application/x-ndjson', text: run.jsonl }] };
      } catch (error) {
        const appError = toAppError(error);
        if (appError.code === 'REASONING_RUN_NOT_FOUND') throw new ResourceNotFoundError(uri.href, appError.message);
        throw appError;
      }
    },
  );
}

/**
 * The reasoning log end to end, with the real `jacobian serve` / `jacobian stdio` in
 * JACOBIAN_REASONING_MODE=REQUIRED: the full cycle on a real capability, a mismatched report
 * recorded as such, an unbound math.run refused before anything is computed (no artifact
 * written), and the log surviving a restart of the server over the same data dir.
 */
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { resultDigest, type ReasoningEvent, type WriteReceipt } from '@jacobian/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStore } from '../support/fs-snapshot.js';
import { PETERSEN_EDGES, PETERSEN_ORDER } from '../support/graphs.js';
import {
  describeEachConnection,
  E2E_TEST_TIMEOUT_MS,
  HOOK_TIMEOUT_MS,
  startHttpServer,
  startJacobian,
  type JacobianFixture,
} from '../support/jacobian.js';
import { errorDiagnostic, mathRun } from '../support/tools.js';

let jacobian: JacobianFixture;

beforeAll(async () => {
  jacobian = await startJacobian({ env: { JACOBIAN_REASONING_MODE: 'REQUIRED', JACOBIAN_CONCURRENCY: '1' } });
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await jacobian?.close();
}, HOOK_TIMEOUT_MS);

const artifactsDir = (): string => join(jacobian.dataDir, 'artifacts');

async function write(client: Client, args: Record<string, unknown>): Promise<WriteReceipt> {
  const response = await client.callTool({ name: 'reasoning.write', arguments: args });
  const text = response.content[0]?.type === 'text' ? response.content[0].text : '';
  expect(response.isError, text).toBeFalsy();
  const receipt = response.structuredContent as WriteReceipt;
  expect(text).toContain(`next_required: ${receipt.next_required}`);
  return receipt;
}

async function readRun(client: Client, runId: string): Promise<{ text: string; events: ReasoningEvent[] }> {
  const read = await client.readResource({ uri: `reasoning://run/${runId}` });
  const content = read.contents[0] as { mimeType?: string; text: string };
  expect(content.mimeType).toBe('application/x-ndjson');
  return { text: content.text, events: content.text.trimEnd().split('\n').map((line) => JSON.parse(line) as ReasoningEvent) };
}

/** PLAN and BEFORE_TOOL for graph.construct.explicit in EXPLORE mode. */
async function openCall(client: Client, summary: string): Promise<{ reasoning_run_id: string; reasoning_call_id: string }> {
  const plan = await write(client, { phase: 'PLAN', summary });
  const before = await write(client, { phase: 'BEFORE_TOOL', reasoning_run_id: plan.reasoning_run_id, capability_id: 'graph.construct.explicit', mode: 'EXPLORE', summary: 'Store the graph.' });
  expect(before.next_required).toBe('MATH_RUN');
  return { reasoning_run_id: plan.reasoning_run_id, reasoning_call_id: before.reasoning_call_id as string };
}

const construct = (payload: Record<string, unknown>, ids: Record<string, string> = {}) => ({ capability_id: 'graph.construct.explicit', mode: 'EXPLORE', payload, ...ids });

/** A path graph no other test sends, so running it would write a new artifact. */
const freshPath = (order: number) => ({ order, edges: Array.from({ length: order - 1 }, (_, i) => [i, i + 1]) });

describe('JACOBIAN_REASONING_MODE=REQUIRED', () => {
  describeEachConnection(
    () => jacobian,
    (connection, combination) => {
      const client = () => connection().client;
      // Distinct graphs per connection: the same request twice would be one job.
      const offset = combination.transport === 'http' ? 0 : 10;

      it('advertises reasoning.write and the reasoning fields of math.run', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const { tools } = await client().listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(['math.find', 'math.run', 'reasoning.write']);
        expect(Object.keys(tools.find((t) => t.name === 'math.run')?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['reasoning_run_id', 'reasoning_call_id']));
      });

      it('runs the full cycle on graph.construct.explicit and serves the log', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const ids = await openCall(client(), 'Build the Petersen graph.');
        const run = await mathRun(client(), construct({ order: PETERSEN_ORDER, edges: PETERSEN_EDGES }, ids));
        expect(run.result.execution.status).toBe('COMPLETED');
        const digest = resultDigest(run.result);
        expect(run.text).toContain(`result_digest: ${digest}`);
        expect(run.text).toContain('reasoning next_required: AFTER_TOOL');
        const after = await write(client(), {
          phase: 'AFTER_TOOL',
          ...ids,
          interpretation_status: 'INTERPRETED',
          execution_status: run.result.execution.status,
          assurance_level: run.result.assurance.level,
          completeness_status: run.result.completeness.status,
          result_digest: digest,
          artifact_uris: run.result.artifact_uris,
          summary: 'The graph is stored; 10 vertices, 15 edges.',
        });
        expect(after.mismatched_fields).toEqual([]);
        expect(Object.values(after.comparison ?? {})).toEqual(['MATCH', 'MATCH', 'MATCH', 'MATCH', 'MATCH']);
        const final = await write(client(), { phase: 'FINAL', reasoning_run_id: ids.reasoning_run_id, summary: 'Done.' });
        expect(final.next_required).toBe('NONE');

        const log = await readRun(client(), ids.reasoning_run_id);
        expect(log.events.map((e) => e.type)).toEqual(['PLAN', 'BEFORE_TOOL', 'CALL_BOUND', 'CALL_OUTCOME', 'AFTER_TOOL', 'FINAL']);
        expect(log.events[3]).toMatchObject({ capability_id: 'graph.construct.explicit', execution_status: 'COMPLETED', result_digest: digest, artifact_uris: run.result.artifact_uris });
        // No payload copied: the edge list is not in the log.
        expect(log.text).not.toContain('[0,1]');
      });

      it('records an AFTER_TOOL whose report differs from the outcome as mismatched', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const ids = await openCall(client(), 'Build a path graph.');
        const run = await mathRun(client(), construct(freshPath(30 + offset), ids));
        expect(run.result.execution.status).toBe('COMPLETED');
        const after = await write(client(), {
          phase: 'AFTER_TOOL',
          ...ids,
          interpretation_status: 'INTERPRETED',
          execution_status: 'COMPLETED',
          assurance_level: 'VERIFIED',
          completeness_status: run.result.completeness.status,
          summary: 'Reports the graph as verified, which it is not.',
        });
        expect(after.mismatched_fields).toEqual(['assurance_level']);
        const log = await readRun(client(), ids.reasoning_run_id);
        expect(log.events.at(-1)).toMatchObject({ type: 'AFTER_TOOL', comparison: { assurance_level: 'MISMATCH', execution_status: 'MATCH' }, reported: { assurance_level: 'VERIFIED' } });
      });

      it('refuses an unbound math.run before computing anything: no artifact is written', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const ids = await openCall(client(), 'Build another path graph.');
        const graph = freshPath(50 + offset);
        const before = await listStore(artifactsDir());
        const unbound = await mathRun(client(), construct(graph));
        expect(unbound.result.execution.status).toBe('ERROR');
        expect(errorDiagnostic(unbound.result, 'REASONING_PROTOCOL_VIOLATION').path).toEqual(['reasoning_run_id']);
        expect(unbound.text).toContain('reasoning: REJECTED');
        expect(await listStore(artifactsDir())).toEqual(before);
        // The same request with the call's IDs computes and stores the graph: the refusal was the only difference.
        const bound = await mathRun(client(), construct(graph, ids));
        expect(bound.result.execution.status).toBe('COMPLETED');
        expect(await listStore(artifactsDir())).not.toEqual(before);
      });
    },
    [
      { transport: 'http', era: 'modern' },
      { transport: 'stdio', era: 'legacy' },
    ],
  );

  describe('after a restart of jacobian serve over the same data dir', () => {
    it('still serves the log, and the run goes on', { timeout: 3 * E2E_TEST_TIMEOUT_MS }, async () => {
      const server = jacobian.http as NonNullable<typeof jacobian.http>;
      const first = new Client({ name: 'jacobian-e2e-reasoning', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await first.connect(new StreamableHTTPClientTransport(server.url));
      let ids: { reasoning_run_id: string; reasoning_call_id: string };
      let logged: string;
      try {
        ids = await openCall(first, 'Survive a restart.');
        await mathRun(first, construct(freshPath(70), ids));
        logged = (await readRun(first, ids.reasoning_run_id)).text;
      } finally {
        await first.close();
      }
      const stopped = await server.stop();
      expect(stopped).toMatchObject({ graceful: true, code: 0 });

      const again = await startHttpServer(jacobian.env);
      const second = new Client({ name: 'jacobian-e2e-reasoning', version: '1.0.0' });
      try {
        await second.connect(new StreamableHTTPClientTransport(again.url));
        const read = await readRun(second, ids.reasoning_run_id);
        expect(read.text).toBe(logged);
        expect(read.events.map((e) => e.type)).toEqual(['PLAN', 'BEFORE_TOOL', 'CALL_BOUND', 'CALL_OUTCOME']);
        const after = await write(second, { phase: 'AFTER_TOOL', ...ids, interpretation_status: 'RESULT_UNAVAILABLE', summary: 'Lost the result in the restart.' });
        expect(after).toMatchObject({ sequence: 5, next_required: 'BEFORE_TOOL_OR_FINAL' });
      } finally {
        await second.close();
        const stoppedAgain = await again.stop();
        expect(stoppedAgain).toMatchObject({ graceful: true, code: 0 });
      }
    });
  });
});

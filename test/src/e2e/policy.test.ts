/**
 * Operator settings seen from an MCP client: a capability hidden by policy is absent from
 * every discovery surface and refused when called directly; a checker the operator has not
 * authorized cannot produce VERIFIED. Every transport × protocol era.
 */
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStore } from '../support/fs-snapshot.js';
import { PETERSEN_EDGES, PETERSEN_ORDER } from '../support/graphs.js';
import { describeEachConnection, E2E_TEST_TIMEOUT_MS, startJacobian, HOOK_TIMEOUT_MS, type JacobianFixture } from '../support/jacobian.js';
import { errorDiagnostic, mathFind, mathRun } from '../support/tools.js';

// One kernel child per server keeps this file light on a 2-core machine; policy does not depend on it.
const LIGHT = { JACOBIAN_CONCURRENCY: '1' };

let reference: JacobianFixture;
let hidden: JacobianFixture;
let unauthorized: JacobianFixture;
let defaultDigests: { catalog: string; policy: string };

beforeAll(async () => {
  const started = await Promise.allSettled([
    startJacobian({ env: LIGHT }),
    startJacobian({ env: { ...LIGHT, JACOBIAN_HIDE_IDS: 'artifact.put' } }),
    startJacobian({ env: { ...LIGHT, JACOBIAN_CHECKER_AUTHORIZATION: 'none' } }),
  ]);
  // Keep whatever started, so afterAll stops it even when another one failed.
  const [a, b, c] = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
  [reference, hidden, unauthorized] = [a as JacobianFixture, b as JacobianFixture, c as JacobianFixture];
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  // The digests of the default policy, from a server started without policy settings.
  const client = new Client({ name: 'jacobian-e2e-reference', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport((reference.http as NonNullable<typeof reference.http>).url));
  try {
    const browse = await mathFind(client, {});
    expect(browse.response.matches.map((m) => m['capability_id'])).toContain('artifact.put');
    defaultDigests = { catalog: browse.response.catalog_digest, policy: browse.response.policy_digest };
  } finally {
    await client.close();
  }
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  const results = await Promise.allSettled([reference?.close(), hidden?.close(), unauthorized?.close()]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}, HOOK_TIMEOUT_MS);

describe('JACOBIAN_HIDE_IDS=artifact.put', () => {
  describeEachConnection(
    () => hidden,
    (connection) => {
      const client = () => connection().client;

      it('leaves artifact.put out of browse, search and capability://catalog, with a different policy digest', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        // Browse every page: operation cards are large, so a page holds fewer than `limit`.
        const browse = await mathFind(client(), { limit: 20 });
        const browsed = browse.response.matches.map((m) => m['capability_id']);
        for (let cursor = browse.response.next_cursor; cursor !== null; ) {
          const page = await mathFind(client(), { limit: 20, cursor });
          browsed.push(...page.response.matches.map((m) => m['capability_id']));
          cursor = page.response.next_cursor;
        }
        expect(browsed).not.toContain('artifact.put');
        expect(browsed).toEqual(expect.arrayContaining(['graph.construct.explicit', 'graph.induced_tree.maximum.compute', 'graph.induced_tree.maximum.verify']));
        expect(browse.response.total_matches).toBe(browsed.length);

        for (const query of ['artifact.put', 'store a generic artifact', 'artifact storage materialization']) {
          const search = await mathFind(client(), { query, limit: 20 });
          expect(search.response.kind).toBe('SEARCH');
          expect(search.response.matches.map((m) => m['capability_id'])).not.toContain('artifact.put');
        }

        const inspect = await mathFind(client(), { capability_id: 'artifact.put' });
        expect(inspect.response.capability).toBeNull();
        expect(inspect.response.diagnostics.map((d) => d.code)).toContain('UNKNOWN_CAPABILITY');

        const read = await client().readResource({ uri: 'capability://catalog' });
        const text = read.contents[0] !== undefined && 'text' in read.contents[0] ? read.contents[0].text : '';
        const catalog = JSON.parse(text) as { digest: string; policy_digest: string; capabilities: { id: string }[] };
        expect(catalog.capabilities.map((c) => c.id)).not.toContain('artifact.put');
        expect(catalog.capabilities.map((c) => c.id).sort()).toEqual([...browsed].sort());
        expect(text).not.toContain('artifact.put');

        expect(browse.response.policy_digest).toBe(catalog.policy_digest);
        expect(browse.response.policy_digest).not.toBe(defaultDigests.policy);
        expect(browse.response.catalog_digest).not.toBe(defaultDigests.catalog);
      });

      it('refuses a direct call with CAPABILITY_POLICY_DENIED and writes nothing', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const artifacts = join(hidden.dataDir, 'artifacts');
        const before = await listStore(artifacts);
        const { raw, result, text } = await mathRun(client(), {
          capability_id: 'artifact.put',
          payload: { schema_uri: 'urn:example:schema:note/v1', semantics_uri: 'urn:example:semantics:note/v1', payload: { text: 'hello' } },
        });
        expect(raw.isError).toBe(true);
        expect(result.execution.status).toBe('ERROR');
        expect(result.output).toBeNull();
        expect(result.artifact_uris).toEqual([]);
        const d = errorDiagnostic(result, 'CAPABILITY_POLICY_DENIED');
        expect(d.path).toEqual(['capability_id']);
        expect(d.message).toContain('artifact.put');
        expect(d.message).toContain('hidden by operator policy');
        expect(text).toContain('CAPABILITY_POLICY_DENIED');
        expect(await listStore(artifacts)).toEqual(before);
      });
    },
  );
});

describe('JACOBIAN_CHECKER_AUTHORIZATION=none', () => {
  describeEachConnection(
    () => unauthorized,
    (connection) => {
      const client = () => connection().client;

      it('computes as usual, but verification is an ERROR with CHECKER_NOT_AUTHORIZED and never VERIFIED', { timeout: E2E_TEST_TIMEOUT_MS }, async () => {
        const construct = await mathRun(client(), { capability_id: 'graph.construct.explicit', payload: { order: PETERSEN_ORDER, edges: PETERSEN_EDGES } });
        expect(construct.result.execution.status).toBe('COMPLETED');
        const { graph_uri } = construct.result.output as { graph_uri: string };
        const compute = await mathRun(client(), { capability_id: 'graph.induced_tree.maximum.compute', payload: { graph_uri } });
        expect(compute.result.execution.status).toBe('COMPLETED');
        const { result_uri, maximum } = compute.result.output as { result_uri: string; maximum: number };
        expect(maximum).toBe(7);

        // The checker is still discoverable: authorization limits what it may conclude, not what exists.
        const inspect = await mathFind(client(), { capability_id: 'graph.induced_tree.maximum.verify' });
        expect(inspect.response.capability?.['capability_id']).toBe('graph.induced_tree.maximum.verify');

        const artifacts = join(unauthorized.dataDir, 'artifacts');
        const before = await listStore(artifacts);
        const verify = await mathRun(client(), { capability_id: 'graph.induced_tree.maximum.verify', mode: 'VERIFY', payload: { result_uri } });
        expect(verify.raw.isError).toBe(true);
        expect(verify.result.execution.status).toBe('ERROR');
        const d = errorDiagnostic(verify.result, 'CHECKER_NOT_AUTHORIZED');
        expect(d.message).toContain('not authorized');
        expect(verify.result.assurance.level).not.toBe('VERIFIED');
        expect(verify.result.assurance.verification_record_uri).toBeNull();
        expect(verify.result.obligations.filter((o) => o.status === 'DISCHARGED')).toEqual([]);
        expect(verify.text).not.toContain('assurance: VERIFIED');
        // No verification record (or anything else) was stored.
        expect(await listStore(artifacts)).toEqual(before);
      });
    },
  );
});

/**
 * Thin, strict wrappers around the MCP calls the end-to-end tests make. They check the
 * envelope (text content present, structuredContent present, isError consistent) and hand back
 * the parsed structures, so a test reads as the scenario it asserts.
 */
import type { CallToolResult, Client, RequestOptions } from '@modelcontextprotocol/client';
import { CapabilityResultSchema, type CapabilityResult, type Diagnostic } from '@jacobian/shared';
import { expect } from 'vitest';

export const ARTIFACT_URI = /^artifact:\/\/sha256\/[0-9a-f]{64}$/;

export interface RunCall {
  raw: CallToolResult;
  /** structuredContent, parsed with the product's own result contract (refinements included). */
  result: CapabilityResult;
  /** The text content (the compact projection). */
  text: string;
}

function textOf(raw: CallToolResult): string {
  expect(raw.content.length).toBeGreaterThan(0);
  const first = raw.content[0];
  expect(first?.type).toBe('text');
  return first?.type === 'text' ? first.text : '';
}

/** math.run with exactly these arguments (no defaults added). */
export async function mathRun(client: Client, args: Record<string, unknown>, options?: RequestOptions): Promise<RunCall> {
  const raw = await client.callTool({ name: 'math.run', arguments: args }, options);
  const text = textOf(raw);
  expect(raw.structuredContent, `math.run returned no structuredContent; text: ${text}`).toBeDefined();
  const parsed = CapabilityResultSchema.safeParse(raw.structuredContent);
  expect(parsed.success, `structuredContent breaks the result contract: ${parsed.error?.message ?? ''}`).toBe(true);
  const result = parsed.data as CapabilityResult;
  // isError is set exactly for ERROR executions.
  expect(raw.isError === true).toBe(result.execution.status === 'ERROR');
  return { raw, result, text };
}

export interface FindCall {
  raw: CallToolResult;
  response: FindResponse;
  text: string;
  /** Size of the whole CallToolResult as JSON, in UTF-8 bytes. */
  bytes: number;
}

export interface FindResponse {
  catalog_digest: string;
  policy_digest: string;
  policy_profile: string;
  kind: 'BROWSE' | 'SEARCH' | 'INSPECT';
  total_matches: number | null;
  matches: Record<string, unknown>[];
  capability: Record<string, unknown> | null;
  next_cursor: string | null;
  portfolio_fit: string | null;
  portfolio_fit_basis: string | null;
  domain_filter_status: string | null;
  domain_filter_basis: string | null;
  installed_domains: string[] | null;
  routing_status: string | null;
  routing_basis: string | null;
  recovery_paths: { kind: string; detail: string }[];
  diagnostics: Diagnostic[];
}

export async function mathFind(client: Client, args: Record<string, unknown>): Promise<FindCall> {
  const raw = await client.callTool({ name: 'math.find', arguments: args });
  const text = textOf(raw);
  expect(raw.structuredContent, `math.find returned no structuredContent; text: ${text}`).toBeDefined();
  return { raw, response: raw.structuredContent as FindResponse, text, bytes: Buffer.byteLength(JSON.stringify(raw), 'utf8') };
}

export interface ArtifactRead {
  uri: string;
  manifest: Record<string, unknown>;
  payload: unknown;
}

/** Read artifact://sha256/<digest> through the resource template. */
export async function readArtifact(client: Client, uri: string): Promise<ArtifactRead> {
  const read = await client.readResource({ uri });
  expect(read.contents).toHaveLength(1);
  const content = read.contents[0];
  expect(content?.uri).toBe(uri);
  expect(content?.mimeType).toBe('application/json');
  const text = content !== undefined && 'text' in content ? content.text : undefined;
  expect(typeof text).toBe('string');
  return JSON.parse(text as string) as ArtifactRead;
}

/** Every artifact URI a result mentions anywhere: artifact_uris, output, scope, relationships, assurance. */
export function artifactUrisIn(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    if (ARTIFACT_URI.test(value)) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) artifactUrisIn(item, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) artifactUrisIn(item, into);
  }
  return into;
}

/** The ERROR diagnostic with this code (or the first ERROR one), failing the test when absent. */
export function errorDiagnostic(result: CapabilityResult, code?: string): Diagnostic {
  const errors = result.diagnostics.filter((d) => d.severity === 'ERROR' && (code === undefined || d.code === code));
  expect(errors, `no ERROR diagnostic${code ? ` ${code}` : ''} in ${JSON.stringify(result.diagnostics)}`).not.toHaveLength(0);
  return errors[0] as Diagnostic;
}

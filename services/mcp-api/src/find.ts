import { z } from 'zod';
import {
  canonicalize,
  JacobianError,
  Mode,
  type Catalog,
  type CatalogEntry,
  type CapabilityDescriptor,
  type Diagnostic,
} from '@jacobian/shared';

/** Every math.find response, text projection included, stays under this many bytes. */
export const FIND_RESPONSE_MAX_BYTES = 16 * 1024;
const EXAMPLE_MAX_BYTES = 1536;

export const FindView = { SUMMARY: 'SUMMARY', CONTRACT: 'CONTRACT', FULL: 'FULL' } as const;
export type FindView = (typeof FindView)[keyof typeof FindView];

export const FindArgumentsSchema = z
  .object({
    query: z.string().min(1).max(500).optional().describe('words describing the outcome you want; omit to browse in ID order'),
    capability_id: z.string().min(1).max(128).optional().describe('exact capability ID to inspect'),
    view: z.enum(FindView).optional().describe('inspection detail: SUMMARY (default), CONTRACT (full input schema, examples), FULL'),
    domain: z.string().min(1).max(64).optional().describe('only capabilities of this domain (or with this exact tag)'),
    mode: z.enum(Mode).optional().describe('only capabilities offering this mode'),
    limit: z.number().int().min(1).max(20).optional().describe('matches per page, 1-20, default 5'),
    cursor: z.string().min(1).max(512).optional().describe('next_cursor from the previous page, with the same filters'),
  })
  .strict()
  .superRefine((args, ctx) => {
    if (args.capability_id !== undefined) {
      for (const key of ['query', 'domain', 'mode', 'limit', 'cursor'] as const) {
        if (args[key] !== undefined) {
          ctx.addIssue({ code: 'custom', path: [key], message: `${key} cannot be combined with capability_id (inspection is exact)` });
        }
      }
    } else if (args.view !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['view'], message: 'view applies only to inspection by capability_id' });
    }
  });
export type FindArguments = z.infer<typeof FindArgumentsSchema>;

export interface FindSources {
  catalog: Catalog;
  descriptors: ReadonlyMap<string, CapabilityDescriptor>;
}

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'to', 'in', 'for', 'and', 'or', 'with', 'on', 'by', 'is', 'it', 'its', 'from', 'find', 'compute', 'get']);

/** Field weights: an ID or tag hit says more about fit than a word somewhere in a description. */
const FIELD_WEIGHTS = { id: 4, tags: 3, title: 3, description: 1 } as const;
type Field = keyof typeof FIELD_WEIGHTS;

interface Scored {
  entry: CatalogEntry;
  score: number;
  matched_on: Field[];
  matched_terms: string[];
}

/** Each catalog entry's searchable tokens, computed once per entry object (a catalog is immutable). */
const fieldTokens = new WeakMap<CatalogEntry, Record<Field, Set<string>>>();

function fieldsOf(entry: CatalogEntry, descriptor: CapabilityDescriptor): Record<Field, Set<string>> {
  let fields = fieldTokens.get(entry);
  if (fields === undefined) {
    fields = {
      id: new Set(tokens(entry.id)),
      tags: new Set(entry.tags.flatMap(tokens)),
      title: new Set(tokens(entry.title)),
      description: new Set(tokens(descriptor.description)),
    };
    fieldTokens.set(entry, fields);
  }
  return fields;
}

/** Whether a token and the term share a prefix of at least four letters (tree/trees). */
function prefixHit(set: ReadonlySet<string>, term: string): boolean {
  for (const token of set) {
    if (token.startsWith(term) || (term.startsWith(token) && token.length >= 4)) return true;
  }
  return false;
}

function score(entry: CatalogEntry, descriptor: CapabilityDescriptor, terms: string[]): Scored {
  const fields = fieldsOf(entry, descriptor);
  let total = 0;
  const matchedOn = new Set<Field>();
  const matchedTerms: string[] = [];
  for (const term of terms) {
    let best = 0;
    for (const field of Object.keys(FIELD_WEIGHTS) as Field[]) {
      const set = fields[field];
      // A term matches a token exactly, or as a prefix of at least four letters (tree/trees).
      const hit = set.has(term) || (term.length >= 4 && prefixHit(set, term));
      if (hit) {
        matchedOn.add(field);
        best = Math.max(best, FIELD_WEIGHTS[field]);
      }
    }
    if (best > 0) matchedTerms.push(term);
    total += best;
  }
  const order: Field[] = ['id', 'tags', 'title', 'description'];
  return { entry, score: total, matched_on: order.filter((f) => matchedOn.has(f)), matched_terms: matchedTerms };
}

interface CursorState {
  o: number;
  c: string;
  f: string;
}

function filterKey(args: FindArguments): string {
  return canonicalize({ q: args.query ?? null, d: args.domain ?? null, m: args.mode ?? null, l: args.limit ?? 5 });
}

function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, catalogDigest: string, filters: string): number {
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new JacobianError('INVALID_REQUEST', 'cursor: not a cursor returned by math.find', { path: ['cursor'] });
  }
  const parsed = z.object({ o: z.number().int().min(0), c: z.string(), f: z.string() }).strict().safeParse(state);
  if (!parsed.success) throw new JacobianError('INVALID_REQUEST', 'cursor: not a cursor returned by math.find', { path: ['cursor'] });
  if (parsed.data.c !== catalogDigest) {
    throw new JacobianError('INVALID_REQUEST', 'cursor: the catalog changed since this cursor was issued; start again without a cursor', {
      path: ['cursor'],
      data: { catalog_digest: catalogDigest },
    });
  }
  if (parsed.data.f !== filters) {
    throw new JacobianError('INVALID_REQUEST', 'cursor: pass the same query, domain, mode and limit as the call that returned it', {
      path: ['cursor'],
    });
  }
  return parsed.data.o;
}

function boundedExample(descriptor: CapabilityDescriptor): Record<string, unknown> | null {
  for (const example of descriptor.examples) {
    if (Buffer.byteLength(JSON.stringify(example)) <= EXAMPLE_MAX_BYTES) return example;
  }
  return null;
}

/** Each entry's card without search signals, built once per entry object (a catalog is immutable). */
const baseCards = new WeakMap<CatalogEntry, Record<string, unknown>>();

/** The compact card shown for each search or browse match. */
function card(entry: CatalogEntry, descriptor: CapabilityDescriptor, scored?: Scored): Record<string, unknown> {
  let base = baseCards.get(entry);
  if (base === undefined) {
    base = baseCard(entry, descriptor);
    baseCards.set(entry, base);
  }
  return scored === undefined ? { ...base } : { ...base, matched_on: scored.matched_on, matched_terms: scored.matched_terms, relevance_score: scored.score };
}

function baseCard(entry: CatalogEntry, descriptor: CapabilityDescriptor): Record<string, unknown> {
  const example = boundedExample(descriptor);
  return {
    capability_id: entry.id,
    title: entry.title,
    domain: entry.domain,
    modes: entry.modes,
    role: entry.role,
    tags: entry.tags,
    input_kinds: entry.input_kinds,
    accepted_artifact_types: entry.accepted_artifact_types,
    produced_artifact_types: entry.produced_artifact_types,
    output_fields: Object.keys((descriptor.output_schema['properties'] as Record<string, unknown> | undefined) ?? {}),
    provider: { name: entry.provider.name, version: entry.provider.version, availability: 'AVAILABLE' },
    scope: descriptor.scope_rule,
    assurance_ceiling: entry.assurance_ceiling,
    relationships: descriptor.relationships,
    ...(example !== null ? { example } : { input_fields: entry.input_fields }),
  };
}

function outputSummary(descriptor: CapabilityDescriptor): Record<string, string> {
  const properties = (descriptor.output_schema['properties'] as Record<string, Record<string, unknown>> | undefined) ?? {};
  const summary: Record<string, string> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const type = schema['type'];
    const description = schema['description'];
    summary[name] = `${Array.isArray(type) ? type.join('|') : typeof type === 'string' ? type : 'value'}${typeof description === 'string' ? `: ${description}` : ''}`;
  }
  return summary;
}

function inspect(entry: CatalogEntry, descriptor: CapabilityDescriptor, view: FindView): Record<string, unknown> {
  const summary: Record<string, unknown> = {
    capability_id: entry.id,
    version: entry.version,
    title: entry.title,
    description: descriptor.description,
    domain: entry.domain,
    modes: entry.modes,
    role: entry.role,
    tags: entry.tags,
    pool: entry.pool,
    input_kinds: entry.input_kinds,
    accepted_artifact_types: entry.accepted_artifact_types,
    produced_artifact_types: entry.produced_artifact_types,
    input_fields: entry.input_fields,
    output_fields: Object.keys(outputSummary(descriptor)),
    provider: { name: entry.provider.name, version: entry.provider.version, availability: 'AVAILABLE' },
    assurance_ceiling: entry.assurance_ceiling,
    scope_rule: descriptor.scope_rule,
    limits: descriptor.limits,
    examples_available: descriptor.examples.length,
    relationships: descriptor.relationships,
  };
  if (view === 'SUMMARY') return summary;
  const contract = {
    ...summary,
    input_schema: descriptor.input_schema,
    output_summary: outputSummary(descriptor),
    examples: descriptor.examples,
    checker: descriptor.checker,
  };
  if (view === 'CONTRACT') return contract;
  return {
    ...contract,
    output_schema: descriptor.output_schema,
    provider_runtime: descriptor.provider_runtime,
    license: { id: descriptor.provider_runtime.license_id, files: descriptor.provider_runtime.license_files },
    descriptor_digest: entry.descriptor_digest,
  };
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
  diagnostics: Diagnostic[];
}

/**
 * Discovery over the policy-filtered catalog. Browse is stable ID order; search ranks by a
 * deterministic lexical score (ties by ID); inspection returns one exact projection.
 * Ranking is retrieval over descriptors, not advice about what to run.
 */
export function find(args: FindArguments, sources: FindSources): FindResponse {
  const { catalog, descriptors } = sources;
  const base = {
    catalog_digest: catalog.digest,
    policy_digest: catalog.policy_digest,
    policy_profile: catalog.policy_profile,
    diagnostics: [] as Diagnostic[],
  };
  if (args.capability_id !== undefined) {
    const entry = catalog.capabilities.find((c) => c.id === args.capability_id);
    const descriptor = descriptors.get(args.capability_id);
    if (entry === undefined || descriptor === undefined) {
      throw new JacobianError('UNKNOWN_CAPABILITY', `capability_id: ${args.capability_id} is not in the installed catalog`, {
        path: ['capability_id'],
        hint: 'browse with math.find and no arguments, or read capability://catalog',
      });
    }
    const view = args.view ?? 'SUMMARY';
    const capability = inspect(entry, descriptor, view);
    // The response travels twice (structured and as text, which keeps the input schema), so
    // half the bound is the budget; examples go first, each one named as omitted.
    const examples = Array.isArray(capability['examples']) ? [...(capability['examples'] as unknown[])] : [];
    let omitted = 0;
    while (examples.length > 0 && Buffer.byteLength(JSON.stringify(capability)) > FIND_RESPONSE_MAX_BYTES / 2 - 512) {
      examples.pop();
      omitted++;
      capability['examples'] = examples;
      capability['examples_omitted'] = omitted;
    }
    return { ...base, kind: 'INSPECT', total_matches: null, matches: [], capability, next_cursor: null };
  }
  const limit = args.limit ?? 5;
  let candidates = catalog.capabilities;
  if (args.domain !== undefined) candidates = candidates.filter((c) => c.domain === args.domain || c.tags.includes(args.domain as string));
  if (args.mode !== undefined) candidates = candidates.filter((c) => c.modes.includes(args.mode as Mode));
  let ranked: { entry: CatalogEntry; scored?: Scored }[];
  if (args.query === undefined) {
    ranked = candidates.map((entry) => ({ entry }));
  } else {
    const terms = [...new Set(tokens(args.query).filter((t) => !STOP_WORDS.has(t)))];
    ranked = candidates
      .map((entry) => score(entry, descriptors.get(entry.id) as CapabilityDescriptor, terms))
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || (a.entry.id < b.entry.id ? -1 : 1))
      .map((scored) => ({ entry: scored.entry, scored }));
  }
  const filters = filterKey(args);
  const offset = args.cursor === undefined ? 0 : decodeCursor(args.cursor, catalog.digest, filters);
  const page = ranked.slice(offset, offset + limit);
  const matches = page.map(({ entry, scored }) => card(entry, descriptors.get(entry.id) as CapabilityDescriptor, scored));
  // Keep the response (and its text projection) under the size bound by paging earlier.
  while (matches.length > 1 && Buffer.byteLength(JSON.stringify(matches)) > FIND_RESPONSE_MAX_BYTES / 2 - 1024) matches.pop();
  const next = offset + matches.length;
  return {
    ...base,
    kind: args.query === undefined ? 'BROWSE' : 'SEARCH',
    total_matches: ranked.length,
    matches,
    capability: null,
    next_cursor: next < ranked.length ? encodeCursor({ o: next, c: catalog.digest, f: filters }) : null,
  };
}

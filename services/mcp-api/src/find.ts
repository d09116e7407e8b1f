import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  InputKind,
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
    input_kind: z
      .enum(InputKind)
      .optional()
      .describe('only capabilities accepting this kind of input: STRUCTURED_REQUEST, FORMAL_PROPOSITION, TYPED_ARTIFACT or NATURAL_LANGUAGE_PROOF'),
    artifact_type: z
      .string()
      .min(1)
      .max(256)
      .regex(/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/, 'must be the exact schema URI from a stored artifact manifest (schema_uri)')
      .optional()
      .describe('with input_kind TYPED_ARTIFACT: the exact schema_uri of the stored artifact, from its manifest'),
    cursor: z.string().min(1).max(512).optional().describe('next_cursor from the previous page, with the same filters'),
  })
  .strict()
  .superRefine((args, ctx) => {
    if (args.capability_id !== undefined) {
      for (const key of ['query', 'domain', 'mode', 'input_kind', 'artifact_type', 'limit', 'cursor'] as const) {
        if (args[key] !== undefined) {
          ctx.addIssue({ code: 'custom', path: [key], message: `${key} cannot be combined with capability_id (inspection is exact)` });
        }
      }
    } else {
      if (args.view !== undefined) ctx.addIssue({ code: 'custom', path: ['view'], message: 'view applies only to inspection by capability_id' });
      if (args.artifact_type !== undefined && args.input_kind !== 'TYPED_ARTIFACT') {
        ctx.addIssue({ code: 'custom', path: ['artifact_type'], message: 'artifact_type applies only with input_kind TYPED_ARTIFACT' });
      }
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

/** Per-match lexical fit: STRONG needs half the query's terms and an ID, tag or title hit. */
export type LexicalFit = 'STRONG' | 'WEAK';
/** The coverage (per mille of query terms) a STRONG match needs at least. */
const STRONG_COVERAGE_MILLI = 500;

interface Scored {
  entry: CatalogEntry;
  score: number;
  matched_on: Field[];
  matched_terms: string[];
  query_coverage_milli: number;
  lexical_fit: LexicalFit;
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

const FIELDS = Object.keys(FIELD_WEIGHTS) as Field[];

/**
 * How one term matches one entry, remembered per entry (queries reuse a small vocabulary, and
 * the prefix scan over a description is most of a search's cost): the best field weight times
 * 16 plus a bit per matched field, in FIELDS order. Bounded per entry; cleared when full.
 */
const termMatches = new WeakMap<CatalogEntry, Map<string, number>>();
const MAX_REMEMBERED_TERMS = 4096;

function termMatch(entry: CatalogEntry, descriptor: CapabilityDescriptor, term: string): number {
  let remembered = termMatches.get(entry);
  if (remembered === undefined) {
    remembered = new Map();
    termMatches.set(entry, remembered);
  }
  const known = remembered.get(term);
  if (known !== undefined) return known;
  const fields = fieldsOf(entry, descriptor);
  let best = 0;
  let mask = 0;
  for (const [bit, field] of FIELDS.entries()) {
    const set = fields[field];
    // A term matches a token exactly, or as a prefix of at least four letters (tree/trees).
    if (set.has(term) || (term.length >= 4 && prefixHit(set, term))) {
      mask |= 1 << bit;
      best = Math.max(best, FIELD_WEIGHTS[field]);
    }
  }
  if (remembered.size >= MAX_REMEMBERED_TERMS) remembered.clear();
  const match = best * 16 + mask;
  remembered.set(term, match);
  return match;
}

/** An entry's fit to the query terms, or null when no term matches it (most entries, most queries). */
function score(entry: CatalogEntry, descriptor: CapabilityDescriptor, terms: string[]): Scored | null {
  let total = 0;
  let matchedMask = 0;
  const matches = terms.map((term) => termMatch(entry, descriptor, term));
  for (const match of matches) total += match >> 4;
  if (total === 0) return null;
  const matchedTerms: string[] = [];
  // Whether some term hit an ID, tag or title token (weight 3 or more), not only the description.
  let namingHit = false;
  for (const [i, match] of matches.entries()) {
    const best = match >> 4;
    matchedMask |= match & 15;
    if (best > 0) matchedTerms.push(terms[i] as string);
    if (best >= FIELD_WEIGHTS.title) namingHit = true;
  }
  const coverage = terms.length === 0 ? 0 : Math.floor((1000 * matchedTerms.length) / terms.length);
  return {
    entry,
    score: total,
    // FIELDS is in the order matched_on lists fields: id, tags, title, description.
    matched_on: FIELDS.filter((_, bit) => (matchedMask & (1 << bit)) !== 0),
    matched_terms: matchedTerms,
    query_coverage_milli: coverage,
    lexical_fit: coverage >= STRONG_COVERAGE_MILLI && namingHit ? 'STRONG' : 'WEAK',
  };
}

interface CursorState {
  o: number;
  c: string;
  f: string;
}

/**
 * The filters a cursor is bound to, as a short digest of them: a cursor stays well inside the
 * `cursor` argument's 512 characters whatever the length of the query or artifact type.
 */
function filterKey(args: FindArguments): string {
  // The RFC 8785 form of {q, d, m, k, t, l}, written directly (members in code-unit order, strings
  // NFC as our canonical JSON has them): canonicalize() here was a fifth of a search's cost.
  const nfc = (value: string | undefined): string | null => (value === undefined ? null : value.normalize('NFC'));
  const key = JSON.stringify({ d: nfc(args.domain), k: args.input_kind ?? null, l: args.limit ?? 5, m: args.mode ?? null, q: nfc(args.query), t: nfc(args.artifact_type) });
  return createHash('sha256').update(key).digest('base64url').slice(0, FILTER_KEY_LENGTH);
}

/** Characters of a cursor's filter digest (132 bits of SHA-256). */
const FILTER_KEY_LENGTH = 22;

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
    throw new JacobianError('INVALID_REQUEST', 'cursor: pass the same query, domain, mode, input_kind, artifact_type and limit as the call that returned it', {
      path: ['cursor'],
    });
  }
  return parsed.data.o;
}

/** What routing and relationships need to know about the whole catalog, built once per catalog. */
interface CatalogIndex {
  ids: ReadonlySet<string>;
  /** Installed domains, sorted. */
  domains: readonly string[];
  /** Every installed domain and tag: what the `domain` argument can name. */
  domainsAndTags: ReadonlySet<string>;
  /** Entries accepting each input kind, in ID order. */
  byInputKind: ReadonlyMap<string, readonly CatalogEntry[]>;
  /** Entries accepting TYPED_ARTIFACT input of each artifact type, in ID order. */
  byArtifactType: ReadonlyMap<string, readonly CatalogEntry[]>;
  /** Entries producing each artifact type, in ID order. */
  producers: ReadonlyMap<string, readonly CatalogEntry[]>;
}

const indexes = new WeakMap<Catalog, CatalogIndex>();

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

function indexOf(catalog: Catalog): CatalogIndex {
  let index = indexes.get(catalog);
  if (index === undefined) {
    const domains = new Set<string>();
    const domainsAndTags = new Set<string>();
    const byInputKind = new Map<string, CatalogEntry[]>();
    const byArtifactType = new Map<string, CatalogEntry[]>();
    const producers = new Map<string, CatalogEntry[]>();
    for (const entry of catalog.capabilities) {
      domains.add(entry.domain);
      domainsAndTags.add(entry.domain);
      for (const tag of entry.tags) domainsAndTags.add(tag);
      for (const kind of entry.input_kinds) push(byInputKind, kind, entry);
      if (entry.input_kinds.includes('TYPED_ARTIFACT')) for (const type of entry.accepted_artifact_types) push(byArtifactType, type, entry);
      for (const type of entry.produced_artifact_types) push(producers, type, entry);
    }
    index = { ids: new Set(catalog.capabilities.map((c) => c.id)), domains: [...domains].sort(), domainsAndTags, byInputKind, byArtifactType, producers };
    indexes.set(catalog, index);
  }
  return index;
}

/** At most this many relationships per card or inspection; the rest are counted. */
const RELATIONSHIPS_MAX = 8;

/**
 * Factual relationships to installed operations only: the descriptor's declared ones whose
 * target is installed, then artifact-type compatibility with installed operations the descriptor
 * does not already name (ACCEPTS_OUTPUT_OF: this accepts an artifact type the other produces;
 * OUTPUT_ACCEPTED_BY: the other accepts, as TYPED_ARTIFACT, a type this produces).
 */
function installedRelationships(entry: CatalogEntry, descriptor: CapabilityDescriptor, index: CatalogIndex): Record<string, unknown> {
  const relationships: Record<string, string>[] = descriptor.relationships.filter((r) => index.ids.has(r.capability_id)).map((r) => ({ ...r }));
  const seen = new Set([entry.id, ...relationships.map((r) => r['capability_id'] as string)]);
  const derive = (kind: string, types: readonly string[], others: ReadonlyMap<string, readonly CatalogEntry[]>): void => {
    const named = new Set<string>();
    for (const type of types) {
      for (const other of others.get(type) ?? []) {
        if (seen.has(other.id) || named.has(other.id)) continue;
        named.add(other.id);
        relationships.push({ kind, capability_id: other.id, artifact_type: type });
      }
    }
  };
  if (entry.input_kinds.includes('TYPED_ARTIFACT')) derive('ACCEPTS_OUTPUT_OF', entry.accepted_artifact_types, index.producers);
  derive('OUTPUT_ACCEPTED_BY', entry.produced_artifact_types, index.byArtifactType);
  const omitted = relationships.length - RELATIONSHIPS_MAX;
  return { relationships: relationships.slice(0, RELATIONSHIPS_MAX), ...(omitted > 0 ? { relationships_omitted: omitted } : {}) };
}

function boundedExample(descriptor: CapabilityDescriptor): Record<string, unknown> | null {
  for (const example of descriptor.examples) {
    if (Buffer.byteLength(JSON.stringify(example)) <= EXAMPLE_MAX_BYTES) return example;
  }
  return null;
}

/**
 * Each entry's card without search signals, built once per entry object. A catalog is
 * immutable and its entries are its own objects, so an entry also fixes the catalog the
 * card's relationships are computed against.
 */
const baseCards = new WeakMap<CatalogEntry, { card: Record<string, unknown>; bytes: number }>();

/**
 * The compact card shown for each search or browse match, with its size as JSON in UTF-8
 * bytes. The size is the base card's (measured once) plus the search signals' own: `{a}` and
 * `{b}` spread into one object serialize as `{a,b}`, one byte less than the two together.
 */
function card(entry: CatalogEntry, descriptor: CapabilityDescriptor, index: CatalogIndex, scored?: Scored): { card: Record<string, unknown>; bytes: number } {
  let base = baseCards.get(entry);
  if (base === undefined) {
    const built = baseCard(entry, descriptor, index);
    base = { card: built, bytes: Buffer.byteLength(JSON.stringify(built)) };
    baseCards.set(entry, base);
  }
  // Object.assign, not spreads: cards differ in shape from entry to entry, and a spread into an
  // object literal is several times slower on such sources (the search's largest cost).
  if (scored === undefined) return { card: Object.assign({}, base.card), bytes: base.bytes };
  const signals = {
    matched_on: scored.matched_on,
    matched_terms: scored.matched_terms,
    relevance_score: scored.score,
    query_coverage_milli: scored.query_coverage_milli,
    lexical_fit: scored.lexical_fit,
  };
  return { card: Object.assign({}, base.card, signals), bytes: base.bytes + Buffer.byteLength(JSON.stringify(signals)) - 1 };
}

/** A card's output summary keeps each field's line within this many characters. */
const CARD_OUTPUT_LINE_MAX = 160;

function providerOf(entry: CatalogEntry, descriptor: CapabilityDescriptor): Record<string, string> {
  return { name: entry.provider.name, version: entry.provider.version, availability: descriptor.provider_runtime.availability };
}

function baseCard(entry: CatalogEntry, descriptor: CapabilityDescriptor, index: CatalogIndex): Record<string, unknown> {
  const example = boundedExample(descriptor);
  const output = Object.entries(outputSummary(descriptor)).map(([name, line]) => [name, line.length <= CARD_OUTPUT_LINE_MAX ? line : `${line.slice(0, CARD_OUTPUT_LINE_MAX - 1)}…`]);
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
    output_summary: Object.fromEntries(output),
    provider: providerOf(entry, descriptor),
    scope_rule: descriptor.scope_rule,
    assurance_ceiling: entry.assurance_ceiling,
    ...installedRelationships(entry, descriptor, index),
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

function inspect(entry: CatalogEntry, descriptor: CapabilityDescriptor, index: CatalogIndex, view: FindView): Record<string, unknown> {
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
    provider: providerOf(entry, descriptor),
    assurance_ceiling: entry.assurance_ceiling,
    scope_rule: descriptor.scope_rule,
    limits: descriptor.limits,
    examples_available: descriptor.examples.length,
    ...installedRelationships(entry, descriptor, index),
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

export const PORTFOLIO_FITS = ['STRONG_CANDIDATES', 'ONLY_WEAK_LEXICAL_MATCHES', 'NO_LEXICAL_MATCHES', 'UNFILTERED'] as const;
export type PortfolioFit = (typeof PORTFOLIO_FITS)[number];
export const DOMAIN_FILTER_STATUSES = ['MATCHED', 'UNKNOWN_DOMAIN', 'UNFILTERED'] as const;
export type DomainFilterStatus = (typeof DOMAIN_FILTER_STATUSES)[number];
export const ROUTING_STATUSES = ['ROUTED', 'NO_ROUTE', 'UNCONSTRAINED'] as const;
export type RoutingStatus = (typeof ROUTING_STATUSES)[number];
export const RECOVERY_KINDS = ['REFORMULATE', 'REMOVE_FILTER', 'BROWSE', 'READ_CATALOG'] as const;
export interface RecoveryPath {
  kind: (typeof RECOVERY_KINDS)[number];
  detail: string;
}

/** At most this many installed domains are listed for an unknown domain filter. */
const INSTALLED_DOMAINS_MAX = 50;

/**
 * The response-level retrieval signals. Each is null, and recovery_paths empty, when the
 * request was rejected (its diagnostics say why).
 */
export interface FindSignals {
  portfolio_fit: PortfolioFit | null;
  portfolio_fit_basis: string | null;
  domain_filter_status: DomainFilterStatus | null;
  domain_filter_basis: string | null;
  /** Present (sorted, at most 50) only with UNKNOWN_DOMAIN. */
  installed_domains: string[] | null;
  routing_status: RoutingStatus | null;
  routing_basis: string | null;
  /** Unranked ways on when results are weak, empty or incompatible; empty otherwise. */
  recovery_paths: RecoveryPath[];
}

export interface FindResponse extends FindSignals {
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

const REJECTED_SIGNALS: FindSignals = {
  portfolio_fit: null,
  portfolio_fit_basis: null,
  domain_filter_status: null,
  domain_filter_basis: null,
  installed_domains: null,
  routing_status: null,
  routing_basis: null,
  recovery_paths: [],
};

/** The answer to a request that was rejected: no matches, no signals, the diagnostics. */
export function rejectedFindResponse(catalog: Catalog, kind: FindResponse['kind'], diagnostics: Diagnostic[]): FindResponse {
  return {
    catalog_digest: catalog.digest,
    policy_digest: catalog.policy_digest,
    policy_profile: catalog.policy_profile,
    kind,
    total_matches: null,
    matches: [],
    capability: null,
    next_cursor: null,
    ...REJECTED_SIGNALS,
    recovery_paths: [],
    diagnostics,
  };
}

/** Up to `max` items joined, with how many more there are. */
function listed(items: Iterable<string>, max = 10): string {
  const all = [...items];
  const shown = all.slice(0, max).join(', ');
  return all.length > max ? `${shown} (and ${all.length - max} more)` : shown;
}

/** Phrases that name natural-language proof unambiguously, as consecutive query tokens. */
const NATURAL_LANGUAGE_PROOF_PHRASES = [['informal', 'proof'], ['proof', 'prose'], ['prose', 'proof'], ['natural', 'language', 'proof']] as const;

/** The phrase of the query that names natural-language proof, if any ("proofs" counts as "proof"). */
function naturalLanguageProofPhrase(queryTokens: readonly string[]): string | null {
  const words = queryTokens.map((t) => (t === 'proofs' ? 'proof' : t));
  for (const phrase of NATURAL_LANGUAGE_PROOF_PHRASES) {
    for (let i = 0; i + phrase.length <= words.length; i++) {
      if (phrase.every((word, j) => words[i + j] === word)) return phrase.join(' ');
    }
  }
  return null;
}

interface Routing {
  status: RoutingStatus;
  basis: string;
  /** The installed entries accepting the input, when the input kind constrains the results. */
  accepting: readonly CatalogEntry[] | null;
  /** Whether natural-language proof was named in the query rather than declared. */
  detected: boolean;
}

function route(args: FindArguments, queryTokens: readonly string[], index: CatalogIndex): Routing {
  const phrase = args.input_kind === undefined ? naturalLanguageProofPhrase(queryTokens) : null;
  const kind = args.input_kind ?? (phrase !== null ? 'NATURAL_LANGUAGE_PROOF' : undefined);
  if (kind === undefined) {
    return { status: 'UNCONSTRAINED', basis: 'no input_kind was given and the query names no natural-language proof; input kinds do not restrict the results', accepting: null, detected: false };
  }
  const accepting = (args.artifact_type !== undefined ? index.byArtifactType.get(args.artifact_type) : index.byInputKind.get(kind)) ?? [];
  const what = args.artifact_type !== undefined ? `TYPED_ARTIFACT input of type ${args.artifact_type}` : `${kind} input`;
  const source = phrase !== null ? `the query names natural-language proof ("${phrase}")` : `input_kind ${kind}`;
  if (accepting.length > 0) {
    const n = accepting.length;
    return { status: 'ROUTED', basis: `${source}: ${n} installed ${n === 1 ? 'capability accepts' : 'capabilities accept'} ${what}; results are limited to them`, accepting, detected: phrase !== null };
  }
  const notes = [`${source}: no installed capability accepts ${what}`];
  if (kind === 'NATURAL_LANGUAGE_PROOF') notes.push('proof prose is not a formal artifact, and no installed provider declares that it reads it');
  if (args.artifact_type !== undefined) notes.push(`installed capabilities accept TYPED_ARTIFACT input of these types: ${index.byArtifactType.size > 0 ? listed(index.byArtifactType.keys()) : 'none'}`);
  notes.push('this describes the installed inputs, not the mathematics');
  return { status: 'NO_ROUTE', basis: notes.join('; '), accepting, detected: phrase !== null };
}

interface DomainFilter {
  status: DomainFilterStatus;
  basis: string;
  installed: string[] | null;
}

function domainFilter(domain: string | undefined, index: CatalogIndex): DomainFilter {
  if (domain === undefined) return { status: 'UNFILTERED', basis: 'no domain filter was given', installed: null };
  if (index.domainsAndTags.has(domain)) {
    return { status: 'MATCHED', basis: `domain ${domain} names an installed ${index.domains.includes(domain) ? 'domain' : 'tag'}`, installed: null };
  }
  const n = index.domains.length;
  return {
    status: 'UNKNOWN_DOMAIN',
    basis: `domain ${domain} names no installed domain or tag, so nothing passes it; installed_domains lists the ${n > INSTALLED_DOMAINS_MAX ? `first ${INSTALLED_DOMAINS_MAX} of ${n}` : n} installed domain(s)`,
    installed: index.domains.slice(0, INSTALLED_DOMAINS_MAX),
  };
}

function portfolio(
  args: FindArguments,
  terms: readonly string[],
  candidates: number,
  ranked: readonly { scored?: Scored }[],
): { fit: PortfolioFit; basis: string } {
  if (args.query === undefined) return { fit: 'UNFILTERED', basis: 'browse lists the capabilities that pass the filters in capability-ID order; nothing is ranked' };
  if (terms.length === 0) return { fit: 'NO_LEXICAL_MATCHES', basis: 'the query has no terms once stop words are removed' };
  if (candidates === 0) return { fit: 'NO_LEXICAL_MATCHES', basis: 'no installed capability passes the filters, so no query term was compared' };
  if (ranked.length === 0) {
    return { fit: 'NO_LEXICAL_MATCHES', basis: `none of the ${candidates} capabilities that pass the filters has a token matching a query term (${listed(terms)})` };
  }
  let strong = 0;
  let best = 0;
  for (const { scored } of ranked) {
    if (scored?.lexical_fit === 'STRONG') strong++;
    best = Math.max(best, scored?.query_coverage_milli ?? 0);
  }
  if (strong > 0) {
    return { fit: 'STRONG_CANDIDATES', basis: `${strong} of ${ranked.length} matches are STRONG: they cover at least ${STRONG_COVERAGE_MILLI}‰ of the ${terms.length} query terms and hit an ID, tag or title token` };
  }
  return {
    fit: 'ONLY_WEAK_LEXICAL_MATCHES',
    basis: `${ranked.length} matches, none STRONG: the highest coverage is ${best}‰ of the ${terms.length} query terms; STRONG needs at least ${STRONG_COVERAGE_MILLI}‰ and an ID, tag or title hit`,
  };
}

function recoveryPaths(args: FindArguments, terms: readonly string[], ranked: readonly { scored?: Scored }[], routing: Routing, domain: DomainFilter): RecoveryPath[] {
  const paths: RecoveryPath[] = [];
  if (routing.status === 'NO_ROUTE' && (routing.detected || args.input_kind === 'NATURAL_LANGUAGE_PROOF')) {
    paths.push({ kind: 'REFORMULATE', detail: 'state the claim as a formal proposition, or as the structured input or typed artifact an installed operation accepts' });
  } else if (args.query !== undefined) {
    const matched = new Set(ranked.flatMap(({ scored }) => scored?.matched_terms ?? []));
    const unmatched = terms.filter((t) => !matched.has(t));
    paths.push({
      kind: 'REFORMULATE',
      detail: `describe the outcome in other words (ID, tag and title tokens weigh most)${unmatched.length > 0 ? `; these terms matched nothing: ${listed(unmatched)}` : ''}`,
    });
  }
  if (args.domain !== undefined) {
    paths.push({ kind: 'REMOVE_FILTER', detail: `call again without domain${domain.status === 'UNKNOWN_DOMAIN' ? ', or with one of installed_domains' : ''}` });
  }
  if (args.mode !== undefined) paths.push({ kind: 'REMOVE_FILTER', detail: 'call again without mode' });
  if (args.artifact_type !== undefined) paths.push({ kind: 'REMOVE_FILTER', detail: 'call again without artifact_type, to see every operation accepting TYPED_ARTIFACT input' });
  if (args.input_kind !== undefined) paths.push({ kind: 'REMOVE_FILTER', detail: 'call again without input_kind (and artifact_type)' });
  const plainBrowse = Object.values(args).every((v) => v === undefined);
  if (!plainBrowse) paths.push({ kind: 'BROWSE', detail: 'call math.find with no arguments to list every installed operation in capability-ID order' });
  paths.push({ kind: 'READ_CATALOG', detail: 'read capability://catalog, the complete installed inventory' });
  return paths;
}

/**
 * Discovery over the policy-filtered catalog. Browse is stable ID order; search ranks by a
 * deterministic lexical score (ties by ID); inspection returns one exact projection.
 * Ranking and every signal are retrieval over descriptors, not advice about what to run.
 */
export function find(args: FindArguments, sources: FindSources): FindResponse {
  const { catalog, descriptors } = sources;
  const index = indexOf(catalog);
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
    const capability = inspect(entry, descriptor, index, view);
    // The response travels twice (structured and as text, which keeps the input schema), so
    // half the bound is the budget; examples go first, each one named as omitted.
    const examples = Array.isArray(capability['examples']) ? [...(capability['examples'] as unknown[])] : [];
    let omitted = 0;
    while (examples.length > 0 && Buffer.byteLength(JSON.stringify(capability)) > FIND_RESPONSE_MAX_BYTES / 2 - 1024) {
      examples.pop();
      omitted++;
      capability['examples'] = examples;
      capability['examples_omitted'] = omitted;
    }
    // FULL's extras go next, in this order (output_summary still lists every output field, and
    // the provider summary stays); the input schema, which a valid call needs, always stays.
    const dropped: string[] = [];
    for (const field of ['output_schema', 'provider_runtime', 'license']) {
      if (!(field in capability) || Buffer.byteLength(JSON.stringify(capability)) <= FIND_RESPONSE_MAX_BYTES / 2 - 1024) continue;
      dropped.push(`${field} (${Buffer.byteLength(JSON.stringify(capability[field]))} B)`);
      delete capability[field];
    }
    if (dropped.length > 0) {
      capability['omitted_for_size'] = dropped;
      capability['omitted_basis'] = `over the ${FIND_RESPONSE_MAX_BYTES / 1024} KiB bound; output_summary lists the output fields, provider names the provider`;
    }
    return {
      ...base,
      kind: 'INSPECT',
      total_matches: null,
      matches: [],
      capability,
      next_cursor: null,
      portfolio_fit: 'UNFILTERED',
      portfolio_fit_basis: 'exact inspection of one capability; nothing is ranked',
      domain_filter_status: 'UNFILTERED',
      domain_filter_basis: 'no domain filter was given',
      installed_domains: null,
      routing_status: 'UNCONSTRAINED',
      routing_basis: 'exact inspection; input kinds do not apply',
      recovery_paths: [],
    };
  }
  const limit = args.limit ?? 5;
  const queryTokens = args.query === undefined ? [] : tokens(args.query);
  const routing = route(args, queryTokens, index);
  const domain = domainFilter(args.domain, index);
  let candidates = routing.accepting ?? catalog.capabilities;
  if (args.domain !== undefined) candidates = candidates.filter((c) => c.domain === args.domain || c.tags.includes(args.domain as string));
  if (args.mode !== undefined) candidates = candidates.filter((c) => c.modes.includes(args.mode as Mode));
  const terms = [...new Set(queryTokens.filter((t) => !STOP_WORDS.has(t)))];
  let ranked: { entry: CatalogEntry; scored?: Scored }[];
  if (args.query === undefined) {
    ranked = candidates.map((entry) => ({ entry }));
  } else {
    ranked = candidates
      .map((entry) => score(entry, descriptors.get(entry.id) as CapabilityDescriptor, terms))
      .filter((s): s is Scored => s !== null)
      .sort((a, b) => b.score - a.score || (a.entry.id < b.entry.id ? -1 : 1))
      .map((scored) => ({ entry: scored.entry, scored }));
  }
  const fit = portfolio(args, terms, candidates.length, ranked);
  const incompatible = routing.status === 'NO_ROUTE' || domain.status === 'UNKNOWN_DOMAIN';
  const weak = fit.fit === 'ONLY_WEAK_LEXICAL_MATCHES' || fit.fit === 'NO_LEXICAL_MATCHES';
  // The filters' digest is needed only to read a cursor or to issue one.
  let filters: string | undefined;
  const filtersOf = (): string => (filters ??= filterKey(args));
  const offset = args.cursor === undefined ? 0 : decodeCursor(args.cursor, catalog.digest, filtersOf());
  const page = ranked.slice(offset, offset + limit);
  const response: FindResponse = {
    ...base,
    kind: args.query === undefined ? 'BROWSE' : 'SEARCH',
    total_matches: ranked.length,
    matches: [],
    capability: null,
    // The longest cursor this page could carry, so the size budget below holds for the real one
    // (a filter digest is always FILTER_KEY_LENGTH characters).
    next_cursor: encodeCursor({ o: ranked.length, c: catalog.digest, f: 'f'.repeat(FILTER_KEY_LENGTH) }),
    portfolio_fit: fit.fit,
    portfolio_fit_basis: fit.basis,
    domain_filter_status: domain.status,
    domain_filter_basis: domain.basis,
    installed_domains: domain.installed,
    routing_status: routing.status,
    routing_basis: routing.basis,
    recovery_paths: weak || incompatible || ranked.length === 0 ? recoveryPaths(args, terms, ranked, routing, domain) : [],
  };
  // Keep the response (and its text projection) under the size bound by paging earlier: cards
  // are added while they fit (at least one), each with its separating comma.
  const budget = FIND_RESPONSE_MAX_BYTES / 2 - 512 - Buffer.byteLength(JSON.stringify(response));
  const matches: Record<string, unknown>[] = [];
  let used = 0;
  for (const { entry, scored } of page) {
    const built = card(entry, descriptors.get(entry.id) as CapabilityDescriptor, index, scored);
    if (matches.length > 0 && used + built.bytes + 1 > budget) break;
    matches.push(built.card);
    used += built.bytes + 1;
  }
  const next = offset + matches.length;
  response.matches = matches;
  response.next_cursor = next < ranked.length ? encodeCursor({ o: next, c: catalog.digest, f: filtersOf() }) : null;
  return response;
}

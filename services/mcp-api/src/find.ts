import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  InputKind,
  INVOCATION_EXAMPLES_MAX,
  JacobianError,
  Mode,
  type Catalog,
  type CatalogEntry,
  type CapabilityDescriptor,
  type Diagnostic,
} from '@jacobian/shared';
import { FIND_ANSWER_MAX_BYTES, FIND_RESPONSE_MAX_BYTES, findAnswerBytes, matchLineBytes, projectFind } from './projection.js';

export { FIND_ANSWER_MAX_BYTES, FIND_RESPONSE_MAX_BYTES };
/** A card carries the descriptor's first invocation example only when it is at most this large (as JSON). */
const CARD_EXAMPLE_MAX_BYTES = 256;
/** A card's scope rule is cut to this many characters (SUMMARY has it whole). */
const CARD_SCOPE_MAX_CHARS = 56;
/** A card names at most this many output fields. */
const CARD_OUTPUTS_MAX = 2;
/** At most this many related capability IDs per card; inspection lists up to RELATIONSHIPS_MAX. */
const CARD_RELATIONSHIPS_MAX = 2;

export const FindView = { SUMMARY: 'SUMMARY', CONTRACT: 'CONTRACT', FULL: 'FULL' } as const;
export type FindView = (typeof FindView)[keyof typeof FindView];

export const FindArgumentsSchema = z
  .object({
    query: z.string().min(1).max(500).optional().describe('words describing the outcome you want; omit to browse in ID order'),
    capability_id: z.string().min(1).max(128).optional().describe('exact capability ID to inspect'),
    view: z.enum(FindView).optional().describe('inspection detail: SUMMARY (default), CONTRACT (full input schema, examples), FULL'),
    example_index: z
      .number()
      .int()
      .min(0)
      .max(INVOCATION_EXAMPLES_MAX - 1)
      .optional()
      .describe('with capability_id: return that descriptor-owned invocation example (0-based) whole; examples_available says how many exist'),
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
      if (args.example_index !== undefined && args.view !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['view'], message: 'view cannot be combined with example_index (example_index returns one example whole)' });
      }
    } else {
      if (args.view !== undefined) ctx.addIssue({ code: 'custom', path: ['view'], message: 'view applies only to inspection by capability_id' });
      if (args.example_index !== undefined) ctx.addIssue({ code: 'custom', path: ['example_index'], message: 'example_index applies only to inspection by capability_id' });
      if (args.artifact_type !== undefined && args.input_kind !== 'TYPED_ARTIFACT') {
        ctx.addIssue({ code: 'custom', path: ['artifact_type'], message: 'artifact_type applies only with input_kind TYPED_ARTIFACT' });
      }
    }
  });
export type FindArguments = z.infer<typeof FindArgumentsSchema>;

export interface FindSources {
  catalog: Catalog;
  descriptors: ReadonlyMap<string, CapabilityDescriptor>;
  /** Providers still being checked at start-up, by name (see {@link PendingProviderNote}). */
  pending?: readonly string[];
}

/**
 * A provider whose start-up health check is still running: its capabilities are not in the
 * catalog this answer was computed from, and join it when the check passes (never if it fails).
 */
export interface PendingProviderNote {
  provider: string;
  detail: string;
}

/** The notes of the providers still being checked. */
export function pendingProviderNotes(pending: readonly string[] | undefined): PendingProviderNote[] {
  return (pending ?? []).map((provider) => ({
    provider,
    detail: `provider ${provider} is still being checked (its start-up health check): its capabilities are not listed here, and will be once the check passes (if it fails, they are never offered); a math.run of one of them waits for the check`,
  }));
}

/** Raw query tokens, lower-cased and split at anything but letters and digits (routing reads these). */
function tokens(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

const TRANSLITERATED: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

/**
 * Text folded for matching: compatibility forms composed, lower case, German umlauts and ß
 * written out (Gröbner → groebner, the spelling IDs use), every other accent dropped (é → e).
 */
function fold(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[äöüß]/g, (c) => TRANSLITERATED[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** Plurals the suffix rules below would get wrong. */
const IRREGULAR: Readonly<Record<string, string>> = {
  vertices: 'vertex',
  matrices: 'matrix',
  indices: 'index',
  bases: 'basis',
  radii: 'radius',
  automata: 'automaton',
  lemmata: 'lemma',
  polyhedra: 'polyhedron',
  hypotheses: 'hypothesis',
};

/**
 * A light, deterministic stem, applied alike to query terms and descriptor tokens: plural to
 * singular (trees, vertices, matches), -ivity to -ive (associativity, commutativity), then -ing
 * and -ed with a doubled final consonant undone (colouring, labelling, embedded). It only has to
 * send the forms of one word to one key; the key need not be a word.
 */
export function stem(token: string): string {
  const irregular = IRREGULAR[token];
  if (irregular !== undefined) return irregular;
  if (token.length <= 3 || /\d/.test(token)) return token;
  let s = token;
  if (s.endsWith('ivity')) s = `${s.slice(0, -5)}ive`;
  else if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (/(?:ss|x|ch|sh|z)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(?:ss|us|is)$/.test(s)) s = s.slice(0, -1);
  if (s.endsWith('ing') && s.length >= 7) s = undouble(s.slice(0, -3));
  else if (s.endsWith('ed') && s.length >= 6) s = undouble(s.slice(0, -2));
  return s;
}

function undouble(s: string): string {
  return /([b-df-hj-np-rtv-z])\1$/.test(s) && !s.endsWith('ss') ? s.slice(0, -1) : s;
}

/**
 * A descriptor text's match keys: the stem of every token, plus, for words joined by hyphens or
 * underscores, the stem of the parts written together (counter-model also gives countermodel,
 * groebner_basis also groebnerbasis).
 */
function indexKeys(text: string): string[] {
  const keys: string[] = [];
  for (const word of fold(text).split(/[^\p{L}\p{N}_-]+/u)) {
    const parts = word.split(/[_-]+/).filter((p) => p.length > 0);
    for (const part of parts) keys.push(stem(part));
    if (parts.length > 1) keys.push(stem(parts.join('')));
  }
  return keys;
}

/** Words that say nothing about which outcome is wanted. */
const STOP_WORDS = new Set(
  (
    'a an the of to in for and or with on by is it its from find compute get does do not no what which how i me my we our you be are was ' +
    'can all this that these those as at if some any given using use want need show whether there than then into via per please'
  ).split(' '),
);

/** Query terms: distinct stems of the query's tokens, minus stop words and single Latin letters or digits, each with the word it came from. */
function queryTerms(queryTokens: readonly string[]): { word: string; key: string }[] {
  const terms = new Map<string, string>();
  for (const token of queryTokens) {
    if (STOP_WORDS.has(token) || /^[a-z0-9]$/.test(token)) continue;
    const key = stem(token);
    if (!terms.has(key)) terms.set(key, token);
  }
  return [...terms].map(([key, word]) => ({ word, key }));
}

/** Field weights: an ID, tag or keyword hit says more about fit than a word somewhere in a description. */
const FIELD_WEIGHTS = { id: 4, tags: 3, keywords: 3, title: 3, description: 1 } as const;
type Field = keyof typeof FIELD_WEIGHTS;

/** Per-match lexical fit: STRONG needs half the query's terms and an ID, tag, keyword or title hit. */
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

/** Each catalog entry's match keys per field, computed once per entry object (a catalog is immutable). */
const fieldTokens = new WeakMap<CatalogEntry, Record<Field, Set<string>>>();

function fieldsOf(entry: CatalogEntry, descriptor: CapabilityDescriptor): Record<Field, Set<string>> {
  let fields = fieldTokens.get(entry);
  if (fields === undefined) {
    fields = {
      id: new Set(indexKeys(entry.id)),
      tags: new Set(entry.tags.flatMap(indexKeys)),
      keywords: new Set(descriptor.keywords.flatMap(indexKeys)),
      title: new Set(indexKeys(entry.title)),
      description: new Set(indexKeys(descriptor.description)),
    };
    fieldTokens.set(entry, fields);
  }
  return fields;
}

/** The shortest term that also matches the start of a longer key (isomorph → isomorphism). */
const PREFIX_MIN_LENGTH = 5;

/** Whether the term is the start of some key of the set. */
function prefixHit(set: ReadonlySet<string>, term: string): boolean {
  for (const key of set) {
    if (key.startsWith(term)) return true;
  }
  return false;
}

const FIELDS = Object.keys(FIELD_WEIGHTS) as Field[];
/** Bits of a remembered match that hold the matched fields (one per field, in FIELDS order). */
const FIELD_BITS = 1 << FIELDS.length;

/**
 * How one term matches one entry, remembered per entry (queries reuse a small vocabulary, and
 * the prefix scan over a description is most of a search's cost): the best field weight times
 * FIELD_BITS plus a bit per matched field, in FIELDS order. Bounded per entry; cleared when full.
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
    if (set.has(term) || (term.length >= PREFIX_MIN_LENGTH && prefixHit(set, term))) {
      mask |= 1 << bit;
      best = Math.max(best, FIELD_WEIGHTS[field]);
    }
  }
  if (remembered.size >= MAX_REMEMBERED_TERMS) remembered.clear();
  const match = best * FIELD_BITS + mask;
  remembered.set(term, match);
  return match;
}

/** An entry's fit to the query terms, or null when no term matches it (most entries, most queries). */
function score(entry: CatalogEntry, descriptor: CapabilityDescriptor, terms: readonly { word: string; key: string }[]): Scored | null {
  let total = 0;
  let matchedMask = 0;
  const matches = terms.map((term) => termMatch(entry, descriptor, term.key));
  for (const match of matches) total += Math.floor(match / FIELD_BITS);
  if (total === 0) return null;
  const matchedTerms: string[] = [];
  // Whether some term hit an ID, tag, keyword or title token (weight 3 or more), not only the description.
  let namingHit = false;
  for (const [i, match] of matches.entries()) {
    const best = Math.floor(match / FIELD_BITS);
    matchedMask |= match % FIELD_BITS;
    if (best > 0) matchedTerms.push((terms[i] as { word: string }).word);
    if (best >= FIELD_WEIGHTS.title) namingHit = true;
  }
  const coverage = terms.length === 0 ? 0 : Math.floor((1000 * matchedTerms.length) / terms.length);
  return {
    entry,
    score: total,
    // FIELDS is in the order matched_on lists fields: id, tags, keywords, title, description.
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

/** Hex digits of the catalog digest a cursor carries (64 bits: it tells catalogs apart, it proves nothing). */
const CURSOR_CATALOG_HEX = 16;

/** A cursor as sent: `<offset>.<catalog digest prefix>.<filter digest>`, short because it is sent twice per page. */
function encodeCursor(state: CursorState): string {
  return `${state.o}.${state.c.replace(/^sha256:/, '').slice(0, CURSOR_CATALOG_HEX)}.${state.f}`;
}

function decodeCursor(cursor: string, catalogDigest: string, filters: string): number {
  const match = /^(0|[1-9][0-9]{0,8})\.([0-9a-f]+)\.([A-Za-z0-9_-]+)$/.exec(cursor);
  if (match === null) throw new JacobianError('INVALID_REQUEST', 'cursor: not a cursor returned by math.find', { path: ['cursor'] });
  const [, offset, catalog, filter] = match as unknown as [string, string, string, string];
  if (catalog !== catalogDigest.replace(/^sha256:/, '').slice(0, CURSOR_CATALOG_HEX)) {
    throw new JacobianError('INVALID_REQUEST', 'cursor: the catalog changed since this cursor was issued; start again without a cursor', {
      path: ['cursor'],
      data: { catalog_digest: catalogDigest },
    });
  }
  if (filter !== filters) {
    throw new JacobianError('INVALID_REQUEST', 'cursor: pass the same query, domain, mode, input_kind, artifact_type and limit as the call that returned it', {
      path: ['cursor'],
    });
  }
  return Number(offset);
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
function related(entry: CatalogEntry, descriptor: CapabilityDescriptor, index: CatalogIndex): { kind: string; capability_id: string; artifact_type?: string }[] {
  const relationships: { kind: string; capability_id: string; artifact_type?: string }[] = descriptor.relationships.filter((r) => index.ids.has(r.capability_id)).map((r) => ({ ...r }));
  const seen = new Set([entry.id, ...relationships.map((r) => r.capability_id)]);
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
  return relationships;
}

/** Relationships as inspection shows them: at most RELATIONSHIPS_MAX, the rest counted. */
function installedRelationships(entry: CatalogEntry, descriptor: CapabilityDescriptor, index: CatalogIndex): Record<string, unknown> {
  const relationships = related(entry, descriptor, index);
  const omitted = relationships.length - RELATIONSHIPS_MAX;
  return { relationships: relationships.slice(0, RELATIONSHIPS_MAX), ...(omitted > 0 ? { relationships_omitted: omitted } : {}) };
}

/**
 * The card's example: the descriptor's first invocation example within CARD_EXAMPLE_MAX_BYTES,
 * with its index (the others are reachable whole by `example_index`).
 */
function cardExample(descriptor: CapabilityDescriptor): Record<string, unknown> | null {
  for (const [i, example] of descriptor.examples.entries()) {
    if (Buffer.byteLength(JSON.stringify(example)) <= CARD_EXAMPLE_MAX_BYTES) return { index: i, ...example };
  }
  return null;
}

/**
 * A card in its three forms: with its example (`full`), with the input fields instead (`lean`),
 * and with neither (`bare`). A card whose descriptor has no example is never bare (its input
 * fields are then the only way to a call); a bare card's `examples` counts the examples that
 * `example_index` returns whole.
 */
interface CardForms {
  full: Record<string, unknown>;
  fullBytes: number;
  lean: Record<string, unknown>;
  leanBytes: number;
  bare: Record<string, unknown>;
  bareBytes: number;
}

/** Which form of a card a page sends. */
const CardForm = { BARE: 0, LEAN: 1, FULL: 2 } as const;
type CardForm = (typeof CardForm)[keyof typeof CardForm];

/**
 * Each entry's card without search signals, built once per entry object. A catalog is
 * immutable and its entries are its own objects, so an entry also fixes the catalog the
 * card's relationships are computed against.
 */
const baseCards = new WeakMap<CatalogEntry, CardForms>();

function cardForms(entry: CatalogEntry, descriptor: CapabilityDescriptor, index: CatalogIndex): CardForms {
  let forms = baseCards.get(entry);
  if (forms === undefined) {
    const { card: built, example } = baseCard(entry, descriptor, index);
    const lean = { ...built, inputs: cardInputs(entry) };
    const full = example === null ? lean : { ...built, example };
    const bare = descriptor.examples.length === 0 ? lean : built;
    const bytes = (card: Record<string, unknown>): number => Buffer.byteLength(JSON.stringify(card));
    forms = { full, fullBytes: bytes(full), lean, leanBytes: bytes(lean), bare, bareBytes: bytes(bare) };
    baseCards.set(entry, forms);
  }
  return forms;
}

/** One match of a page: its card forms and the search signals, if it was searched. */
interface PageCard {
  forms: CardForms;
  signals: Record<string, unknown> | null;
  /** Bytes the signals add to either form (`{a}` and `{b}` merged serialize as `{a,b}`, one byte less than both). */
  signalBytes: number;
}

function pageCard(entry: CatalogEntry, descriptor: CapabilityDescriptor, index: CatalogIndex, scored?: Scored): PageCard {
  const forms = cardForms(entry, descriptor, index);
  if (scored === undefined) return { forms, signals: null, signalBytes: 0 };
  // matched_on as one comma-separated string; matched_terms only when some query term did not
  // match (the response's query_terms lists them all, once): twenty search cards fit a page.
  const signals = {
    matched_on: scored.matched_on.join(','),
    ...(scored.query_coverage_milli < 1000 ? { matched_terms: scored.matched_terms } : {}),
    relevance_score: scored.score,
    query_coverage_milli: scored.query_coverage_milli,
    lexical_fit: scored.lexical_fit,
  };
  return { forms, signals, signalBytes: Buffer.byteLength(JSON.stringify(signals)) - 1 };
}

/** The card as sent, in the given form. */
function cardOf(page: PageCard, form: CardForm): Record<string, unknown> {
  // Object.assign, not spreads: cards differ in shape from entry to entry, and a spread into an
  // object literal is several times slower on such sources (the search's largest cost).
  const base = form === CardForm.FULL ? page.forms.full : form === CardForm.LEAN ? page.forms.lean : page.forms.bare;
  return page.signals === null ? Object.assign({}, base) : Object.assign({}, base, page.signals);
}

function providerOf(entry: CatalogEntry, descriptor: CapabilityDescriptor): Record<string, string> {
  return { name: entry.provider.name, version: entry.provider.version, availability: descriptor.provider_runtime.availability };
}

/** A card's output-schema summary: the output fields' names, the first CARD_OUTPUTS_MAX of them and how many more. */
function cardOutputs(descriptor: CapabilityDescriptor): string[] {
  const names = Object.keys(outputSummary(descriptor));
  return names.length <= CARD_OUTPUTS_MAX ? names : [...names.slice(0, CARD_OUTPUTS_MAX), `(+${names.length - CARD_OUTPUTS_MAX} more)`];
}

/**
 * A card's input fields, beside `outputs`: the input schema's top-level fields as one sorted
 * list, the required ones marked with a trailing `*` (inspection's input_fields has them
 * as two lists, required and available).
 */
function cardInputs(entry: CatalogEntry): string[] {
  const required = new Set(entry.input_fields.required);
  return entry.input_fields.available.map((name) => (required.has(name) ? `${name}*` : name));
}

/** Relationships as a card shows them: related capability IDs by kind, at most CARD_RELATIONSHIPS_MAX. */
function cardRelationships(entry: CatalogEntry, descriptor: CapabilityDescriptor, index: CatalogIndex): Record<string, unknown> {
  const all = related(entry, descriptor, index);
  const byKind: Record<string, string[]> = {};
  for (const relationship of all.slice(0, CARD_RELATIONSHIPS_MAX)) (byKind[relationship.kind] ??= []).push(relationship.capability_id);
  const omitted = all.length - CARD_RELATIONSHIPS_MAX;
  return { ...(all.length > 0 ? { related: byKind } : {}), ...(omitted > 0 ? { related_omitted: omitted } : {}) };
}

function baseCard(entry: CatalogEntry, descriptor: CapabilityDescriptor, index: CatalogIndex): { card: Record<string, unknown>; example: Record<string, unknown> | null } {
  const scope = descriptor.scope_rule.length <= CARD_SCOPE_MAX_CHARS ? descriptor.scope_rule : `${descriptor.scope_rule.slice(0, CARD_SCOPE_MAX_CHARS - 1)}…`;
  // Short names, empty lists left out (absent means none), produced types left to inspection (the
  // related OUTPUT_ACCEPTED_BY operations follow from them): twenty cards fit a page.
  const card: Record<string, unknown> = {
    capability_id: entry.id,
    title: entry.title,
    modes: entry.modes,
    input_kinds: entry.input_kinds,
    ...(entry.accepted_artifact_types.length > 0 ? { accepts: entry.accepted_artifact_types } : {}),
    outputs: cardOutputs(descriptor),
    // Every installed provider is AVAILABLE (the catalog holds no other), so the card names the
    // provider only; inspection's provider has the availability field.
    provider: entry.provider.name,
    scope,
    assurance_ceiling: entry.assurance_ceiling,
    ...cardRelationships(entry, descriptor, index),
    examples: descriptor.examples.length,
  };
  return { card, example: cardExample(descriptor) };
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
    // A copy: fitting the answer to the bound takes examples off this list.
    examples: [...descriptor.examples],
    examples_inline: descriptor.examples.map((_, i) => i),
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

/** One descriptor-owned invocation example, whole, with the call that runs it. */
function inspectExample(entry: CatalogEntry, descriptor: CapabilityDescriptor, exampleIndex: number): Record<string, unknown> {
  const example = descriptor.examples[exampleIndex];
  if (example === undefined) {
    const n = descriptor.examples.length;
    throw new JacobianError('INVALID_REQUEST', `example_index: ${entry.id} has ${n === 0 ? 'no invocation examples' : `${n} invocation example(s), indices 0 to ${n - 1}`}`, {
      path: ['example_index'],
      hint: n === 0 ? 'inspect it with view CONTRACT for its complete input schema' : `pass an example_index from 0 to ${n - 1}`,
    });
  }
  return {
    capability_id: entry.id,
    version: entry.version,
    title: entry.title,
    examples_available: descriptor.examples.length,
    example_index: exampleIndex,
    example,
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
  /**
   * A search's terms (the query's distinct words once stop words are removed, folded), listed
   * once: a card names its matched_terms only when it did not match all of them. Null otherwise.
   */
  query_terms: string[] | null;
  total_matches: number | null;
  matches: Record<string, unknown>[];
  capability: Record<string, unknown> | null;
  next_cursor: string | null;
  /** Providers still being checked at start-up; empty once every provider has been checked. */
  pending_providers: PendingProviderNote[];
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
export function rejectedFindResponse(catalog: Catalog, kind: FindResponse['kind'], diagnostics: Diagnostic[], pending?: readonly string[]): FindResponse {
  return {
    catalog_digest: catalog.digest,
    policy_digest: catalog.policy_digest,
    policy_profile: catalog.policy_profile,
    kind,
    query_terms: null,
    total_matches: null,
    matches: [],
    capability: null,
    next_cursor: null,
    ...REJECTED_SIGNALS,
    recovery_paths: [],
    pending_providers: pendingProviderNotes(pending),
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
    return { status: 'UNCONSTRAINED', basis: 'no input_kind given, no proof prose named: input kinds restrict nothing', accepting: null, detected: false };
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
  if (args.query === undefined) return { fit: 'UNFILTERED', basis: 'browse: capability-ID order, nothing ranked' };
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
    return { fit: 'STRONG_CANDIDATES', basis: `${strong} of ${ranked.length} matches are STRONG: they cover at least ${STRONG_COVERAGE_MILLI}‰ of the ${terms.length} query terms and hit an ID, tag, keyword or title token` };
  }
  return {
    fit: 'ONLY_WEAK_LEXICAL_MATCHES',
    basis: `${ranked.length} matches, none STRONG: the highest coverage is ${best}‰ of the ${terms.length} query terms; STRONG needs at least ${STRONG_COVERAGE_MILLI}‰ and an ID, tag, keyword or title hit`,
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
      detail: `describe the outcome in other words (ID, tag, keyword and title tokens weigh most)${unmatched.length > 0 ? `; these terms matched nothing: ${listed(unmatched)}` : ''}`,
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
    pending_providers: pendingProviderNotes(sources.pending),
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
    const capability = args.example_index !== undefined ? inspectExample(entry, descriptor, args.example_index) : inspect(entry, descriptor, index, args.view ?? 'SUMMARY');
    const response: FindResponse = {
      ...base,
      kind: 'INSPECT',
      query_terms: null,
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
    fitInspection(response, capability);
    return response;
  }
  const limit = args.limit ?? 5;
  const queryTokens = args.query === undefined ? [] : tokens(args.query);
  const routing = route(args, queryTokens, index);
  const domain = domainFilter(args.domain, index);
  let candidates = routing.accepting ?? catalog.capabilities;
  if (args.domain !== undefined) candidates = candidates.filter((c) => c.domain === args.domain || c.tags.includes(args.domain as string));
  if (args.mode !== undefined) candidates = candidates.filter((c) => c.modes.includes(args.mode as Mode));
  const termKeys = queryTerms(queryTokens);
  const terms = termKeys.map((t) => t.word);
  let ranked: { entry: CatalogEntry; scored?: Scored }[];
  if (args.query === undefined) {
    ranked = candidates.map((entry) => ({ entry }));
  } else {
    ranked = candidates
      .map((entry) => score(entry, descriptors.get(entry.id) as CapabilityDescriptor, termKeys))
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
    query_terms: args.query === undefined ? null : terms,
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
  response.matches = fitPage(response, page.map(({ entry, scored }) => pageCard(entry, descriptors.get(entry.id) as CapabilityDescriptor, index, scored)));
  const next = offset + response.matches.length;
  response.next_cursor = next < ranked.length ? encodeCursor({ o: next, c: catalog.digest, f: filtersOf() }) : null;
  return response;
}

/** The size of the tool result this response is sent as, its text projection unclipped. */
const answerBytes = (response: FindResponse): number => findAnswerBytes(response, projectFind(response, { clip: false }));

/**
 * The page's cards: as many of `page` as fit the bound (at least one) in their bare form, then,
 * while there is room, in page order, each with its input fields, then each with its example
 * in their place. Each card's cost is measured as sent: its JSON in the structured content plus
 * its lines of the text content (JSON-escaped: its own line, and the signal line of the run of
 * equal signals it starts, if it starts one), plus one byte.
 *
 * The sum is an upper bound of what the cards add to the measured empty page, so the answer is
 * not measured again (that was most of a search's cost): each text line's escaped newline is
 * paid by its two quotes, and the n spare bytes pay the array's n - 1 separators and the count
 * line's one or two digits replacing "0"; the empty page already carries the longest cursor.
 */
function fitPage(response: FindResponse, page: PageCard[]): Record<string, unknown>[] {
  if (page.length === 0) return [];
  const room = FIND_ANSWER_MAX_BYTES - answerBytes(response);
  // The text lines do not depend on the card's form: measured once. A match that starts a run of
  // equal signals carries the run's signal line, so the page is a prefix of `page` and each
  // match's cost is exact.
  const lineBytes = matchLineBytes(page.map((p) => cardOf(p, CardForm.BARE)));
  let used = 0;
  let count = 0;
  for (const [i, p] of page.entries()) {
    const cost = p.forms.bareBytes + p.signalBytes + (lineBytes[i] as number);
    if (count > 0 && used + cost > room) break;
    used += cost;
    count++;
  }
  const shown = page.slice(0, count);
  const forms: CardForm[] = shown.map(() => CardForm.BARE);
  const bytesOf = (p: PageCard, form: CardForm): number => (form === CardForm.FULL ? p.forms.fullBytes : form === CardForm.LEAN ? p.forms.leanBytes : p.forms.bareBytes);
  // Input fields for every card first, then examples, each in page order while there is room.
  for (const target of [CardForm.LEAN, CardForm.FULL]) {
    for (const [i, p] of shown.entries()) {
      const form = forms[i] as CardForm;
      // A card without an example (or whose examples are all too large) has nothing to gain.
      const gains = target === CardForm.LEAN ? p.forms.lean !== p.forms.bare && form === CardForm.BARE : p.forms.full !== p.forms.lean;
      const extra = bytesOf(p, target) - bytesOf(p, form);
      if (gains && used + extra <= room) {
        used += extra;
        forms[i] = target;
      }
    }
  }
  response.matches = shown.map((p, i) => cardOf(p, forms[i] as CardForm));
  return response.matches;
}

/**
 * Keep an inspection under the bound: inline examples go first, from the last (each stays
 * reachable whole by example_index, and examples_inline says which are shown), then FULL's
 * extras in this order (output_summary still lists every output field, and the provider summary
 * stays). The input schema, which a valid call needs, always stays, in the text too.
 */
function fitInspection(response: FindResponse, capability: Record<string, unknown>): void {
  const examples = capability['examples'];
  const inline = capability['examples_inline'];
  if (Array.isArray(examples) && Array.isArray(inline)) {
    while (examples.length > 0 && answerBytes(response) > FIND_ANSWER_MAX_BYTES) {
      examples.pop();
      inline.pop();
    }
  }
  const dropped: string[] = [];
  for (const field of ['output_schema', 'provider_runtime', 'license']) {
    if (!(field in capability) || answerBytes(response) <= FIND_ANSWER_MAX_BYTES) continue;
    dropped.push(`${field} (${Buffer.byteLength(JSON.stringify(capability[field]))} B)`);
    delete capability[field];
  }
  if (dropped.length > 0) {
    capability['omitted_for_size'] = dropped;
    capability['omitted_basis'] = `over the ${FIND_RESPONSE_MAX_BYTES / 1024} KiB bound; output_summary lists the output fields, provider names the provider`;
  }
}

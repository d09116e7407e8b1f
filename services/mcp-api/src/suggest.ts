/**
 * The installed capability IDs nearest to one that is not installed, for the UNKNOWN_CAPABILITY
 * diagnostic: an agent that guessed `graph.clique.max` or `groebner_basis.compute` is shown the
 * IDs it most likely meant. Candidates are the catalog after operator policy, so a hidden
 * capability is never named.
 */
import { editDistance, JacobianError } from '@jacobian/shared';

/** At most this many suggestions. */
export const MAX_SUGGESTIONS = 3;
/** A candidate needs at least this score (0…1) to be suggested. */
const MIN_SCORE = 0.34;

/** The words of an ID: split at dots, underscores, dashes and case changes, lower-cased. */
function words(id: string): string[] {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Whether two words are the same word, allowing an abbreviation (`max`, `maximum`) or a typo. */
function wordsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length >= 3 && b.length >= 3 && (a.startsWith(b) || b.startsWith(a))) return true;
  return Math.min(a.length, b.length) >= 4 && editDistance(a, b) <= 1;
}

/**
 * How near `wanted` is to `candidate`: the larger of the share of words in common (each word
 * of either ID matched at most once, abbreviations and one-letter typos counted) and the
 * edit-distance similarity of the whole IDs.
 */
export function idSimilarity(wanted: string, candidate: string): number {
  const a = words(wanted);
  const b = words(candidate);
  const unused = [...b];
  let common = 0;
  for (const word of a) {
    const index = unused.findIndex((other) => wordsMatch(word, other));
    if (index !== -1) {
      common++;
      unused.splice(index, 1);
    }
  }
  const overlap = a.length + b.length === 0 ? 0 : (2 * common) / (a.length + b.length);
  const x = wanted.toLowerCase();
  const y = candidate.toLowerCase();
  const spelling = 1 - editDistance(x, y) / Math.max(x.length, y.length, 1);
  return Math.max(overlap, spelling);
}

/** Up to {@link MAX_SUGGESTIONS} of `candidates` nearest to `wanted`, nearest first (ties by ID). */
export function nearestCapabilityIds(wanted: string, candidates: readonly string[]): string[] {
  return candidates
    .map((id) => ({ id, score: idSimilarity(wanted, id) }))
    .filter((entry) => entry.score >= MIN_SCORE)
    .sort((p, q) => q.score - p.score || (p.id < q.id ? -1 : p.id > q.id ? 1 : 0))
    .slice(0, MAX_SUGGESTIONS)
    .map((entry) => entry.id);
}

/**
 * The UNKNOWN_CAPABILITY error for `wanted`, naming the nearest of `visible` (the catalog's IDs
 * after policy) in its message and hint.
 */
export function unknownCapability(wanted: string, visible: readonly string[]): JacobianError {
  const near = nearestCapabilityIds(wanted, visible);
  const named = near.map((id) => `"${id}"`).join(', ');
  return new JacobianError('UNKNOWN_CAPABILITY', `capability_id: ${wanted} is not an installed capability${near.length === 0 ? '' : `; nearest installed: ${named}`}`, {
    path: ['capability_id'],
    hint: near.length === 0 ? 'use math.find to discover installed capability IDs' : `did you mean ${named}? math.find with a query lists the installed capability IDs`,
  });
}

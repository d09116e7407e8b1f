/**
 * Inputs that take one of a few combinations of fields (a stored proof alone, or an inline proof
 * with one CNF…): one refinement that checks the combination and, when it is not accepted,
 * says what was given and lists every accepted combination, so that the caller can pick one.
 */
import type { z } from 'zod';

/** One accepted combination: the fields given together, and an optional word on when to use it. */
export interface FieldCombination {
  fields: readonly string[];
  note?: string;
}

function describe(combination: FieldCombination): string {
  const fields = combination.fields.length === 1 ? `${combination.fields[0] ?? ''} alone` : combination.fields.join(' + ');
  return combination.note === undefined ? fields : `${fields} (${combination.note})`;
}

/**
 * The message for `given` when it is not one of `combinations`, or undefined when it is.
 *
 * @example
 * combinationProblem(['proof_uri', 'cnf_uri'], [{ fields: ['proof_uri'] }, { fields: ['drat', 'dimacs'] }])
 * // 'given proof_uri + cnf_uri, which is not an accepted combination; accepted: proof_uri alone; drat + dimacs'
 */
export function combinationProblem(given: readonly string[], combinations: readonly FieldCombination[]): string | undefined {
  const same = (fields: readonly string[]): boolean => fields.length === given.length && fields.every((field) => given.includes(field));
  if (combinations.some((combination) => same(combination.fields))) return undefined;
  const fields = [...new Set(combinations.flatMap((combination) => combination.fields))];
  const stated = given.length === 0 ? `none of ${fields.join(', ')} given` : `given ${given.join(' + ')}, which is not an accepted combination`;
  return `${stated}; accepted: ${combinations.map(describe).join('; ')}`;
}

/**
 * A zod refinement accepting exactly the given combinations of the fields they name (a field
 * counts as given when it is not undefined; fields no combination names are not looked at).
 * The issue's path is the first field given beyond an accepted combination, or the object.
 */
export function refineCombinations(combinations: readonly FieldCombination[]): (input: Readonly<Record<string, unknown>>, ctx: z.RefinementCtx) => void {
  const fields = [...new Set(combinations.flatMap((combination) => combination.fields))];
  return (input, ctx) => {
    const given = fields.filter((field) => input[field] !== undefined);
    const problem = combinationProblem(given, combinations);
    if (problem === undefined) return;
    const within = combinations.find((combination) => combination.fields.every((field) => given.includes(field)));
    const extra = within === undefined ? undefined : given.find((field) => !within.fields.includes(field));
    ctx.addIssue({ code: 'custom', path: extra === undefined ? [] : [extra], message: problem });
  };
}

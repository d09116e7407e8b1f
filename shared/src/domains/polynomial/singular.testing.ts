/**
 * Test support only (never imported by product code): run Singular, the peer computer algebra
 * system, on Groebner basis problems, and read its answers back with our own grammar. Tests
 * compare our bases and verdicts with these as independent truth.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Polynomial, PolynomialRing } from './polynomial.js';
import { printPolynomial } from './canonical.js';
import { parsePolynomial } from './syntax.js';

const SINGULAR_PATHS = ['/usr/bin/Singular', '/usr/local/bin/Singular'];

/** The Singular executable, or null with the reason to show when a test is skipped. */
export function findSingular(): { path: string } | { path: null; reason: string } {
  const path = SINGULAR_PATHS.find((p) => existsSync(p));
  return path === undefined ? { path: null, reason: 'Singular is not installed (apt-get install -y singular)' } : { path };
}

const SINGULAR_ORDER = { lex: 'lp', grlex: 'Dp', grevlex: 'dp' } as const;

/** One problem: a ring and generators (polynomials of that ring). */
export interface SingularJob<C> {
  readonly ring: PolynomialRing<C>;
  readonly generators: readonly Polynomial<C>[];
}

/**
 * The reduced Groebner bases Singular's `std` (with option redSB) computes for each job, in one
 * Singular process, each made monic and sorted by increasing leading monomial (Singular clears
 * denominators over Q instead of making elements monic).
 */
export function singularReducedBases<C>(jobs: readonly SingularJob<C>[], timeoutMs = 60_000): Polynomial<C>[][] {
  const found = findSingular();
  if (found.path === null) throw new Error(found.reason);
  const lines: string[] = ['option(redSB);', 'option(redTail);', 'int k;'];
  jobs.forEach((job, index) => {
    const R = job.ring;
    const characteristic = R.field.characteristic.toString();
    lines.push(`ring r${index} = ${characteristic}, (${R.variables.join(',')}), ${SINGULAR_ORDER[R.order]}; short = 0;`);
    const generators = job.generators.length === 0 ? ['0'] : job.generators.map((g) => printPolynomial(R, g));
    lines.push(`ideal i${index} = ${generators.join(',\n  ')};`);
    lines.push(`ideal g${index} = std(i${index});`);
    lines.push(`"=== begin ${index}"; for (k = 1; k <= ncols(g${index}); k++) { if (g${index}[k] != 0) { string(g${index}[k]); } } "=== end ${index}";`);
  });
  lines.push('quit;');
  const run = spawnSync(found.path, ['-q', '--no-rc', '--no-warn'], { input: lines.join('\n'), encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`Singular failed (status ${run.status}, signal ${run.signal}): ${run.stderr.slice(0, 500)}`);
  const out = run.stdout.split('\n').map((line) => line.trim());
  return jobs.map((job, index) => {
    const begin = out.indexOf(`=== begin ${index}`);
    const end = out.indexOf(`=== end ${index}`);
    if (begin < 0 || end < begin) throw new Error(`Singular printed no basis for job ${index}: ${run.stdout.slice(0, 500)}`);
    const R = job.ring;
    return out
      .slice(begin + 1, end)
      .filter((line) => line !== '')
      .map((line) => R.monic(parsePolynomial(R, line)))
      .sort((a, b) => R.compare(R.leadingTerm(a).monomial, R.leadingTerm(b).monomial));
  });
}

/**
 * PARI/GP (Debian package `pari-gp`) as a native provider of exact linear algebra and number
 * theory: found on disk, identified by the bytes that run (the `gp` executable, and any libpari it
 * loads), its release read, and proved healthy on matrices with known determinants, ranks, normal
 * forms and polynomials, and on known factorizations, primes, class numbers, a conductor and an
 * ECPP certificate, before any capability registers with it (fail closed, like Singular).
 *
 * Nothing a client sends reaches gp as text. A script is built from a canonical stored matrix
 * whose every entry is checked again here against the number grammar (an integer or a fraction
 * of integers; the characteristic a positive integer), integers and polynomials re-printed by
 * {@link gpInteger} / {@link gpPolynomial}, and constant text of our own. gp prints
 * its answers between our markers, one row of space-separated numbers per line; anything else on
 * stdout, and anything on stderr (where gp reports errors, then goes on), is a PROVIDER_FAILED.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { JacobianError, platformTag, ProviderRuntimeSchema, toAppError, type MatrixPayload, type ProviderProbe, type ProviderRuntime } from '@jacobian/shared';
import { ensureHealthy, type HealthCache } from './health-cache.js';
import { checkExecutableIdentity, compositeIdentity, fileStamps, findExecutable, linkedLibraries, rememberVerifiedStamp, type ExecutableLocation } from './executable.js';
import { runNativeTool, type Component } from './nauty.js';

/** The provider name capabilities built on PARI/GP register under. */
export const PARI_PROVIDER = 'pari-gp';

/** Where the probe looks when no binary is named (library code does not read PATH). */
export const DEFAULT_PARI_DIRECTORIES: readonly string[] = ['/usr/bin', '/usr/local/bin', '/opt/homebrew/bin', '/opt/local/bin'];

const INSTALL_HINT = 'install the Debian package pari-gp (apt-get install -y pari-gp)';
const PROBE_TIMEOUT_MS = 20_000;

/** Where to find gp: an explicit path, or folders to search for `gp`. */
export type PariLocation = ExecutableLocation;

/** The executable a successful probe vouched for, with its release and identity. */
export interface PariTools {
  /** Absolute, symlink-free path of gp. */
  readonly binary: string;
  /** The release, e.g. "2.15.2". */
  readonly version: string;
  readonly components: readonly Component[];
  /** The COMPOSITE digest of {@link PariTools.components}. */
  readonly digest: string;
}

/**
 * The absolute, symlink-free path of gp.
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE when none is found.
 */
export async function findGpExecutable(location: PariLocation = {}): Promise<string> {
  return findExecutable('gp', location, DEFAULT_PARI_DIRECTORIES, INSTALL_HINT);
}

/** The libpari objects gp loads, per `ldd`; [] when gp is static (Debian's is) or ldd is absent. */
function linkedPariLibraries(binary: string, signal: AbortSignal | undefined): Promise<string[]> {
  return linkedLibraries(binary, 'libpari', signal);
}

/** `gp --version-short` prints the release alone, e.g. "2.15.2". */
async function readVersion(binary: string, signal: AbortSignal | undefined): Promise<string> {
  const out = await runNativeTool(binary, ['--version-short'], '', { signal, deadline: Date.now() + PROBE_TIMEOUT_MS, maxOutputBytes: 4 * 1024 });
  const match = /^(\d+\.\d+\.\d+)\s*$/.exec(out.stdout);
  if (match === null) throw new Error(`gp --version-short printed ${JSON.stringify(out.stdout.slice(0, 100))}, not a release`);
  return match[1] as string;
}

/** How a gp run is bounded (see SingularRunOptions). */
export interface PariRunOptions {
  signal?: AbortSignal | undefined;
  /** Epoch ms at which gp is killed and the run rejects with EXECUTION_TIMEOUT. */
  deadline: number;
  /** Most stdout bytes accepted. */
  maxOutputBytes: number;
  /** The memory budget in MiB; gp's stack may grow to half of it (see {@link gpArguments}). */
  memoryMb?: number | undefined;
}

/**
 * gp's command line: quiet, no gprc, and a PARI stack that starts at 8 MB and may double up to
 * half the memory budget (256 MiB without one). PARI reserves `parisizemax` of address space up
 * front, so it must stay well under the address-space cap the launcher sets from the budget.
 */
export function gpArguments(memoryMb: number | undefined): string[] {
  const maxBytes = Math.max(16, Math.floor((memoryMb ?? 512) / 2)) * 1024 * 1024;
  return ['-q', '-f', '--default', `parisize=${Math.min(8 * 1024 * 1024, maxBytes)}`, '--default', `parisizemax=${maxBytes}`];
}

const INTEGER = /^-?(0|[1-9]\d*)$/;
const NUMBER = /^-?(0|[1-9]\d*)(\/[1-9]\d*)?$/;
const MARK = '@@jacobian:';

/**
 * The gp text of a stored matrix: `Mat([a, b; c, d])`, wrapped in `Mod(…, p)` over GF(p). Every entry
 * is checked against the number grammar here, whatever checked it before.
 *
 * @throws JacobianError INTERNAL for an entry that is not a number (a canonical matrix has none).
 */
export function gpMatrix(matrix: MatrixPayload): string {
  const rows = matrix.rows.map((row) =>
    row
      .map((entry) => {
        if (!NUMBER.test(entry) || (matrix.ring.kind !== 'Q' && !INTEGER.test(entry))) throw new JacobianError('INTERNAL', `a matrix entry "${entry.slice(0, 40)}" is not a number of its ring; nothing was sent to gp`);
        return entry;
      })
      .join(','),
  );
  // Mat(…): gp reads a one-row literal [a, b] as a vector, not a 1×n matrix.
  const literal = `Mat([${rows.join(';')}])`;
  if (matrix.ring.kind !== 'GF') return literal;
  const p = matrix.ring.characteristic;
  if (!/^[1-9]\d*$/.test(p)) throw new JacobianError('INTERNAL', `the characteristic "${p.slice(0, 40)}" is not a positive integer; nothing was sent to gp`);
  return `Mod(${literal},${p})`;
}

/** gp functions every script defines: print a vector as one line, a matrix as one line per row. */
const PRELUDE = ['default(debugmem,0);', 'jv(v)=print(strjoin(apply(x->Str(x),Vec(v))," "));', 'jm(M)=for(i=1,matsize(M)[1],jv(M[i,]));'];

/** A section of a script: a marker line, then gp statements of our own printing its answer. */
export interface GpSection {
  readonly name: string;
  readonly statements: string;
}

/** The script: define `A` (the matrix), then print each section after its marker. */
export function gpScript(matrix: MatrixPayload, sections: readonly GpSection[], setup: readonly string[] = []): string {
  return gpProgram([`A=${gpMatrix(matrix)};`, ...setup], sections);
}

/**
 * A script of our own definitions (built only from constant text and the literals of
 * {@link gpInteger} / {@link gpPolynomial}), then each section after its marker.
 */
export function gpProgram(definitions: readonly string[], sections: readonly GpSection[]): string {
  return [...PRELUDE, ...definitions, ...sections.flatMap((s) => [`print("${MARK}${s.name}");`, s.statements]), `print("${MARK}end");`, 'quit;', ''].join('\n');
}

/**
 * The gp literal of an integer given as decimal text, checked here against the integer grammar
 * whatever checked it before.
 *
 * @throws JacobianError INTERNAL for anything else; nothing is sent to gp.
 */
export function gpInteger(text: string): string {
  if (!INTEGER.test(text) || text === '-0') throw new JacobianError('INTERNAL', `"${text.slice(0, 40)}" is not an integer; nothing was sent to gp`);
  return text;
}

/**
 * The gp literal of a polynomial in `variable` (one lower-case letter) from its coefficients,
 * highest degree first, each an integer or a fraction checked here: `Pol([c_n, …, c_0], 'x)`.
 *
 * @throws JacobianError INTERNAL for a coefficient that is not a number or a bad variable.
 */
export function gpPolynomial(coefficients: readonly string[], variable = 'x'): string {
  if (!/^[a-z]$/.test(variable)) throw new JacobianError('INTERNAL', `"${variable.slice(0, 10)}" is not a one-letter variable; nothing was sent to gp`);
  if (coefficients.length === 0) throw new JacobianError('INTERNAL', 'a polynomial needs at least one coefficient; nothing was sent to gp');
  for (const c of coefficients) if (!NUMBER.test(c) || c === '-0') throw new JacobianError('INTERNAL', `a coefficient "${c.slice(0, 40)}" is not a number; nothing was sent to gp`);
  return `Pol([${coefficients.join(',')}],'${variable})`;
}

function failed(message: string): JacobianError {
  return new JacobianError('PROVIDER_FAILED', `PARI/GP: ${message}; the result was discarded`);
}

/** What a gp run printed: per section, its lines as rows of number texts. */
export interface GpAnswer {
  readonly sections: Record<string, string[][]>;
  readonly runtimeMs: number;
}

/**
 * Run a gp script and read its sections strictly: every line after a marker is a row of
 * numbers (integers or fractions) separated by single spaces; an empty row is an empty line
 * only when `allowEmpty` names the section.
 *
 * @throws JacobianError EXECUTION_TIMEOUT / EXECUTION_CANCELLED / OUTPUT_LIMIT_EXCEEDED /
 *   MEMORY_LIMIT_EXCEEDED when the run is stopped (or PARI's stack reached its maximum);
 *   PROVIDER_FAILED when gp reports anything on stderr or prints anything unexpected.
 */
export async function runGp(binary: string, script: string, names: readonly string[], options: PariRunOptions): Promise<GpAnswer> {
  const started = Date.now();
  const out = await runNativeTool(binary, gpArguments(options.memoryMb), script, options);
  const runtimeMs = Date.now() - started;
  const stderr = out.stderr.trim();
  if (stderr !== '') {
    if (/stack overflows|not enough memory/i.test(stderr)) throw new JacobianError('MEMORY_LIMIT_EXCEEDED', `PARI/GP ran out of its stack within the run's memory budget (${options.memoryMb ?? 'none'} MiB); nothing was concluded`);
    throw failed(`gp reported ${JSON.stringify(stderr.slice(0, 500))}`);
  }
  const lines = out.stdout.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const expected = new Set(names);
  const sections: Record<string, string[][]> = {};
  let current: string[][] | null = null;
  let ended = false;
  for (const line of lines) {
    if (ended) throw failed(`gp printed after the end: ${JSON.stringify(line.slice(0, 200))}`);
    if (line.startsWith(MARK)) {
      const name = line.slice(MARK.length);
      if (name === 'end') {
        ended = true;
        continue;
      }
      if (!expected.has(name) || sections[name] !== undefined) throw failed(`unexpected section ${JSON.stringify(name.slice(0, 100))}`);
      current = [];
      sections[name] = current;
      continue;
    }
    if (current === null) throw failed(`gp printed before any section: ${JSON.stringify(line.slice(0, 200))}`);
    const tokens = line === '' ? [] : line.split(' ');
    const bad = tokens.find((token) => !NUMBER.test(token));
    if (bad !== undefined) throw failed(`"${bad.slice(0, 100)}" is not a number`);
    current.push(tokens);
  }
  if (!ended) throw failed('the answer has no end marker');
  const missing = names.filter((name) => sections[name] === undefined);
  if (missing.length > 0) throw failed(`the sections ${missing.join(', ')} are missing`);
  return { sections, runtimeMs };
}

/** Known answers gp must reproduce before it serves: a determinant, ranks, an HNF, a Smith form and polynomials, over Z, Q and GF(7). */
const MATRIX_HEALTH: readonly { matrix: MatrixPayload; section: GpSection; expected: string[][] }[] = [
  { matrix: { ring: { kind: 'Z' }, nrows: 3, ncols: 3, rows: [['2', '0', '1'], ['1', '3', '2'], ['1', '1', '2']] }, section: { name: 'det', statements: 'print(matdet(A));' }, expected: [['6']] },
  { matrix: { ring: { kind: 'Q' }, nrows: 2, ncols: 2, rows: [['1', '1/2'], ['1/2', '1/3']] }, section: { name: 'det', statements: 'print(matdet(A));' }, expected: [['1/12']] },
  { matrix: { ring: { kind: 'GF', characteristic: '7' }, nrows: 2, ncols: 3, rows: [['1', '2', '3'], ['2', '4', '6']] }, section: { name: 'rank', statements: 'print(matrank(A));' }, expected: [['1']] },
  { matrix: { ring: { kind: 'Z' }, nrows: 3, ncols: 3, rows: [['2', '4', '4'], ['-6', '6', '12'], ['10', '-4', '-16']] }, section: { name: 'snf', statements: 'jv(matsnf(A));' }, expected: [['12', '6', '2']] },
  { matrix: { ring: { kind: 'Z' }, nrows: 2, ncols: 2, rows: [['1', '2'], ['3', '4']] }, section: { name: 'poly', statements: 'jv(Vec(charpoly(A)));jv(Vec(minpoly(A)));jm(mathnf(A));' }, expected: [['1', '-5', '-2'], ['1', '-5', '-2'], ['2', '1'], ['0', '1']] },
];

/**
 * Known number-theory answers: a factorization (F6 = 2^64 + 1, Landry), a Mersenne prime, a class
 * number (h(−23) = 3), the class number of Q(√−5), the conductor of the curve 37a, and an ECPP
 * certificate of 10^30 + 57 that gp's own checker accepts (its values depend on PARI's random
 * choices, so only its shape and acceptance are compared).
 */
const NUMBER_HEALTH: readonly { section: GpSection; expected: string[][] }[] = [
  { section: { name: 'factor', statements: 'jv(factor(2^64+1)[,1]);' }, expected: [['274177', '67280421310721']] },
  { section: { name: 'isprime', statements: 'print(isprime(2^127-1));print(isprime(2^128+1));' }, expected: [['1'], ['0']] },
  { section: { name: 'class', statements: 'print(qfbclassno(-23));print(bnfinit(y^2+5).no);' }, expected: [['3'], ['2']] },
  { section: { name: 'curve', statements: 'print(ellglobalred(ellinit([0,0,1,-1,0]))[1]);' }, expected: [['37']] },
  { section: { name: 'primecert', statements: 'c=primecert(10^30+57);print(type(c)=="t_VEC"&&#c>=1&&c[1][1]==10^30+57);print(primecertisvalid(c));' }, expected: [['1'], ['1']] },
];

async function healthCheck(binary: string, signal: AbortSignal | undefined): Promise<void> {
  const run = (script: string, section: GpSection): Promise<GpAnswer> => runGp(binary, script, [section.name], { signal, deadline: Date.now() + PROBE_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
  for (const health of MATRIX_HEALTH) {
    const answer = await run(gpScript(health.matrix, [health.section]), health.section);
    const got = JSON.stringify(answer.sections[health.section.name]);
    if (got !== JSON.stringify(health.expected)) throw new Error(`${health.section.statements} on ${JSON.stringify(health.matrix.rows)} printed ${got}, expected ${JSON.stringify(health.expected)}`);
  }
  for (const health of NUMBER_HEALTH) {
    const answer = await run(gpProgram([], [health.section]), health.section);
    const got = JSON.stringify(answer.sections[health.section.name]);
    if (got !== JSON.stringify(health.expected)) throw new Error(`${health.section.statements} printed ${got}, expected ${JSON.stringify(health.expected)}`);
  }
}

/**
 * Describe the installed gp and prove it works: find it, read its release, digest it (with any
 * libpari it loads), and reproduce known answers.
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE if it is missing or fails any of these.
 */
export async function probePari(options: PariLocation & { signal?: AbortSignal; health?: HealthCache } = {}): Promise<{ runtime: ProviderRuntime; tools: PariTools }> {
  const binary = await findGpExecutable(options);
  try {
    const version = await readVersion(binary, options.signal);
    const libraries = await linkedPariLibraries(binary, options.signal);
    const stamp = await fileStamps(binary, libraries);
    const { components, digest } = await compositeIdentity(binary, libraries);
    const identity = { provider: PARI_PROVIDER, version, digest_kind: 'COMPOSITE', digest, platform: platformTag(), paths: [binary, ...libraries], check_module: fileURLToPath(import.meta.url) };
    await ensureHealthy(options.health, () => identity, () => healthCheck(binary, options.signal));
    const copyright = '/usr/share/doc/pari-gp/copyright';
    const licenseFiles = await access(copyright, constants.R_OK).then(
      () => [copyright],
      () => [],
    );
    const runtime = ProviderRuntimeSchema.parse({
      provider: PARI_PROVIDER,
      availability: 'AVAILABLE',
      version,
      digest_kind: 'COMPOSITE',
      digest,
      platform: platformTag(),
      install_tier: 'T1',
      license_id: 'GPL-2.0-or-later',
      license_files: licenseFiles,
      features: ['matdet', 'matrank', 'matker', 'mathnf', 'matsnf', 'charpoly', 'minpoly', 'qflll', 'fields-Q-GF(p)', 'factor', 'isprime', 'primecert', 'qfbclassno', 'bnfinit', 'ellinit', ...(libraries.length > 0 ? ['libpari-digested'] : [])],
    });
    // The files as digested: checkPariIdentity need not digest them again until they change.
    rememberVerifiedStamp(digest, stamp);
    return { runtime, tools: { binary, version, components, digest } };
  } catch (error) {
    const cause = toAppError(error);
    if (cause.code === 'EXECUTION_CANCELLED') throw cause;
    throw new JacobianError('PROVIDER_UNAVAILABLE', `gp at ${binary} failed its probe: ${cause.message}; ${INSTALL_HINT}`, { cause: error });
  }
}

/**
 * Check, before a run, that gp (and any libpari it loads) are still the bytes the probe digested
 * (by stat stamp, digesting again only when a stat changed: see checkExecutableIdentity).
 *
 * @throws JacobianError PROVIDER_FAILED when anything changed (an upgrade under a running runner).
 */
export async function checkPariIdentity(tools: PariTools): Promise<void> {
  await checkExecutableIdentity(tools, 'libpari', 'PARI/GP');
}

/** The PARI/GP provider probe, remembering the tools its last successful probe vouched for. */
export interface PariProbe extends ProviderProbe {
  readonly tools: PariTools | undefined;
}

/** The PARI/GP provider for registration: probed once at start, fail closed. */
export function pariProvider(location: PariLocation & { health?: HealthCache } = {}): PariProbe {
  let tools: PariTools | undefined;
  return {
    name: PARI_PROVIDER,
    get tools() {
      return tools;
    },
    async probe(signal) {
      const result = await probePari({ ...location, ...(signal === undefined ? {} : { signal }) });
      tools = result.tools;
      return result.runtime;
    },
  };
}

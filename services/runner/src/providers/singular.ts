/**
 * Singular (Debian package `singular`), the computer algebra system, as the native provider of
 * reduced Groebner bases: found on disk, identified by the bytes that run (the `Singular`
 * executable is a thin launcher; the algorithms live in the libsingular shared objects it loads,
 * so the digest covers both, as nauty's covers libnauty), its release read, and proved healthy on
 * ideals with known reduced bases before any capability registers with it.
 *
 * Nothing a client sends reaches Singular as text. A run takes polynomials already parsed by our
 * grammar into a ring, renames the ring's variables to `v1 … vn` (client names could collide with
 * Singular's reserved words and commands), and prints the script from those parsed polynomials
 * with our canonical printer. Singular's answer is read back between markers with our own parser;
 * any other line (Singular reports errors on stdout and still exits 0) is a PROVIDER_FAILED.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  JacobianError,
  parsePolynomial,
  platformTag,
  PolynomialRing,
  printPolynomial,
  ProviderRuntimeSchema,
  resolveRing,
  toAppError,
  type Polynomial,
  type ProviderProbe,
  type ProviderRuntime,
} from '@jacobian/shared';
import { ensureHealthy, type HealthCache } from './health-cache.js';
import { checkExecutableIdentity, compositeIdentity, fileStamps, findExecutable, linkedLibraries, rememberVerifiedStamp, type ExecutableLocation } from './executable.js';
import { runNativeTool, type Component } from './nauty.js';

/** The provider name capabilities built on Singular register under. */
export const SINGULAR_PROVIDER = 'singular';

/** Where the probe looks when no binary is named (library code does not read PATH). */
export const DEFAULT_SINGULAR_DIRECTORIES: readonly string[] = ['/usr/bin', '/usr/local/bin', '/opt/homebrew/bin', '/opt/local/bin'];

/** Singular's prime fields are Z/p for p ≤ 2^31 − 1 ("Wrong or unknown ground field specification" beyond). */
export const SINGULAR_MAX_CHARACTERISTIC = 2_147_483_647n;

/** Reject, before Singular runs, a prime it does not support; `id` names the capability served. */
export function checkSingularField(ring: PolynomialRing<unknown>, id = 'this capability'): void {
  if (ring.field.characteristic > SINGULAR_MAX_CHARACTERISTIC) {
    throw new JacobianError('INVALID_REQUEST', `payload.ring.field.characteristic: ${id} is served by Singular, which computes over GF(p) only for p ≤ ${SINGULAR_MAX_CHARACTERISTIC}; ${ring.field.characteristic} is larger`, {
      path: ['payload', 'ring', 'field', 'characteristic'],
      data: { rule: 'provider-field' },
    });
  }
}

const INSTALL_HINT = 'install the Debian package singular (apt-get install -y singular)';
const PROBE_TIMEOUT_MS = 20_000;

/** Singular's names of our monomial orders: lex `lp`, grlex `Dp`, grevlex `dp` (first variable largest in each). */
const SINGULAR_ORDER = { lex: 'lp', grlex: 'Dp', grevlex: 'dp' } as const;

/** Where to find Singular: an explicit path, or folders to search for `Singular`. */
export type SingularLocation = ExecutableLocation;

/** The executable a successful probe vouched for, with its release and identity. */
export interface SingularTools {
  /** Absolute, symlink-free path of the executable. */
  readonly binary: string;
  /** The release, e.g. "4.3.1". */
  readonly version: string;
  /** The files the digest covers (executable and libsingular objects), with their sha256. */
  readonly components: readonly Component[];
  /** The COMPOSITE digest of {@link SingularTools.components}. */
  readonly digest: string;
}

/**
 * The absolute, symlink-free path of the Singular executable.
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE when none is found.
 */
export async function findSingularExecutable(location: SingularLocation = {}): Promise<string> {
  return findExecutable('Singular', location, DEFAULT_SINGULAR_DIRECTORIES, INSTALL_HINT);
}

/** The libsingular shared objects the executable loads, per `ldd`; [] when ldd is absent or the executable is static. */
function linkedSingularLibraries(binary: string, signal: AbortSignal | undefined): Promise<string[]> {
  return linkedLibraries(binary, 'libsingular', signal);
}

/** `Singular --version` starts with "Singular for x86_64-Linux version 4.3.1 (4313, 64 bit) …". */
async function readVersion(binary: string, signal: AbortSignal | undefined): Promise<string> {
  const out = await runNativeTool(binary, ['--version'], '', { signal, deadline: Date.now() + PROBE_TIMEOUT_MS, maxOutputBytes: 16 * 1024 });
  const match = /^Singular for \S+ version (\d+\.\d+\.\d+)\b/.exec(out.stdout);
  if (match === null) throw new Error(`Singular --version printed ${JSON.stringify(out.stdout.slice(0, 100))}, not a Singular version line`);
  return match[1] as string;
}

/** What one Singular run should compute. */
export interface SingularGroebnerRequest<C> {
  readonly ring: PolynomialRing<C>;
  readonly generators: readonly Polynomial<C>[];
  /** Also the cofactors, by `lift`: basis[i] = Σ_j cofactors[i][j]·generators[j]. */
  readonly cofactors: boolean;
}

/** What one Singular run found: the reduced basis, monic, by increasing leading monomial. */
export interface SingularGroebnerResult<C> {
  readonly basis: Polynomial<C>[];
  readonly cofactors?: Polynomial<C>[][];
  /** The options in force for `std`, as Singular's `option()` printed them (always including {@link SINGULAR_STD_OPTIONS}). */
  readonly options: readonly string[];
  readonly runtimeMs: number;
}

/** How a run is bounded. */
export interface SingularRunOptions {
  signal?: AbortSignal | undefined;
  /** Epoch ms at which Singular is killed and the run rejects with EXECUTION_TIMEOUT. */
  deadline: number;
  /** Most stdout bytes accepted; past it Singular is killed and the run rejects with OUTPUT_LIMIT_EXCEEDED. */
  maxOutputBytes: number;
  /** The memory budget in MiB: over it (or out of its address-space cap) Singular is killed and the run rejects with MEMORY_LIMIT_EXCEEDED (see native/memory.ts). Absent: none (the probe). */
  memoryMb?: number | undefined;
}

const MARK = { options: '@@jacobian:options', begin: '@@jacobian:basis', cofactors: '@@jacobian:cofactors', end: '@@jacobian:end' } as const;

/** The options every `std` of a run is made with: a minimal (redSB) basis with reduced tails (redTail), i.e. the reduced basis. */
export const SINGULAR_STD_OPTIONS = ['redSB', 'redTail'] as const;

/**
 * The option names in the answer of Singular's `option()` (`//options: redSB redTail …`, one or
 * more lines); null when `lines` holds no such line.
 */
export function parseSingularOptions(lines: readonly string[]): string[] | null {
  const listed = lines.filter((line) => line.startsWith('//options:'));
  if (listed.length === 0) return null;
  return listed.flatMap((line) => line.slice('//options:'.length).trim().split(/\s+/)).filter((name) => name !== '');
}

/**
 * The Singular script of a request. Its only inputs are numbers and the polynomials' canonical
 * text over the renamed variables `v1 … vn`, so no client text can reach Singular's interpreter.
 */
export function singularScript<C>(request: SingularGroebnerRequest<C>): { script: string; renamed: PolynomialRing<C> } {
  const { ring } = request;
  const characteristic = ring.field.characteristic;
  checkSingularField(ring);
  const renamed = new PolynomialRing<C>(
    ring.field,
    ring.variables.map((_, i) => `v${i + 1}`),
    ring.order,
  );
  const generators = request.generators.length === 0 ? ['0'] : request.generators.map((g) => printPolynomial(renamed, g));
  const lines = [
    `ring r = ${characteristic.toString()}, (${renamed.variables.join(',')}), ${SINGULAR_ORDER[ring.order]};`,
    // Reduced bases: minimal (redSB) and with reduced tails (redTail). After the ring: Singular
    // keeps such options with a ring and resets them when one is made, so set before `ring r`
    // they were off (cyclic-6 lex over Q ran past 600 s without redTail). The options in force
    // are printed, and a run where they are not is refused (see runSingularGroebner).
    ...SINGULAR_STD_OPTIONS.map((name) => `option(${name});`),
    `"${MARK.options}";`,
    'option();',
    'short = 0;',
    `ideal i = ${generators.join(',\n  ')};`,
    'ideal g = std(i);',
    'int k; int j;',
    `"${MARK.begin}";`,
    'for (k = 1; k <= ncols(g); k++) { string(g[k]); }',
  ];
  if (request.cofactors) {
    // lift(i, g): matrix(g) = matrix(i) * T, T[j, k] multiplies i[j] in g[k].
    lines.push('matrix T = lift(i, g);', `"${MARK.cofactors}";`, 'for (k = 1; k <= ncols(g); k++) { for (j = 1; j <= ncols(i); j++) { string(T[j, k]); } }');
  }
  lines.push(`"${MARK.end}";`, 'quit;', '');
  return { script: lines.join('\n'), renamed };
}

function failed(message: string): JacobianError {
  return new JacobianError('PROVIDER_FAILED', `Singular: ${message}; the result was discarded`);
}

/**
 * Run Singular on one request: `std` with redSB and redTail (checked to be in force: a run
 * where Singular's `option()` does not list them is a PROVIDER_FAILED), and `lift` for cofactors. Elements
 * are made monic (Singular clears denominators over Q instead) and sorted by increasing leading
 * monomial; cofactors are divided by the same leading coefficients and follow the sort.
 *
 * @throws JacobianError EXECUTION_TIMEOUT / EXECUTION_CANCELLED / OUTPUT_LIMIT_EXCEEDED when the
 *   run is stopped; PROVIDER_FAILED when Singular reports an error or prints anything unexpected;
 *   INVALID_REQUEST (path payload.ring.field.characteristic) for a prime Singular does not support.
 */
export async function runSingularGroebner<C>(binary: string, request: SingularGroebnerRequest<C>, options: SingularRunOptions): Promise<SingularGroebnerResult<C>> {
  const { script, renamed } = singularScript(request);
  const started = Date.now();
  const out = await runNativeTool(binary, ['-q', '--no-rc', '--no-warn'], script, options);
  const runtimeMs = Date.now() - started;
  const lines = out.stdout.split('\n').map((line) => line.trim());
  const optionsAt = lines.indexOf(MARK.options);
  const begin = lines.indexOf(MARK.begin);
  const middle = request.cofactors ? lines.indexOf(MARK.cofactors) : -1;
  const end = lines.indexOf(MARK.end);
  // Between the options marker and the basis only option()'s own lines may stand.
  const unexpected = lines.findIndex((line, index) => line !== '' && (index < optionsAt || index > end || (index > optionsAt && index < begin && !line.startsWith('//options:'))));
  if (optionsAt < 0 || begin < optionsAt || end < begin || (request.cofactors && (middle < begin || middle > end)) || unexpected >= 0) {
    const shown = lines.filter((line) => line !== '' && !line.startsWith('@@jacobian:')).slice(0, 4).join(' | ');
    throw failed(`the answer is not in the expected form${shown === '' ? '' : `: ${shown.slice(0, 500)}`}`);
  }
  const inForce = parseSingularOptions(lines.slice(optionsAt + 1, begin)) ?? [];
  const missing = SINGULAR_STD_OPTIONS.filter((name) => !inForce.includes(name));
  if (missing.length > 0) throw failed(`the options ${missing.join(', ')} were not in force for std (option() printed ${JSON.stringify(inForce.join(' '))})`);
  const R = request.ring;
  const parse = (line: string, what: string): Polynomial<C> => {
    try {
      return parsePolynomial(renamed, line);
    } catch (error) {
      throw failed(`${what} does not parse with our grammar (${toAppError(error).message.slice(0, 200)})`);
    }
  };
  const basisLines = lines.slice(begin + 1, middle >= 0 ? middle : end);
  if (basisLines.some((line) => line === '')) throw failed('the basis has an empty line');
  const raw = basisLines.map((line, k) => parse(line, `basis element ${k + 1}`));
  // std of the zero ideal is the ideal (0); a zero element is not a basis element.
  const kept = raw.map((p, k) => ({ p, k })).filter(({ p }) => p.length > 0);
  let cofactorRows: Polynomial<C>[][] | undefined;
  if (request.cofactors) {
    const cells = lines.slice(middle + 1, end);
    const width = Math.max(1, request.generators.length);
    if (cells.length !== raw.length * width || cells.some((line) => line === '')) throw failed(`lift printed ${cells.length} entries for ${raw.length} × ${width}`);
    cofactorRows = raw.map((_, k) => cells.slice(k * width, (k + 1) * width).map((line, j) => parse(line, `cofactor ${j + 1} of element ${k + 1}`)));
    // A request with no generators was sent as the ideal (0): no cofactor columns.
    if (request.generators.length === 0) cofactorRows = cofactorRows.map(() => []);
  }
  const F = R.field;
  const elements = kept.map(({ p, k }) => {
    const lc = (p[0] as { coefficient: C }).coefficient;
    const inverse = F.inv(lc);
    return { basis: R.monic(p), cofactors: cofactorRows?.[k]?.map((c) => R.scale(c, inverse)) };
  });
  elements.sort((a, b) => R.compare(R.leadingTerm(a.basis).monomial, R.leadingTerm(b.basis).monomial));
  for (let i = 1; i < elements.length; i++) {
    const previous = R.leadingTerm((elements[i - 1] as { basis: Polynomial<C> }).basis).monomial;
    if (R.compare(previous, R.leadingTerm((elements[i] as { basis: Polynomial<C> }).basis).monomial) === 0) throw failed('two basis elements have the same leading monomial');
  }
  return {
    basis: elements.map((e) => e.basis),
    ...(cofactorRows === undefined ? {} : { cofactors: elements.map((e) => e.cofactors ?? []) }),
    options: inForce,
    runtimeMs,
  };
}

/** Ideals with known reduced bases, over Q and GF(32003), one of them with cofactors. */
const HEALTH_CASES = [
  { ring: { field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' }, generators: ['x^2 - y', 'x*y - 1'], basis: ['y^3 - 1', 'x - y^2'], cofactors: true },
  { ring: { field: { kind: 'GF', characteristic: '32003' }, variables: ['x', 'y', 'z'], order: 'grevlex' }, generators: ['2*x + 3*y', 'y^2 - z', 'x*z'], basis: ['x + 16003*y', 'z^2', 'y*z', 'y^2 + 32002*z'], cofactors: false },
] as const;

/** Solve the health cases and compare with the known bases; check the lift cofactors' identity. */
async function healthCheck(binary: string, signal: AbortSignal | undefined): Promise<void> {
  for (const health of HEALTH_CASES) {
    const ring = resolveRing(health.ring);
    const generators = health.generators.map((text) => parsePolynomial(ring, text));
    const result = await runSingularGroebner(binary, { ring, generators, cofactors: health.cofactors }, { signal, deadline: Date.now() + PROBE_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
    const texts = result.basis.map((p) => printPolynomial(ring, p));
    if (texts.join(', ') !== health.basis.join(', ')) throw new Error(`the reduced basis of <${health.generators.join(', ')}> came out as [${texts.join(', ')}], expected [${health.basis.join(', ')}]`);
    if (health.cofactors) {
      result.basis.forEach((b, i) => {
        let sum: Polynomial<unknown> = [];
        (result.cofactors?.[i] ?? []).forEach((c, j) => {
          sum = ring.add(sum, ring.mul(c, generators[j] as Polynomial<unknown>));
        });
        if (!ring.equals(sum, b)) throw new Error(`lift's cofactors of basis element ${i} do not combine the generators into it`);
      });
    }
  }
}

/**
 * Describe the installed Singular and prove it works: find the executable, read its release,
 * digest it with the libsingular objects it loads, and compute known reduced bases (with lift
 * cofactors) correctly.
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE if it is missing or fails any of these.
 */
export async function probeSingular(options: SingularLocation & { signal?: AbortSignal; health?: HealthCache } = {}): Promise<{ runtime: ProviderRuntime; tools: SingularTools }> {
  const binary = await findSingularExecutable(options);
  try {
    const version = await readVersion(binary, options.signal);
    const libraries = await linkedSingularLibraries(binary, options.signal);
    const stamp = await fileStamps(binary, libraries);
    const { components, digest } = await compositeIdentity(binary, libraries);
    const identity = { provider: SINGULAR_PROVIDER, version, digest_kind: 'COMPOSITE', digest, platform: platformTag(), paths: [binary, ...libraries], check_module: fileURLToPath(import.meta.url) };
    await ensureHealthy(options.health, () => identity, () => healthCheck(binary, options.signal));
    const copyright = '/usr/share/doc/singular/copyright';
    const licenseFiles = await access(copyright, constants.R_OK).then(
      () => [copyright],
      () => [],
    );
    const runtime = ProviderRuntimeSchema.parse({
      provider: SINGULAR_PROVIDER,
      availability: 'AVAILABLE',
      version,
      digest_kind: 'COMPOSITE',
      digest,
      platform: platformTag(),
      install_tier: 'T1',
      license_id: 'GPL-2.0-or-later',
      license_files: licenseFiles,
      features: ['reduced-groebner-basis', 'std-redSB', 'lift-cofactors', 'fields-Q-GF(p<2^31)', ...(libraries.length > 0 ? ['libsingular-digested'] : [])],
    });
    // The files as digested: checkSingularIdentity need not digest them again until they change.
    rememberVerifiedStamp(digest, stamp);
    return { runtime, tools: { binary, version, components, digest } };
  } catch (error) {
    const cause = toAppError(error);
    if (cause.code === 'EXECUTION_CANCELLED') throw cause;
    throw new JacobianError('PROVIDER_UNAVAILABLE', `Singular at ${binary} failed its probe: ${cause.message}; ${INSTALL_HINT}`, { cause: error });
  }
}

/**
 * Check, before a run, that the executable and libraries are still the bytes the probe digested
 * (by stat stamp, digesting again only when a stat changed: see checkExecutableIdentity).
 *
 * @throws JacobianError PROVIDER_FAILED when anything changed (an upgrade under a running runner).
 */
export async function checkSingularIdentity(tools: SingularTools): Promise<void> {
  await checkExecutableIdentity(tools, 'libsingular', 'Singular');
}

/** The Singular provider probe, remembering the tools its last successful probe vouched for. */
export interface SingularProbe extends ProviderProbe {
  readonly tools: SingularTools | undefined;
}

/** The Singular provider for registration: probed once at start, fail closed. */
export function singularProvider(location: SingularLocation & { health?: HealthCache } = {}): SingularProbe {
  let tools: SingularTools | undefined;
  return {
    name: SINGULAR_PROVIDER,
    get tools() {
      return tools;
    },
    async probe(signal) {
      const result = await probeSingular({ ...location, ...(signal === undefined ? {} : { signal }) });
      tools = result.tools;
      return result.runtime;
    },
  };
}

/**
 * One Singular program over a ring: our polynomials are declared as `poly p1 … pn` (printed by
 * our canonical printer over the renamed variables `v1 … vn`), then `program` runs. The program
 * is constant text of our own code (it names only p1 … pn, v1 … vn and numbers) and prints its
 * answers as sections, each opened by a line `"@@jacobian:<name>";`. Answers are read back as
 * lines per section; an error or warning line anywhere ("? …", "// …": Singular reports them on
 * stdout and goes on), or any line before the first section or after the end marker, is a
 * PROVIDER_FAILED.
 */
export interface SingularProgramRequest<C> {
  readonly ring: PolynomialRing<C>;
  readonly polynomials: readonly Polynomial<C>[];
  readonly program: readonly string[];
  readonly sections: readonly string[];
}

/** The renamed ring and the script of {@link runSingularProgram}. */
export function singularProgramScript<C>(request: SingularProgramRequest<C>): { script: string; renamed: PolynomialRing<C> } {
  const { ring } = request;
  const characteristic = ring.field.characteristic;
  checkSingularField(ring);
  const renamed = new PolynomialRing<C>(
    ring.field,
    ring.variables.map((_, i) => `v${i + 1}`),
    ring.order,
  );
  const lines = [
    `ring r = ${characteristic.toString()}, (${renamed.variables.join(',')}), ${SINGULAR_ORDER[ring.order]};`,
    'short = 0;',
    'int k; int j;',
    ...request.polynomials.map((p, i) => `poly p${i + 1} = ${printPolynomial(renamed, p)};`),
    ...request.program,
    `"${MARK.end}";`,
    'quit;',
    '',
  ];
  return { script: lines.join('\n'), renamed };
}

/** What {@link runSingularProgram} read: each section's non-empty lines, and the renamed ring to parse them in. */
export interface SingularProgramResult<C> {
  readonly sections: Record<string, string[]>;
  readonly renamed: PolynomialRing<C>;
  readonly runtimeMs: number;
  /** Parse a line of an answer with our grammar over the renamed variables; PROVIDER_FAILED if it does not parse. */
  parse(line: string, what: string): Polynomial<C>;
}

/**
 * Run a Singular program (see {@link SingularProgramRequest}) and split its answer into sections.
 *
 * @throws JacobianError EXECUTION_TIMEOUT / EXECUTION_CANCELLED / OUTPUT_LIMIT_EXCEEDED when the
 *   run is stopped; PROVIDER_FAILED when Singular prints anything outside the sections.
 */
export async function runSingularProgram<C>(binary: string, request: SingularProgramRequest<C>, options: SingularRunOptions): Promise<SingularProgramResult<C>> {
  const { script, renamed } = singularProgramScript(request);
  const started = Date.now();
  const out = await runNativeTool(binary, ['-q', '--no-rc', '--no-warn'], script, options);
  const runtimeMs = Date.now() - started;
  const lines = out.stdout.split('\n').map((line) => line.trim());
  const end = lines.indexOf(MARK.end);
  const markers = new Map(request.sections.map((name) => [`@@jacobian:${name}`, name]));
  const sections: Record<string, string[]> = {};
  let current: string[] | null = null;
  let bad: string | null = end < 0 ? 'no end marker' : null;
  lines.forEach((line, index) => {
    if (bad !== null || line === '' || index >= end) {
      if (bad === null && index > end && line !== '') bad = line;
      return;
    }
    // Singular reports errors as lines starting with "?" and warnings with "//", then goes on.
    if (line.startsWith('?') || line.startsWith('//')) {
      bad = line;
      return;
    }
    const name = markers.get(line);
    if (name !== undefined) {
      current = [];
      sections[name] = current;
    } else if (current === null) bad = line;
    else current.push(line);
  });
  if (bad === null && request.sections.some((name) => sections[name] === undefined)) bad = 'a section is missing';
  if (bad !== null) throw failed(`the answer is not in the expected form: ${String(bad).slice(0, 500)}`);
  return {
    sections,
    renamed,
    runtimeMs,
    parse(line, what) {
      try {
        return parsePolynomial(renamed, line);
      } catch (error) {
        throw failed(`${what} does not parse with our grammar (${toAppError(error).message.slice(0, 200)})`);
      }
    },
  };
}

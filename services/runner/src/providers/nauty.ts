/**
 * The nauty provider: Brendan McKay and Adolfo Piperno's graph-automorphism tools (Debian
 * package `nauty`), used for canonical forms (`labelg`) and automorphism groups (`dreadnaut`).
 *
 * The probe finds the executables, identifies the exact bytes that will run (the executables
 * and the libnauty they load), reads the release, and proves the tools healthy on graphs with
 * known answers before any capability registers with them. The runners start the executables
 * through the native-tool launcher (no shell), feed them through stdin, bound their output, and
 * kill them on the run's deadline or cancellation. Every answer is parsed strictly: output we do
 * not recognize is a PROVIDER_FAILED, never a guess.
 *
 * Also here: {@link firstHealthyOf}, which lets one capability ID register with nauty when it is
 * healthy and with a fallback provider otherwise.
 */
import { constants } from 'node:fs';
import { access, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  canonicalDigest,
  encodeGraph6,
  decodeGraph6,
  JacobianError,
  PETERSEN_EXAMPLE,
  platformTag,
  ProviderRuntimeSchema,
  sha256Hex,
  toAppError,
  type IndexedGraph,
  type ProviderProbe,
  type ProviderRuntime,
} from '@jacobian/shared';
import { checkAutomorphisms, checkOrbits, checkPermutation, relabel } from '../graph/symmetry-checks.js';
import { runSpooled, type SpooledRunOptions } from '../native/spooled.js';
import { ensureHealthy, type HealthCache } from './health-cache.js';

/** The provider name nauty registers under (ProviderRuntime.provider). */
export const NAUTY_PROVIDER = 'nauty';

/** Where the probe looks for the executables when not told: the usual install prefixes. */
export const DEFAULT_NAUTY_DIRECTORIES: readonly string[] = ['/usr/bin', '/usr/local/bin', '/opt/homebrew/bin', '/opt/local/bin'];

/** Debian prefixes nauty's gtools with `nauty-`; upstream and Homebrew install them bare. dreadnaut is bare everywhere. */
const LABELG_NAMES = ['nauty-labelg', 'labelg'];
const DREADNAUT_NAMES = ['dreadnaut'];

const INSTALL_HINT = 'install the Debian package nauty (scripts/install-system-deps.sh does)';

/** Where to find nauty. Entry points pass what their configuration says; library code reads no environment. */
export interface NautyProbeOptions {
  /** Directories searched, in order, for the executables (default {@link DEFAULT_NAUTY_DIRECTORIES}). */
  directories?: readonly string[];
  /** Path of labelg, used as is instead of searching. */
  labelg?: string;
  /** Path of dreadnaut, used as is instead of searching. */
  dreadnaut?: string;
  /** Health checks remembered across starts (see health-cache.ts); without it, every probe checks. */
  health?: HealthCache;
}

/** The executables a successful probe vouched for, with what the runs need to know about them. */
export interface NautyTools {
  /** Absolute path of labelg (symlinks resolved). */
  readonly labelg: string;
  /** Absolute path of dreadnaut (symlinks resolved). */
  readonly dreadnaut: string;
  /** The nauty release, e.g. "2.8.6". */
  readonly version: string;
  /** WORDSIZE nauty was built with; canonical labellings depend on it. */
  readonly wordSize: number;
}

/**
 * The method string canonical forms from these tools carry. Canonical labellings depend on the
 * nauty release, its word size and its options, so all of them are named.
 */
export function nautyCanonicalFormMethod(tools: NautyTools): string {
  return `nauty-labelg ${tools.version} (${tools.wordSize} bits)`;
}

// ---------------------------------------------------------------------------------------------
// Running a native tool

/** How a native run is bounded (see runSpooled). */
export type NativeRunOptions = SpooledRunOptions;

/** What a native run printed. */
export interface NativeOutput {
  stdout: string;
  /** At most 16 KiB of it, trimmed: enough for a diagnostic. */
  stderr: string;
}

/**
 * Run an executable on `input` (its stdin), without a shell, with a minimal environment, through
 * the native-tool launcher ({@link runSpooled}: no fork of this process, files instead of pipes).
 * Settles once: with the output on exit status 0, otherwise with a JacobianError
 * (PROVIDER_FAILED for a failed start or a non-zero exit, with stderr quoted; the codes in
 * {@link NativeRunOptions} when the run is stopped). A stopped tool is killed with SIGKILL,
 * since nauty does not poll for anything and would otherwise run on.
 */
export async function runNativeTool(file: string, args: readonly string[], input: string, options: NativeRunOptions): Promise<NativeOutput> {
  const stdout: Buffer[] = [];
  const stderr = await runSpooled(file, args, input, options, (chunk) => {
    // The chunk's buffer is reused by the reader.
    stdout.push(Buffer.from(chunk));
    return null;
  });
  return { stdout: Buffer.concat(stdout).toString('utf8'), stderr };
}

// ---------------------------------------------------------------------------------------------
// labelg and dreadnaut

/**
 * Bound on what labelg or dreadnaut may print. For order ≤ 256 dreadnaut's full output (every
 * generator as an image line, the canonical graph, the orbits) stays under 1 MB (K_256: 480 kB),
 * so more means something is wrong.
 */
export const NAUTY_OUTPUT_LIMIT = 4 * 1024 * 1024;

/** Sections of dreadnaut's output are delimited by comment lines it echoes (its `"..."` command). */
const MARK = { search: '@@jacobian:search', canonical: '@@jacobian:canonical', orbits: '@@jacobian:orbits', end: '@@jacobian:end' } as const;

/**
 * dreadnaut commands that read `graph`, run nauty with labelg's defaults (dense mode, no
 * invariant), and print the canonical labelling and the orbits between markers.
 *
 * - `An`: dense nauty, what labelg uses without -S or -t, so the labelling is labelg's.
 * - `$=0`: vertices numbered from 0; `l=0`: no line wrapping, so each item is one line.
 * - `+m`: the stabilizer-chain lines ("level k: ... index i"), whose indices multiply to |Aut|
 *   exactly; dreadnaut's own `grpsize` is a floating-point number for large groups.
 * - `+p`: automorphisms as image lists rather than cycles; `±a`: print them or not.
 *
 * In `g` mode `v: a b c` sets the current vertex and adds edges to it; a `;` that moves the
 * current vertex past the last one ends the mode, so vertices are set explicitly and `.` ends.
 */
export function dreadnautScript(graph: IndexedGraph, options: { generators: boolean }): string {
  const higher: number[][] = Array.from({ length: graph.order }, () => []);
  for (const [u, v] of graph.edges) higher[u]?.push(v);
  const lists = higher.flatMap((list, v) => (list.length === 0 ? [] : [`${v}: ${list.join(' ')}`]));
  return [
    `An n=${graph.order} g`,
    `${lists.join('; ')}.`,
    `$=0 l=0 +m +p ${options.generators ? '+a' : '-a'} c`,
    `"${MARK.search}\\n" x "${MARK.canonical}\\n" b "${MARK.orbits}\\n" o "${MARK.end}\\n" q`,
    '',
  ].join('\n');
}

/** What dreadnaut reported for one graph. */
export interface DreadnautAnswer {
  /** nauty's canonical labelling as `lab`: position i of the canonical graph holds input vertex lab[i]. */
  lab: number[];
  /** |Aut(G)|: the product of the stabilizer-chain indices. */
  groupOrder: bigint;
  /** Generators as image arrays (empty unless requested). */
  generators: number[][];
  /** The orbits, each ascending, ordered by least vertex. */
  orbits: number[][];
}

const LEVEL_LINE = /^level (\d+): {2}(?:\d+ cells?; )?(\d+) orbits?; \d+ fixed; index (\d+)(?:\/\d+)?$/;
const SUMMARY_LINE = /^(\d+) orbits?; grpsize=(\d+(?:\.\d+)?)(?:e(\d+))?; (\d+) gens?; .*$/;
const NUMBERS_LINE = /^ *\d+(?: +\d+)* *$/;

function unexpected(what: string): JacobianError {
  return new JacobianError('PROVIDER_FAILED', `dreadnaut's output could not be read: ${what}`);
}

/** The numbers of a line of space-separated decimals. */
function numbers(line: string): number[] {
  return line.trim().split(/ +/).map(Number);
}

/**
 * True when `printed` (dreadnaut's `grpsize`, a decimal mantissa and an optional power of ten)
 * names `exact`: equal when printed without exponent (nauty keeps the size exact in a double
 * below 10^10 · n), else equal to ten significant digits.
 */
function groupSizeAgrees(exact: bigint, mantissa: string, exponent: string | undefined): boolean {
  if (exponent === undefined) return !mantissa.includes('.') && BigInt(mantissa) === exact;
  const digits = exact.toString();
  const e = digits.length - 1;
  let m = Number(mantissa);
  let pe = Number(exponent);
  while (m >= 10) {
    m /= 10;
    pe++;
  }
  if (Math.abs(e - pe) > 1) return false;
  const ours = Number(`${digits[0]}.${digits.slice(1, 17) || '0'}`) * 10 ** (e - pe);
  return Math.abs(ours - m) <= 1e-9 * m;
}

/** Parse one orbit item of dreadnaut's `o` output, e.g. `0:2 5:7 (6)` or `8`. */
function parseOrbit(item: string, order: number): number[] {
  const sized = /^(.*?) \((\d+)\)$/.exec(item);
  const body = sized?.[1] ?? item;
  const orbit: number[] = [];
  for (const token of body.split(/ +/)) {
    const range = /^(\d+)(?::(\d+))?$/.exec(token);
    if (range === null) throw unexpected(`orbit item ${JSON.stringify(item)}`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from || to >= order) throw unexpected(`orbit range ${token} for a graph of order ${order}`);
    for (let v = from; v <= to; v++) orbit.push(v);
  }
  const size = sized?.[2] === undefined ? 1 : Number(sized[2]);
  if (size !== orbit.length) throw unexpected(`orbit ${JSON.stringify(item)} lists ${orbit.length} vertices but says ${size}`);
  return orbit.sort((a, b) => a - b);
}

/**
 * Read dreadnaut's answer to {@link dreadnautScript}. Strict: a line of a shape not listed here,
 * a missing section, or counts that disagree with each other (generators, orbits, the
 * stabilizer-chain product against `grpsize`) throw PROVIDER_FAILED.
 */
export function parseDreadnautOutput(text: string, order: number, options: { generators: boolean }): DreadnautAnswer {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const at = (mark: string): number => {
    const index = lines.indexOf(mark);
    if (index === -1 || lines.indexOf(mark, index + 1) !== -1) throw unexpected(`marker ${mark} appears ${index === -1 ? 'nowhere' : 'twice'}`);
    return index;
  };
  const search = at(MARK.search);
  const canonical = at(MARK.canonical);
  const orbitsAt = at(MARK.orbits);
  const end = at(MARK.end);
  if (!(search === 0 && search < canonical && canonical < orbitsAt && orbitsAt < end && end === lines.length - 1)) {
    throw unexpected('the sections are out of order or surrounded by other output');
  }

  let groupOrder = 1n;
  const generators: number[][] = [];
  let summary: RegExpExecArray | null = null;
  for (const line of lines.slice(search + 1, canonical)) {
    const level = LEVEL_LINE.exec(line);
    if (level !== null) {
      groupOrder *= BigInt(level[3] ?? '1');
      continue;
    }
    if (NUMBERS_LINE.test(line) && options.generators && summary === null) {
      const g = numbers(line);
      const problem = checkPermutation(g, order, `generator ${generators.length}`);
      if (problem !== null) throw unexpected(problem);
      generators.push(g);
      continue;
    }
    const s = SUMMARY_LINE.exec(line);
    if (s !== null && summary === null) {
      summary = s;
      continue;
    }
    if (line.startsWith('canupdates=') && summary !== null) continue;
    throw unexpected(`unexpected line ${JSON.stringify(line.slice(0, 80))} in the search output`);
  }
  if (summary === null) throw unexpected('no summary line ("N orbits; grpsize=...")');
  const [, orbitCount, mantissa, exponent, generatorCount] = summary;
  if (!groupSizeAgrees(groupOrder, mantissa ?? '', exponent)) {
    throw unexpected(`the stabilizer-chain indices multiply to ${groupOrder}, but grpsize is ${mantissa ?? ''}${exponent === undefined ? '' : `e${exponent}`}`);
  }
  if (options.generators && Number(generatorCount) !== generators.length) {
    throw unexpected(`the summary counts ${generatorCount} generators, ${generators.length} were printed`);
  }

  // `b`: the labelling line, then one adjacency line per vertex (the canonical graph, which
  // the caller checks against labelg's by relabelling the input instead of parsing it here).
  const labLine = lines[canonical + 1];
  if (labLine === undefined || !NUMBERS_LINE.test(labLine)) throw unexpected('no canonical labelling line');
  const lab = numbers(labLine);
  const problem = checkPermutation(lab, order, 'the canonical labelling');
  if (problem !== null) throw unexpected(problem);
  if (orbitsAt - canonical - 2 !== order) throw unexpected(`the canonical graph has ${orbitsAt - canonical - 2} rows, not ${order}`);

  const orbitText = lines.slice(orbitsAt + 1, end).join(' ').trim();
  const items = orbitText.split(';').map((item) => item.trim());
  if (items.pop() !== '') throw unexpected('the orbit list does not end with ";"');
  const orbits = items.map((item) => parseOrbit(item, order));
  if (orbits.length !== Number(orbitCount)) throw unexpected(`the summary counts ${orbitCount} orbits, ${orbits.length} were listed`);
  return { lab, groupOrder, generators, orbits };
}

/** Canonical form of a graph as nauty gives it. */
export interface NautyCanonicalForm {
  /** labelg's canonical graph, graph6 without header or newline. */
  graph6: string;
  /** labelling[v] = canonical position of input vertex v (the inverse of nauty's lab). */
  labelling: number[];
  /** |Aut(G)|, exact. */
  groupOrder: bigint;
}

/**
 * Canonical form by labelg, its labelling by dreadnaut. labelg cannot print the labelling it
 * used, so dreadnaut (the same library, the same dense mode and default options) computes it
 * alongside, and the input relabelled by dreadnaut's labelling must be byte-for-byte labelg's
 * graph; anything else is PROVIDER_FAILED. Both run at once; if one fails the other is killed.
 *
 * The graph with no vertices is answered without nauty (dreadnaut needs n ≥ 1): it is its own
 * canonical form, with the trivial group.
 */
export async function nautyCanonicalForm(tools: NautyTools, graph: IndexedGraph, options: Omit<NativeRunOptions, 'maxOutputBytes'>): Promise<NautyCanonicalForm> {
  if (graph.order === 0) return { graph6: encodeGraph6(graph), labelling: [], groupOrder: 1n };
  const input = encodeGraph6(graph);
  const local = new AbortController();
  const signal = options.signal === undefined ? local.signal : AbortSignal.any([options.signal, local.signal]);
  // labelg and dreadnaut run at once: each gets half of the memory budget.
  const run = { signal, deadline: options.deadline, maxOutputBytes: NAUTY_OUTPUT_LIMIT, memoryMb: options.memoryMb === undefined ? undefined : options.memoryMb / 2 };
  const both = Promise.all([
    runNativeTool(tools.labelg, ['-q', '-g'], `${input}\n`, run),
    runNativeTool(tools.dreadnaut, [], dreadnautScript(graph, { generators: false }), run),
  ]);
  let labelgOut: NativeOutput;
  let dreadnautOut: NativeOutput;
  try {
    [labelgOut, dreadnautOut] = await both;
  } catch (error) {
    // Promise.all rejected with the first failure; the other tool's answer is of no use now.
    local.abort();
    throw error;
  }
  requireQuiet('labelg', labelgOut);
  requireQuiet('dreadnaut', dreadnautOut);
  const canonicalLines = labelgOut.stdout.split('\n').filter((line) => line !== '');
  const graph6 = canonicalLines[0];
  if (canonicalLines.length !== 1 || graph6 === undefined) throw new JacobianError('PROVIDER_FAILED', `labelg printed ${canonicalLines.length} graphs for one input`);
  let decoded: IndexedGraph;
  try {
    decoded = decodeGraph6(graph6);
  } catch (error) {
    throw new JacobianError('PROVIDER_FAILED', `labelg printed text that is not graph6: ${toAppError(error).message}`);
  }
  if (decoded.order !== graph.order || decoded.edges.length !== graph.edges.length) {
    throw new JacobianError('PROVIDER_FAILED', `labelg's canonical graph has ${decoded.order} vertices and ${decoded.edges.length} edges, the input ${graph.order} and ${graph.edges.length}`);
  }
  const answer = parseDreadnautOutput(dreadnautOut.stdout, graph.order, { generators: false });
  const labelling = new Array<number>(graph.order);
  for (const [position, v] of answer.lab.entries()) labelling[v] = position;
  if (encodeGraph6(relabel(graph, labelling)) !== graph6) {
    throw new JacobianError('PROVIDER_FAILED', "dreadnaut's canonical labelling does not reproduce labelg's canonical graph; the answer was discarded");
  }
  return { graph6, labelling, groupOrder: answer.groupOrder };
}

/** Automorphism group of a graph as nauty gives it. */
export interface NautyAutomorphismGroup {
  /** |Aut(G)|, exact. */
  order: bigint;
  /** nauty's generators (at most n − 1 of them), as image arrays, each checked to be an automorphism. */
  generators: number[][];
  /** The orbits, each ascending, ordered by least vertex. */
  orbits: number[][];
}

/**
 * Automorphism group by dreadnaut: exact order, generators, orbits. Each generator is checked
 * to be an automorphism and the orbits to be the generators' orbits, with sizes dividing the
 * order; a failed check is PROVIDER_FAILED.
 */
export async function nautyAutomorphismGroup(tools: NautyTools, graph: IndexedGraph, options: Omit<NativeRunOptions, 'maxOutputBytes'>): Promise<NautyAutomorphismGroup> {
  if (graph.order === 0) return { order: 1n, generators: [], orbits: [] };
  const out = await runNativeTool(tools.dreadnaut, [], dreadnautScript(graph, { generators: true }), { ...options, maxOutputBytes: NAUTY_OUTPUT_LIMIT });
  requireQuiet('dreadnaut', out);
  const answer = parseDreadnautOutput(out.stdout, graph.order, { generators: true });
  const problem =
    checkAutomorphisms(graph, answer.generators) ?? checkOrbits(graph.order, answer.orbits, answer.generators, { groupOrder: answer.groupOrder });
  if (problem !== null) throw new JacobianError('PROVIDER_FAILED', `dreadnaut's answer failed its recheck (${problem}); the answer was discarded`);
  return { order: answer.groupOrder, generators: answer.generators, orbits: answer.orbits };
}

/** dreadnaut reports bad input on stderr and still exits 0, so any stderr output is a failure. */
function requireQuiet(tool: string, output: NativeOutput): void {
  if (output.stderr !== '') throw new JacobianError('PROVIDER_FAILED', `${tool} reported: ${output.stderr.slice(0, 500)}`);
}

// ---------------------------------------------------------------------------------------------
// Probe

/** The first executable among `names` in `directories`, symlinks resolved; null when there is none. */
export async function locate(names: readonly string[], directories: readonly string[]): Promise<string | null> {
  for (const directory of directories) {
    for (const name of names) {
      const candidate = path.join(directory, name);
      try {
        await access(candidate, constants.X_OK);
        const real = await realpath(candidate);
        if ((await stat(real)).isFile()) return real;
      } catch {
        // Not here: try the next place.
      }
    }
  }
  return null;
}

async function executable(explicit: string | undefined, names: readonly string[], directories: readonly string[]): Promise<string> {
  const found = explicit === undefined ? await locate(names, directories) : await locate([path.basename(explicit)], [path.dirname(explicit)]);
  if (found === null) {
    const where = explicit ?? `${names.join(' or ')} in ${directories.join(', ')}`;
    throw new JacobianError('PROVIDER_UNAVAILABLE', `nauty is not installed: no executable ${where}; ${INSTALL_HINT}`);
  }
  return found;
}

const PROBE_TIMEOUT_MS = 10_000;

/** `Nauty&Traces version 2.8001 (64 bits)`: what every nauty tool prints for --version. */
async function versionLine(file: string, signal: AbortSignal | undefined): Promise<{ id: string; wordSize: number }> {
  const out = await runNativeTool(file, ['--version'], '', { signal, deadline: Date.now() + PROBE_TIMEOUT_MS, maxOutputBytes: 4096 });
  const match = /Nauty&Traces version (\d+\.\d+) \((\d+) bits\)/.exec(out.stdout);
  if (match === null) throw new Error(`${path.basename(file)} --version printed ${JSON.stringify(out.stdout.slice(0, 100))}, not a nauty version line`);
  return { id: match[1] ?? '', wordSize: Number(match[2]) };
}

/** libnauty shared objects an executable loads, per `ldd`; [] when ldd is absent or the executable is static. */
export async function linkedNautyLibraries(file: string, signal: AbortSignal | undefined): Promise<string[]> {
  const ldd = await locate(['ldd'], ['/usr/bin', '/bin']);
  if (ldd === null) return [];
  try {
    const out = await runNativeTool(ldd, [file], '', { signal, deadline: Date.now() + PROBE_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
    const libraries = [...out.stdout.matchAll(/^\s*(libnauty\S*) => (\/\S+)/gm)].map((m) => m[2] ?? '');
    return await Promise.all(libraries.filter((lib) => lib !== '').map((lib) => realpath(lib)));
  } catch {
    return [];
  }
}

/** One file of a provider's identity: its role, name, size and digest. */
export interface Component {
  role: string;
  file: string;
  bytes: number;
  sha256: string;
}

export async function component(role: string, file: string): Promise<{ component: Component; content: Buffer }> {
  const content = await readFile(file);
  return { component: { role, file: path.basename(file), bytes: content.length, sha256: sha256Hex(new Uint8Array(content)) }, content };
}

/**
 * The release ("2.8.6"). `--version` prints NAUTYVERSIONID / 10000 (2.8001 for Debian's 2.8.6
 * build), which does not name the release; dreadnaut embeds the release for its interactive
 * banner ("2.8.6 (64 bits)"), so it is read from there when it agrees with the version id's
 * major.minor, and the version id is the version otherwise.
 */
function releaseOf(dreadnaut: Buffer, id: string, wordSize: number): string {
  const text = dreadnaut.toString('latin1');
  for (const match of text.matchAll(/(\d+)\.(\d+)\.(\d+) \((\d+) bits\)/g)) {
    // The version id starts with the release's major.minor: 2.8001 for 2.8.x, 2.10xx for 2.10.x.
    if (Number(match[4]) === wordSize && id.startsWith(`${match[1]}.${match[2]}`)) return `${match[1]}.${match[2]}.${match[3]}`;
  }
  return id;
}

/** Two graphs with known answers: the Petersen graph (|Aut| = 120) and the pentagonal prism (|Aut| = 20). */
const PETERSEN: IndexedGraph = {
  order: 10,
  edges: PETERSEN_EXAMPLE.edges.map(([u, v]): [number, number] => (u < v ? [u, v] : [v, u])).sort((a, b) => a[0] - b[0] || a[1] - b[1]),
};
const PRISM: IndexedGraph = {
  order: 10,
  edges: [
    ...Array.from({ length: 5 }, (_, i): [number, number] => [Math.min(i, (i + 1) % 5), Math.max(i, (i + 1) % 5)]),
    ...Array.from({ length: 5 }, (_, i): [number, number] => [5 + Math.min(i, (i + 1) % 5), 5 + Math.max(i, (i + 1) % 5)]),
    ...Array.from({ length: 5 }, (_, i): [number, number] => [i, i + 5]),
  ].sort((a, b) => a[0] - b[0] || a[1] - b[1]),
};

/**
 * Health check on answers that do not depend on nauty's release: two labellings of the
 * Petersen graph get one canonical form, the pentagonal prism (also cubic on 10 vertices) gets
 * another; the group orders are 120 and 20; dreadnaut's generators of the Petersen group are
 * automorphisms with one orbit. Each call also runs the labelg/dreadnaut agreement check.
 */
async function healthCheck(tools: NautyTools, signal: AbortSignal | undefined): Promise<void> {
  const options = { signal, deadline: Date.now() + PROBE_TIMEOUT_MS };
  const shuffle = Array.from({ length: 10 }, (_, v) => (3 * v + 7) % 10);
  const [petersen, shuffled, prism, group] = await Promise.all([
    nautyCanonicalForm(tools, PETERSEN, options),
    nautyCanonicalForm(tools, relabel(PETERSEN, shuffle), options),
    nautyCanonicalForm(tools, PRISM, options),
    nautyAutomorphismGroup(tools, PETERSEN, options),
  ]);
  if (petersen.graph6 !== shuffled.graph6) throw new Error(`two labellings of the Petersen graph got different canonical forms (${petersen.graph6}, ${shuffled.graph6})`);
  if (prism.graph6 === petersen.graph6) throw new Error('the pentagonal prism got the canonical form of the Petersen graph');
  if (petersen.groupOrder !== 120n || prism.groupOrder !== 20n) throw new Error(`group orders ${petersen.groupOrder} and ${prism.groupOrder}, expected 120 and 20`);
  if (group.order !== 120n || group.orbits.length !== 1) throw new Error(`the Petersen group came out with order ${group.order} and ${group.orbits.length} orbits`);
}

/** A successful probe: the runtime record and the tools it describes. */
export interface NautyProbeResult {
  runtime: ProviderRuntime;
  tools: NautyTools;
}

/**
 * Find nauty, identify it and prove it healthy.
 *
 * The digest is COMPOSITE: sha256 over the canonical JSON list of (role, file name, size,
 * sha256) of labelg, dreadnaut and the libnauty shared objects they load (per `ldd`; the
 * executables are thin and the algorithms live in libnauty).
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE when an executable is missing, is not nauty, or
 *   fails the health check; the message says which and how to install nauty.
 */
export async function probeNautyProvider(options: NautyProbeOptions = {}, signal?: AbortSignal): Promise<NautyProbeResult> {
  const directories = options.directories ?? DEFAULT_NAUTY_DIRECTORIES;
  const labelg = await executable(options.labelg, LABELG_NAMES, directories);
  const dreadnaut = await executable(options.dreadnaut, DREADNAUT_NAMES, directories);
  try {
    const [labelgVersion, dreadnautVersion] = await Promise.all([versionLine(labelg, signal), versionLine(dreadnaut, signal)]);
    if (labelgVersion.id !== dreadnautVersion.id || labelgVersion.wordSize !== dreadnautVersion.wordSize) {
      throw new Error(`labelg is ${labelgVersion.id} (${labelgVersion.wordSize} bits) but dreadnaut is ${dreadnautVersion.id} (${dreadnautVersion.wordSize} bits)`);
    }
    const libraries = [...new Set([...(await linkedNautyLibraries(labelg, signal)), ...(await linkedNautyLibraries(dreadnaut, signal))])].sort();
    const labelgPart = await component('labelg', labelg);
    const dreadnautPart = await component('dreadnaut', dreadnaut);
    const libraryParts = await Promise.all(libraries.map((lib) => component('library', lib)));
    const tools: NautyTools = {
      labelg,
      dreadnaut,
      version: releaseOf(dreadnautPart.content, dreadnautVersion.id, dreadnautVersion.wordSize),
      wordSize: dreadnautVersion.wordSize,
    };
    const digest = canonicalDigest([labelgPart.component, dreadnautPart.component, ...libraryParts.map((part) => part.component)]);
    const identity = { provider: NAUTY_PROVIDER, version: tools.version, digest_kind: 'COMPOSITE', digest, platform: platformTag(), paths: [labelg, dreadnaut, ...libraries], check_module: fileURLToPath(import.meta.url) };
    await ensureHealthy(options.health, () => identity, () => healthCheck(tools, signal));
    const copyright = path.join(path.dirname(path.dirname(labelg)), 'share', 'doc', 'nauty', 'copyright');
    const licenseFiles = await access(copyright, constants.R_OK).then(
      () => [copyright],
      () => [],
    );
    const runtime = ProviderRuntimeSchema.parse({
      provider: NAUTY_PROVIDER,
      availability: 'AVAILABLE',
      version: tools.version,
      digest_kind: 'COMPOSITE',
      digest,
      platform: platformTag(),
      install_tier: 'T1',
      license_id: 'Apache-2.0',
      license_files: licenseFiles,
      features: ['canonical-labelling', 'automorphism-group', 'dense-nauty', `wordsize-${tools.wordSize}`, ...(libraries.length > 0 ? ['libnauty-digested'] : [])],
    });
    return { runtime, tools };
  } catch (error) {
    const cause = toAppError(error);
    if (cause.code === 'EXECUTION_CANCELLED') throw cause;
    throw new JacobianError('PROVIDER_UNAVAILABLE', `nauty failed its probe (${labelg}, ${dreadnaut}): ${cause.message}; ${INSTALL_HINT}`, { cause: error });
  }
}

/** The nauty provider probe, remembering the tools its last successful probe vouched for. */
export interface NautyProbe extends ProviderProbe {
  /** The tools of the last successful probe; undefined before one. */
  readonly tools: NautyTools | undefined;
}

/**
 * A {@link ProviderProbe} for nauty. A capability created for the runtime it returns runs the
 * executables in {@link NautyProbe.tools}, the ones the probe identified and checked.
 */
export function nautyProvider(options: NautyProbeOptions = {}): NautyProbe {
  let tools: NautyTools | undefined;
  return {
    name: NAUTY_PROVIDER,
    get tools() {
      return tools;
    },
    async probe(signal) {
      const result = await probeNautyProvider(options, signal);
      tools = result.tools;
      return result.runtime;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Provider selection

/** Options of {@link firstHealthyOf}. */
export interface FirstHealthyOptions {
  /** Told about each candidate passed over and why, e.g. to log that nauty is missing. */
  onSkipped?: (provider: string, reason: string) => void;
}

/**
 * A probe that answers with the runtime of the first of `candidates` whose probe succeeds, in
 * order. One capability ID registers with it, and its `create(runtime)` picks the
 * implementation by `runtime.provider`; so the catalog names the provider that actually serves.
 * Fails (PROVIDER_UNAVAILABLE, every reason listed) only when none is healthy.
 */
export function firstHealthyOf(candidates: readonly ProviderProbe[], options: FirstHealthyOptions = {}): ProviderProbe {
  if (candidates.length === 0) throw new JacobianError('REGISTRATION_INVALID', 'firstHealthyOf needs at least one candidate provider');
  const names = candidates.map((candidate) => candidate.name);
  return {
    name: `first-healthy-of(${names.join(', ')})`,
    // In a slow check when the candidate it is waiting for is (those before it failed).
    ...(candidates.some((candidate) => candidate.checking !== undefined)
      ? { checking: Promise.race(candidates.flatMap((candidate) => (candidate.checking === undefined ? [] : [candidate.checking]))) }
      : {}),
    async probe(signal) {
      const reasons: string[] = [];
      for (const candidate of candidates) {
        if (signal?.aborted === true) throw new JacobianError('EXECUTION_CANCELLED', 'provider probing was cancelled');
        try {
          return ProviderRuntimeSchema.parse(await candidate.probe(signal));
        } catch (error) {
          const reason = toAppError(error).message;
          reasons.push(`${candidate.name}: ${reason}`);
          options.onSkipped?.(candidate.name, reason);
        }
      }
      throw new JacobianError('PROVIDER_UNAVAILABLE', `no healthy provider among ${names.join(', ')}: ${reasons.join('; ')}`);
    },
  };
}

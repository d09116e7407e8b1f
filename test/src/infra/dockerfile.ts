/**
 * A small reader of Dockerfiles and .dockerignore files, for tests that check the role images
 * without a Docker daemon.
 *
 * Dockerfiles: parser directives (`# escape=`), comment lines (also inside a continued
 * instruction), line continuations, JSON (exec) and shell forms, `--flag=value` options, and
 * stages (`FROM image AS name`). Heredocs (`RUN <<EOF`) are not supported and are rejected, so a
 * file that uses them fails loudly instead of being misread.
 *
 * .dockerignore: Docker's rules (moby/patternmatcher): patterns are cleaned paths relative to the
 * context root, `*` and `?` stay inside one path segment, `**` spans segments, `!` re-includes,
 * the last matching pattern decides, and a pattern that matches a folder matches what is in it.
 */

export interface DockerInstruction {
  /** The instruction in upper case: FROM, RUN, COPY… */
  readonly keyword: string;
  /** Everything after the keyword, continuation lines joined by a space. */
  readonly raw: string;
  /** Leading `--name=value` options (`--link` alone gives the value ''). */
  readonly flags: Readonly<Record<string, string>>;
  /** The arguments in exec form, when they are a JSON array of strings. */
  readonly json: readonly string[] | undefined;
  /** The arguments after the flags as shell words, quotes removed (JSON form: the array). */
  readonly args: readonly string[];
  /** Line of the keyword, from 1. */
  readonly line: number;
}

export interface DockerStage {
  /** The base image as written (`node:24-bookworm-slim`, or an earlier stage's name). */
  readonly base: string;
  /** The `AS` name, lower case as Docker treats it; undefined for an unnamed stage. */
  readonly name: string | undefined;
  readonly from: DockerInstruction;
  /** The stage's instructions after its FROM. */
  readonly instructions: readonly DockerInstruction[];
}

export interface Dockerfile {
  /** Instructions before the first FROM (ARG only, in a valid file). */
  readonly preamble: readonly DockerInstruction[];
  readonly stages: readonly DockerStage[];
}

/** Splits shell-form text into words: whitespace separates, quotes group, `\` escapes. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text.charAt(i + 1))) current += text.charAt(++i);
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      current += text.charAt(++i);
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new Error(`unterminated ${quote} quote in: ${text}`);
  if (inWord) words.push(current);
  return words;
}

function parseJsonArray(text: string): string[] | undefined {
  if (!text.startsWith('[')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Docker runs a malformed JSON array as a shell command; so do we.
    return undefined;
  }
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/** Keywords that take leading `--flag` options. */
const FLAGGED = new Set(['FROM', 'RUN', 'COPY', 'ADD', 'HEALTHCHECK']);

function instruction(keyword: string, raw: string, line: number): DockerInstruction {
  let rest = raw.trim();
  const flags: Record<string, string> = {};
  if (FLAGGED.has(keyword)) {
    for (let match = /^--([a-z][a-z0-9-]*)(?:=(\S*))?\s*/.exec(rest); match !== null; match = /^--([a-z][a-z0-9-]*)(?:=(\S*))?\s*/.exec(rest)) {
      flags[match[1] ?? ''] = match[2] ?? '';
      rest = rest.slice(match[0].length);
    }
  }
  if ((keyword === 'RUN' || keyword === 'COPY' || keyword === 'ADD') && /^<<-?["']?[A-Za-z_]/.test(rest)) {
    throw new Error(`line ${line}: heredocs are not supported by this reader`);
  }
  const json = parseJsonArray(rest);
  return { keyword, raw: raw.trim(), flags, json, args: json ?? shellWords(rest), line };
}

/** Parses a Dockerfile into its preamble and stages; throws on text it cannot read. */
export function parseDockerfile(text: string): Dockerfile {
  const lines = text.split(/\r?\n/);
  let escape = '\\';
  // Parser directives: `# key=value` lines at the very top, before any other comment or instruction.
  for (const line of lines) {
    const directive = /^#\s*([a-zA-Z]+)\s*=\s*(\S+)\s*$/.exec(line);
    if (directive === null) break;
    if (directive[1]?.toLowerCase() === 'escape') escape = directive[2] ?? '\\';
  }
  const all: DockerInstruction[] = [];
  let pending: { keyword: string; parts: string[]; line: number } | undefined;
  lines.forEach((text, index) => {
    const trimmed = text.trim();
    if (trimmed.startsWith('#')) return;
    if (trimmed === '') {
      // An empty line inside a continued instruction is skipped; elsewhere it separates nothing.
      return;
    }
    const continues = trimmed.endsWith(escape);
    const body = continues ? trimmed.slice(0, -escape.length) : trimmed;
    if (pending === undefined) {
      const match = /^(\S+)\s*([\s\S]*)$/.exec(body);
      if (match === null) return;
      pending = { keyword: (match[1] ?? '').toUpperCase(), parts: [match[2] ?? ''], line: index + 1 };
    } else {
      pending.parts.push(body);
    }
    if (!continues) {
      all.push(instruction(pending.keyword, pending.parts.join(' '), pending.line));
      pending = undefined;
    }
  });
  if (pending !== undefined) all.push(instruction(pending.keyword, pending.parts.join(' '), pending.line));

  const preamble: DockerInstruction[] = [];
  const stages: { base: string; name: string | undefined; from: DockerInstruction; instructions: DockerInstruction[] }[] = [];
  for (const ins of all) {
    if (ins.keyword === 'FROM') {
      const [base, as, name, ...extra] = ins.args;
      if (base === undefined || (as !== undefined && (as.toUpperCase() !== 'AS' || name === undefined)) || extra.length > 0) {
        throw new Error(`line ${ins.line}: FROM needs "image [AS name]", got: ${ins.raw}`);
      }
      stages.push({ base, name: name?.toLowerCase(), from: ins, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (stage === undefined) preamble.push(ins);
      else stage.instructions.push(ins);
    }
  }
  return { preamble, stages };
}

/** `KEY=value` pairs of a LABEL or ENV instruction (the old `ENV KEY value` form too). */
export function keyValues(ins: DockerInstruction): Map<string, string> {
  const pairs = new Map<string, string>();
  const first = ins.args[0];
  if (ins.keyword === 'ENV' && first !== undefined && !first.includes('=')) {
    pairs.set(first, ins.args.slice(1).join(' '));
    return pairs;
  }
  for (const word of ins.args) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new Error(`line ${ins.line}: ${ins.keyword} expects KEY=value pairs, got ${word}`);
    pairs.set(word.slice(0, eq), word.slice(eq + 1));
  }
  return pairs;
}

/** One .dockerignore rule. */
interface IgnoreRule {
  readonly pattern: string;
  readonly negated: boolean;
  readonly regex: RegExp;
}

/** Go's filepath.Clean for slash-separated relative paths. */
function cleanPath(p: string): string {
  const out: string[] = [];
  for (const segment of p.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && out.at(-1) !== '..') out.pop();
    else out.push(segment);
  }
  return out.join('/') || '.';
}

/** The regular expression of a .dockerignore pattern (moby/patternmatcher's translation). */
function patternRegex(pattern: string): RegExp {
  let source = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === '*') {
      if (pattern.charAt(i + 1) === '*') {
        i++;
        // `**/` also matches no folder at all; a trailing `**` matches everything below.
        if (pattern.charAt(i + 1) === '/') {
          i++;
          source += '(?:.*/)?';
        } else {
          source += '.*';
        }
      } else {
        source += '[^/]*';
      }
    } else if (c === '?') {
      source += '[^/]';
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) throw new Error(`.dockerignore: unterminated [ in ${pattern}`);
      const body = pattern.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
      source += `[${body}]`;
      i = end;
    } else if (c === '\\' && i + 1 < pattern.length) {
      source += pattern.charAt(++i).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else {
      source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  return new RegExp(`${source}$`);
}

export interface DockerIgnore {
  /** Whether Docker leaves `relativePath` (slash-separated, from the context root) out of the context. */
  excludes(relativePath: string): boolean;
}

/** Parses a .dockerignore file. */
export function parseDockerIgnore(text: string): DockerIgnore {
  const rules: IgnoreRule[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('#')) continue;
    let pattern = line.trim();
    if (pattern === '') continue;
    const negated = pattern.startsWith('!');
    if (negated) pattern = pattern.slice(1).trim();
    if (pattern === '') continue;
    pattern = cleanPath(pattern.replace(/^\/+/, ''));
    rules.push({ pattern, negated, regex: patternRegex(pattern) });
  }
  return {
    excludes(relativePath: string): boolean {
      const path = cleanPath(relativePath);
      const segments = path.split('/');
      // The path itself and each folder above it: a pattern matching a folder matches its contents.
      const candidates = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
      let excluded = false;
      for (const rule of rules) {
        if (candidates.some((candidate) => rule.regex.test(candidate))) excluded = !rule.negated;
      }
      return excluded;
    },
  };
}

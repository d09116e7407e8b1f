/**
 * Peer tools (geng, cvc5, CaDiCaL, Singular) run as a user runs them from a shell: bash starts
 * the tool (a fork of bash, then the tool's exec, with its redirections), and bash itself takes
 * the time, `$EPOCHREALTIME` just before and just after, as `time` would.
 *
 * Each shell is a long-lived bash that reads one command at a time on its stdin and answers with
 * a line once the tool has exited; several run at once when peers do. Nothing of the benchmark's
 * own process is in the measured time: no fork of it, no message to it.
 *
 * Why not a Node process: a spawn from Node forks the whole Node process. From the benchmark's own
 * process (150–200 MB) a spawn took 2.5–3.5 ms; from a small Node launcher (the runner's
 * NativeLauncher, which the peers used until 2026-12-01) it still cost about 1 ms more than from
 * bash: `nauty-geng -qt 10 > file`, 120 rounds alternating on this project's test machine, took
 * 31.72 ms (median) from the Node launcher, 30.79 ms from a bash-like shell (dash reading
 * commands, timed from outside, so also charged its two messages), median paired difference
 * 1.06 ms. That extra millisecond flattered every ratio against a short peer run.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { LaunchExit, LaunchRequest } from '@jacobian/runner';
import { descendants } from '@jacobian/shared/testing';
import type { BenchContext } from './context.js';
import { childEnvironment } from './proc.js';

/**
 * What to run, as from a shell: `file args… <stdinFile >stdoutFile` with exactly `env` (the
 * runner's LaunchRequest). Unlike the launcher, the shell truncates the stdout file as it opens
 * it, and runPeer removes the stdin and stdout files once the tool has exited (the caller keeps a
 * descriptor of the stdout file open to read it).
 */
export type PeerRequest = LaunchRequest;

/** How a peer run ended (`ms`: taken by bash, from just before it started the tool to just after it exited). */
export interface PeerRun extends LaunchExit {
  killedAtBudget: boolean;
}

/**
 * The shell's loop. A command is: a count and that many lines (the executable and its
 * arguments), a count and that many `NAME=value` lines (the whole environment), then the stdin,
 * stdout and stderr paths (an empty stdin or stdout: /dev/null). The environment is set with
 * builtins (no fork). The answer is `<status> <start> <end>` (EPOCHREALTIME, microseconds).
 */
const SHELL_LOOP = [
  'while IFS= read -r k; do',
  '  cmd=(); for ((i = 0; i < k; i++)); do IFS= read -r x; cmd+=("$x"); done',
  '  IFS= read -r k; vars=(); for ((i = 0; i < k; i++)); do IFS= read -r x; vars+=("$x"); done',
  '  IFS= read -r in; IFS= read -r out; IFS= read -r err',
  '  for name in $(compgen -e); do unset "$name" 2>/dev/null; done',
  '  for x in "${vars[@]}"; do export "$x"; done',
  '  a=$EPOCHREALTIME',
  '  "${cmd[@]}" <"${in:-/dev/null}" >"${out:-/dev/null}" 2>"$err"',
  '  s=$?',
  '  b=$EPOCHREALTIME',
  '  printf "%s %s %s\\n" "$s" "$a" "$b"',
  'done',
].join('\n');

type Bash = ChildProcessByStdio<Writable, Readable, null>;

interface Shell {
  bash: Bash;
  /** The next answer line, for the command being run. */
  answer: ((line: string | null) => void) | null;
}

interface Shells {
  idle: Shell[];
  all: Set<Shell>;
}

const shellsOf = new WeakMap<BenchContext, Shells>();

function shells(context: BenchContext): Shells {
  let known = shellsOf.get(context);
  if (known === undefined) {
    const created: Shells = { idle: [], all: new Set() };
    known = created;
    shellsOf.set(context, created);
    context.cleanups.push(() => stopPeerShells(context));
  }
  return known;
}

/** Stop the peer shells of `context` (and whatever they still run); the next peer run starts new ones. */
export async function stopPeerShells(context: BenchContext): Promise<void> {
  const pool = shellsOf.get(context);
  if (pool === undefined) return;
  shellsOf.delete(context);
  await Promise.all([...pool.all].map((shell) => stopShell(shell)));
}

function startShell(context: BenchContext, pool: Shells): Shell {
  // The environment only starts the shell: each command sets the tool's own.
  const bash: Bash = spawn('/bin/bash', ['--noprofile', '--norc', '-c', SHELL_LOOP], { stdio: ['pipe', 'pipe', 'inherit'], env: childEnvironment(context.runTag, { LC_ALL: 'C' }) });
  const shell: Shell = { bash, answer: null };
  bash.stdin.on('error', () => undefined);
  createInterface({ input: bash.stdout, crlfDelay: Infinity }).on('line', (line) => {
    const answer = shell.answer;
    shell.answer = null;
    answer?.(line);
  });
  bash.on('close', () => {
    pool.all.delete(shell);
    const index = pool.idle.indexOf(shell);
    if (index >= 0) pool.idle.splice(index, 1);
    const answer = shell.answer;
    shell.answer = null;
    answer?.(null);
  });
  pool.all.add(shell);
  return shell;
}

async function stopShell(shell: Shell): Promise<void> {
  const { bash } = shell;
  if (bash.exitCode !== null || bash.signalCode !== null) return;
  const closed = new Promise<void>((done) => bash.once('close', () => done()));
  killTools(shell);
  bash.stdin.end();
  const timer = setTimeout(() => bash.kill('SIGKILL'), 5000);
  await closed;
  clearTimeout(timer);
}

/** SIGKILL to whatever the shell runs (its children, by pid). */
function killTools(shell: Shell): void {
  const pid = shell.bash.pid;
  if (pid === undefined) return;
  for (const child of descendants(pid)) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

function checkedLine(what: string, value: string): string {
  if (value.includes('\n') || value.includes('\0')) throw new Error(`peer ${what} holds a newline or a NUL byte: ${JSON.stringify(value)}`);
  return value;
}

/** Microseconds since the epoch from `$EPOCHREALTIME` (seconds with six decimals). */
function micros(text: string | undefined): number {
  // The decimal separator follows the shell's locale, which the tool's environment sets.
  const match = /^(\d+)[.,](\d{6})$/.exec(text ?? '');
  if (match === null) throw new Error(`bash answered with a time that is not EPOCHREALTIME: ${JSON.stringify(text)}`);
  return Number(match[1]) * 1e6 + Number(match[2]);
}

/**
 * Run a peer tool from a shell (see the module comment); with `budgetMs`, SIGKILL when it runs
 * longer (timed here). Its stdin and stdout files are removed once it has exited, so the caller
 * keeps a descriptor of the stdout file open to read what the tool wrote.
 */
export async function runPeer(context: BenchContext, request: PeerRequest, budgetMs?: number): Promise<PeerRun> {
  const lines = [String(request.args.length + 1), checkedLine('file', request.file), ...request.args.map((arg) => checkedLine('argument', arg))];
  const vars = Object.entries(request.env).map(([name, value]) => checkedLine('environment', `${name}=${value}`));
  const errFile = join(context.dir, `peer-stderr-${process.pid}-${Math.random().toString(36).slice(2)}`);
  lines.push(String(vars.length), ...vars, checkedLine('stdin', request.stdinFile ?? ''), checkedLine('stdout', request.stdoutFile ?? ''), errFile);
  const pool = shells(context);
  const shell = pool.idle.pop() ?? startShell(context, pool);
  let killedAtBudget = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answered = new Promise<string | null>((done) => {
      shell.answer = done;
    });
    shell.bash.stdin.write(`${lines.join('\n')}\n`);
    if (budgetMs !== undefined) {
      timer = setTimeout(() => {
        killedAtBudget = true;
        killTools(shell);
      }, budgetMs);
    }
    const line = await answered;
    if (line === null) throw new Error(`the peer shell (pid ${String(shell.bash.pid)}) exited while running ${request.file}`);
    const [status, start, end] = line.split(' ');
    const code = Number(status);
    if (!Number.isInteger(code)) throw new Error(`the peer shell answered ${JSON.stringify(line)}`);
    // As bash reports it: 128 + n for a tool killed by signal n.
    const signal = code > 128 ? (Object.entries(constants.signals).find(([, number]) => number === code - 128)?.[0] ?? null) : null;
    pool.idle.push(shell);
    return { code: signal === null ? code : null, signal, stderr: readHead(errFile, request.stderrLimit), ms: (micros(end) - micros(start)) / 1000, killedAtBudget };
  } finally {
    clearTimeout(timer);
    for (const file of [errFile, request.stdinFile ?? null, request.stdoutFile]) if (file !== null) rmSync(file, { force: true });
  }
}

/** The first `limit` bytes of `file`, as text ('' when it is missing). */
function readHead(file: string, limit: number): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const bytes = Buffer.alloc(limit);
    return bytes.toString('utf8', 0, readSync(fd, bytes, 0, limit, 0));
  } finally {
    closeSync(fd);
  }
}

import { spawn } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LaunchFileError, NativeLauncher, type LaunchRequest } from './launcher.js';

const SH = '/bin/sh';

/** Whether a process with this pid runs: a zombie (exited, not yet reaped by whoever inherited it) does not. */
function alive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // The state follows the command name, which is in parentheses and may hold anything.
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each([{ shells: true }, { shells: false }])('NativeLauncher (shells: $shells)', ({ shells }) => {
  let dir: string;
  let launcher: NativeLauncher;
  const sh = (script: string, extra: Partial<LaunchRequest> = {}): LaunchRequest => ({ file: SH, args: ['-c', script], env: {}, stdoutFile: null, stderrLimit: 1024, ...extra });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'jacobian-launcher-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await launcher.close();
  });

  /** Run `body` with a new output file (held open here: the launcher unlinks it), and return what was written to it. */
  async function captured(name: string, body: (file: string) => Promise<void>): Promise<string> {
    const fd = openSync(join(dir, name), 'w+');
    try {
      await body(join(dir, name));
      const bytes = Buffer.alloc(64 * 1024);
      return bytes.toString('utf8', 0, readSync(fd, bytes, 0, bytes.length, 0));
    } finally {
      closeSync(fd);
    }
  }

  it('runs a tool into a file it unlinks once opened, and reports its status, stderr and time', async () => {
    launcher = new NativeLauncher({ shells });
    const written = await captured('out', async (file) => {
      const tool = await launcher.launch(sh('printf "one\\ntwo\\n"; printf "a complaint" >&2; exit 3', { stdoutFile: file, env: { LC_ALL: 'C' } }));
      expect(tool.pid).toBeGreaterThan(0);
      const exit = await tool.exited;
      expect(exit).toMatchObject({ code: 3, signal: null, stderr: 'a complaint' });
      expect(exit.ms).toBeGreaterThan(0);
      expect(existsSync(file)).toBe(false);
    });
    expect(written).toBe('one\ntwo\n');
  });

  it('passes exactly the environment asked for, keeps at most stderrLimit bytes of stderr, and discards stdout when there is no file', async () => {
    launcher = new NativeLauncher({ shells });
    const env = await captured('env', async (file) => {
      await (await launcher.launch(sh('env', { stdoutFile: file, env: { ONLY: 'this one' } }))).exited;
    });
    // The shell adds PWD, SHLVL and _ of its own.
    expect(env.split('\n').filter((line) => line !== '' && !/^(PWD|SHLVL|_)=/.test(line))).toEqual(['ONLY=this one']);
    const long = await (await launcher.launch(sh('printf "%0200d" 0 >&2; echo to nowhere', { stderrLimit: 50 }))).exited;
    expect(long.stderr).toBe('0'.repeat(50));
  });

  it('feeds a tool its stdin from a file it unlinks once opened', async () => {
    launcher = new NativeLauncher({ shells });
    const input = join(dir, 'in');
    await writeFile(input, 'line one\nline two\n');
    const copy = await captured('copy', async (file) => {
      expect((await (await launcher.launch({ file: '/bin/cat', args: [], env: {}, stdinFile: input, stdoutFile: file, stderrLimit: 64 })).exited).code).toBe(0);
      expect(existsSync(input)).toBe(false);
    });
    expect(copy).toBe('line one\nline two\n');
  });

  it('refuses what cannot be started: a missing executable, a stdin or stdout file that is not there', async () => {
    launcher = new NativeLauncher({ shells });
    await expect(launcher.launch({ ...sh(''), file: join(dir, 'no-such-tool') })).rejects.toThrow(/ENOENT/);
    await expect(launcher.launch(sh('true', { stdoutFile: join(dir, 'missing', 'out') }))).rejects.toThrow(/stdout .*missing.* could not be opened/);
    await expect(launcher.launch(sh('true', { stdinFile: join(dir, 'missing', 'in') }))).rejects.toThrow(/stdin .*missing.* could not be opened/);
    // The file that could not be opened is named; stdout is opened first, so a stdin file is left in place when stdout fails.
    const input = join(dir, 'kept-input');
    await writeFile(input, 'kept');
    const refused = await launcher.launch(sh('cat', { stdinFile: input, stdoutFile: join(dir, 'missing', 'out') })).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LaunchFileError);
    expect((refused as LaunchFileError).opening).toBe('stdout');
    expect(existsSync(input)).toBe(true);
    expect(await launcher.launch(sh('true', { stdinFile: join(dir, 'missing', 'in') })).catch((error: unknown) => (error as LaunchFileError).opening)).toBe('stdin');
    // A malformed request (only a cast gets one past the types) is refused, not left unanswered.
    await expect(launcher.launch({ ...sh('true'), file: 42 as unknown as string })).rejects.toThrow(/malformed/);
    // It still works afterwards.
    expect((await (await launcher.launch(sh('exit 0'))).exited).code).toBe(0);
  });

  it('reopens a file without a name through /proc for stdout, and leaves it to its holder', async () => {
    launcher = new NativeLauncher({ shells });
    // O_TMPFILE (Linux's __O_TMPFILE with O_DIRECTORY): a file in `dir` that has no name.
    const fd = openSync(dir, 0o20000000 | constants.O_DIRECTORY | constants.O_RDWR, 0o600);
    try {
      const file = `/proc/${process.pid}/fd/${fd}`;
      expect((await (await launcher.launch(sh('echo unnamed', { stdoutFile: file }))).exited).code).toBe(0);
      const bytes = Buffer.alloc(64);
      expect(bytes.toString('utf8', 0, readSync(fd, bytes, 0, bytes.length, 0))).toBe('unnamed\n');
      // Nothing was unlinked (it has no name): the same descriptor takes a second run, written from the start again.
      expect((await (await launcher.launch(sh('echo again', { stdoutFile: file }))).exited).code).toBe(0);
      expect(bytes.toString('utf8', 0, readSync(fd, bytes, 0, bytes.length, 0))).toBe('again\nd\n');
    } finally {
      closeSync(fd);
    }
  });

  it('kills a tool on request, and keeps concurrent tools apart', async () => {
    launcher = new NativeLauncher({ shells });
    const sleeper = await launcher.launch(sh('exec sleep 30'));
    const files = Array.from({ length: 12 }, (_, index) => join(dir, `many-${index}`));
    const fds = files.map((file) => openSync(file, 'w+'));
    try {
      const runs = await Promise.all(files.map((file, index) => launcher.launch(sh(`echo ${index}`, { stdoutFile: file }))));
      const exits = await Promise.all(runs.map((run) => run.exited));
      expect(exits.every((exit) => exit.code === 0)).toBe(true);
      fds.forEach((fd, index) => {
        const bytes = Buffer.alloc(16);
        expect(bytes.toString('utf8', 0, readSync(fd, bytes, 0, 16, 0))).toBe(`${index}\n`);
      });
    } finally {
      fds.forEach((fd) => closeSync(fd));
    }
    sleeper.kill();
    expect(await sleeper.exited).toMatchObject({ code: null, signal: 'SIGKILL' });
    expect(alive(sleeper.pid)).toBe(false);
  });

  it('when the launcher dies, kills what it ran, reports it lost, and starts anew on the next launch', async () => {
    launcher = new NativeLauncher({ shells });
    const sleeper = await launcher.launch(sh('exec sleep 30'));
    const first = launcher.pid;
    expect(first).toBeGreaterThan(0);
    process.kill(first!, 'SIGKILL');
    await expect(sleeper.exited).rejects.toThrow(/launcher exited with signal SIGKILL/);
    await until(() => !alive(sleeper.pid), `the orphaned tool ${sleeper.pid} is gone`);
    const next = await (await launcher.launch(sh('exit 7'))).exited;
    expect(next.code).toBe(7);
    expect(launcher.pid).not.toBe(first);
  });

  it('close() kills what runs and refuses later launches', async () => {
    launcher = new NativeLauncher({ shells });
    const sleeper = await launcher.launch(sh('exec sleep 30'));
    const pid = launcher.pid!;
    await launcher.close();
    expect(alive(pid)).toBe(false);
    await until(() => !alive(sleeper.pid), `the tool ${sleeper.pid} is gone`);
    await expect(launcher.launch(sh('true'))).rejects.toThrow(/closed/);
  });

  it('never keeps its process alive once nothing runs, and goes away with it', async () => {
    launcher = new NativeLauncher({ shells });
    const module = fileURLToPath(new URL('./launcher.ts', import.meta.url));
    const script = `import { NativeLauncher } from ${JSON.stringify(module)};
const launcher = new NativeLauncher({ shells: ${String(shells)} });
const exit = await (await launcher.launch({ file: '/bin/sh', args: ['-c', 'exit 5'], env: {}, stdoutFile: null, stderrLimit: 64 })).exited;
process.stdout.write(JSON.stringify({ code: exit.code, launcher: launcher.pid }));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    const reported = JSON.parse(out) as { code: number; launcher: number };
    expect(reported.code).toBe(5);
    await until(() => !alive(reported.launcher), `the launcher ${reported.launcher} is gone`);
  });
});

describe('NativeLauncher through its shells', () => {
  let dir: string;
  let launcher: NativeLauncher;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'jacobian-launcher-shells-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await launcher.close();
  });

  /** The pids of the children of `pid` (Linux). */
  function childrenOf(pid: number): number[] {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter((text) => text !== '').map(Number);
  }

  /** The parent of `pid`. */
  function parentOf(pid: number): number {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }

  it('gives the tool exactly the environment asked for, with nothing of the shell', async () => {
    launcher = new NativeLauncher();
    const fd = openSync(join(dir, 'env'), 'w+');
    try {
      const exit = await (await launcher.launch({ file: '/usr/bin/env', args: [], env: { ONLY: 'this one', LC_ALL: 'C' }, stdoutFile: join(dir, 'env'), stderrLimit: 64 })).exited;
      expect(exit.code).toBe(0);
      const bytes = Buffer.alloc(1024);
      expect(bytes.toString('utf8', 0, readSync(fd, bytes, 0, bytes.length, 0)).split('\n').filter((line) => line !== '').sort()).toEqual(['LC_ALL=C', 'ONLY=this one']);
    } finally {
      closeSync(fd);
    }
  });

  it('runs the tool as a child of a shell it reuses, one per environment, and reports exit codes above 128 that are no signal as codes', async () => {
    launcher = new NativeLauncher();
    const parents = new Set<number>();
    for (const code of [0, 4, 200]) {
      const tool = await launcher.launch({ file: SH, args: ['-c', `sleep 0.05; exit ${code}`], env: { LC_ALL: 'C' }, stdoutFile: null, stderrLimit: 64 });
      const parent = parentOf(tool.pid);
      expect(parent).not.toBe(launcher.pid);
      parents.add(parent);
      expect(await tool.exited).toMatchObject({ code, signal: null });
    }
    // One shell served the three runs; a second environment gets a shell of its own.
    expect(parents.size).toBe(1);
    expect(childrenOf(launcher.pid!)).toEqual([...parents]);
    expect((await (await launcher.launch({ file: SH, args: ['-c', 'exit 0'], env: { OTHER: '1' }, stdoutFile: null, stderrLimit: 64 })).exited).code).toBe(0);
    expect(childrenOf(launcher.pid!)).toHaveLength(2);
  });

  it('spawns directly what a line cannot carry (an argument with a newline) and what cannot be run', async () => {
    launcher = new NativeLauncher();
    const fd = openSync(join(dir, 'argv'), 'w+');
    try {
      const tool = await launcher.launch({ file: SH, args: ['-c', 'printf "%s" "$0"; sleep 0.05', 'two\nlines'], env: {}, stdoutFile: join(dir, 'argv'), stderrLimit: 64 });
      expect(parentOf(tool.pid)).toBe(launcher.pid);
      expect((await tool.exited).code).toBe(0);
      const bytes = Buffer.alloc(64);
      expect(bytes.toString('utf8', 0, readSync(fd, bytes, 0, bytes.length, 0))).toBe('two\nlines');
    } finally {
      closeSync(fd);
    }
    await writeFile(join(dir, 'not-executable'), '#!/bin/sh\n');
    await expect(launcher.launch({ file: join(dir, 'not-executable'), args: [], env: {}, stdoutFile: null, stderrLimit: 64 })).rejects.toThrow(/EACCES/);
  });

  it('reports a tool whose shell died as killed, and kills it', async () => {
    launcher = new NativeLauncher();
    const sleeper = await launcher.launch({ file: '/bin/sleep', args: ['30'], env: {}, stdoutFile: null, stderrLimit: 64 });
    process.kill(parentOf(sleeper.pid), 'SIGKILL');
    expect(await sleeper.exited).toMatchObject({ code: null, signal: 'SIGKILL', stderr: 'the shell that started it exited' });
    await until(() => !alive(sleeper.pid), `the tool ${sleeper.pid} is gone`);
    // The next run gets a new shell.
    expect((await (await launcher.launch({ file: SH, args: ['-c', 'exit 3'], env: {}, stdoutFile: null, stderrLimit: 64 })).exited).code).toBe(3);
  });
});

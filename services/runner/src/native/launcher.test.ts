import { spawn } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LaunchFileError, NativeLauncher, type LaunchedTool, type LaunchRequest, type LaunchRoute } from './launcher.js';

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

/** The parent of `pid`. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The pids of the children of `pid` (Linux). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter((text) => text !== '').map(Number);
}

const ROUTES: { route: LaunchRoute }[] = [{ route: 'own-shells' }, { route: 'launcher-shells' }, { route: 'launcher' }];

describe.each(ROUTES)('NativeLauncher (route $route)', ({ route }) => {
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

  it('starts a tool under the address-space limit asked for (RLIMIT_AS, in KiB), and under none when none is asked', async () => {
    launcher = new NativeLauncher({ route });
    const limited = await captured('limited', async (file) => {
      expect((await (await launcher.launch(sh('ulimit -v; ulimit -Hv', { stdoutFile: file, addressSpaceKiB: 300_000 }))).exited).code).toBe(0);
    });
    expect(limited).toBe('300000\n300000\n');
    const unlimited = await captured('unlimited', async (file) => {
      expect((await (await launcher.launch(sh('ulimit -v', { stdoutFile: file, addressSpaceKiB: null }))).exited).code).toBe(0);
    });
    expect(unlimited).toBe('unlimited\n');
  });

  it('runs a tool into a file it unlinks once opened, and reports its status, stderr and time', async () => {
    launcher = new NativeLauncher({ route });
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
    launcher = new NativeLauncher({ route });
    const env = await captured('env', async (file) => {
      await (await launcher.launch(sh('env', { stdoutFile: file, env: { ONLY: 'this one' } }))).exited;
    });
    // The shell adds PWD, SHLVL and _ of its own.
    expect(env.split('\n').filter((line) => line !== '' && !/^(PWD|SHLVL|_)=/.test(line))).toEqual(['ONLY=this one']);
    const long = await (await launcher.launch(sh('printf "%0200d" 0 >&2; echo to nowhere', { stderrLimit: 50 }))).exited;
    expect(long.stderr).toBe('0'.repeat(50));
  });

  it('feeds a tool its stdin from a file it unlinks once opened', async () => {
    launcher = new NativeLauncher({ route });
    const input = join(dir, 'in');
    await writeFile(input, 'line one\nline two\n');
    const copy = await captured('copy', async (file) => {
      expect((await (await launcher.launch({ file: '/bin/cat', args: [], env: {}, stdinFile: input, stdoutFile: file, stderrLimit: 64 })).exited).code).toBe(0);
      expect(existsSync(input)).toBe(false);
    });
    expect(copy).toBe('line one\nline two\n');
  });

  it('refuses what cannot be started: a missing executable, a stdin or stdout file that is not there', async () => {
    launcher = new NativeLauncher({ route });
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
    launcher = new NativeLauncher({ route });
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
    launcher = new NativeLauncher({ route });
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

  /** What started `tool`: its shell (own shells), or the launcher process. */
  const starter = (tool: LaunchedTool): number => (route === 'own-shells' ? parentOf(tool.pid) : launcher.pid!);

  it('when what started a tool dies, kills the tool, reports it lost, and starts anew on the next launch', async () => {
    launcher = new NativeLauncher({ route });
    expect(launcher.startsThrough).toBe(route);
    const sleeper = await launcher.launch(sh('exec sleep 30'));
    const first = starter(sleeper);
    expect(first).not.toBe(process.pid);
    process.kill(first, 'SIGKILL');
    await expect(sleeper.exited).rejects.toThrow(route === 'own-shells' ? /the shell that started it exited/ : /launcher exited with signal SIGKILL/);
    await until(() => !alive(sleeper.pid), `the orphaned tool ${sleeper.pid} is gone`);
    const next = await launcher.launch(sh('sleep 0.05; exit 7'));
    expect(starter(next)).not.toBe(first);
    expect((await next.exited).code).toBe(7);
  });

  it('close() kills what runs and refuses later launches', async () => {
    launcher = new NativeLauncher({ route });
    const sleeper = await launcher.launch(sh('exec sleep 30'));
    const pid = starter(sleeper);
    await launcher.close();
    expect(alive(pid)).toBe(false);
    await until(() => !alive(sleeper.pid), `the tool ${sleeper.pid} is gone`);
    await expect(launcher.launch(sh('true'))).rejects.toThrow(/closed/);
  });

  it('never keeps its process alive once nothing runs, and goes away with it', async () => {
    launcher = new NativeLauncher({ route });
    const module = fileURLToPath(new URL('./launcher.ts', import.meta.url));
    const script = `import { NativeLauncher } from ${JSON.stringify(module)};
const launcher = new NativeLauncher({ route: ${JSON.stringify(route)} });
const exit = await (await launcher.launch({ file: '/bin/sh', args: ['-c', 'exit 5'], env: {}, stdoutFile: null, stderrLimit: 64 })).exited;
process.stdout.write(JSON.stringify({ code: exit.code, launcher: launcher.pid ?? null, shells: launcher.shellPids }));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    const reported = JSON.parse(out) as { code: number; launcher: number | null; shells: number[] };
    expect(reported.code).toBe(5);
    // Own shells: the tool ran in one, and no launcher process was started.
    const left = route === 'own-shells' ? reported.shells : [reported.launcher!];
    expect(left).toHaveLength(1);
    if (route === 'own-shells') expect(reported.launcher).toBeNull();
    await until(() => !alive(left[0]!), `what started the tool (${left[0]!}) is gone`);
  });
});

describe.each([{ route: 'own-shells' as const }, { route: 'launcher-shells' as const }])('NativeLauncher through shells (route $route)', ({ route }) => {
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

  /** The shells that start tools: this process's own, or the launcher's. */
  const shells = (): number[] => (route === 'own-shells' ? launcher.shellPids : childrenOf(launcher.pid!));

  it('gives the tool exactly the environment asked for, with nothing of the shell', async () => {
    launcher = new NativeLauncher({ route });
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
    launcher = new NativeLauncher({ route });
    const parents = new Set<number>();
    for (const code of [0, 4, 200]) {
      const tool = await launcher.launch({ file: SH, args: ['-c', `sleep 0.05; exit ${code}`], env: { LC_ALL: 'C' }, stdoutFile: null, stderrLimit: 64 });
      const parent = parentOf(tool.pid);
      expect(parent).not.toBe(launcher.pid);
      expect(parentOf(parent)).toBe(route === 'own-shells' ? process.pid : launcher.pid);
      parents.add(parent);
      expect(await tool.exited).toMatchObject({ code, signal: null });
    }
    // One shell served the three runs; a second environment gets a shell of its own.
    expect(parents.size).toBe(1);
    expect(shells()).toEqual([...parents]);
    expect((await (await launcher.launch({ file: SH, args: ['-c', 'exit 0'], env: { OTHER: '1' }, stdoutFile: null, stderrLimit: 64 })).exited).code).toBe(0);
    expect(shells()).toHaveLength(2);
  });

  it('spawns directly what a line cannot carry (an argument with a newline) and what cannot be run', async () => {
    launcher = new NativeLauncher({ route });
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

  it('kills a tool whose shell died, and reports it', async () => {
    launcher = new NativeLauncher({ route });
    const sleeper = await launcher.launch({ file: '/bin/sleep', args: ['30'], env: {}, stdoutFile: null, stderrLimit: 64 });
    process.kill(parentOf(sleeper.pid), 'SIGKILL');
    // The launcher's protocol has no word for it: it reports a kill; this process's own shells report the tool lost.
    if (route === 'own-shells') await expect(sleeper.exited).rejects.toThrow(/the shell that started it exited; the tool was killed/);
    else expect(await sleeper.exited).toMatchObject({ code: null, signal: 'SIGKILL', stderr: 'the shell that started it exited' });
    await until(() => !alive(sleeper.pid), `the tool ${sleeper.pid} is gone`);
    // The next run gets a new shell.
    expect((await (await launcher.launch({ file: SH, args: ['-c', 'exit 3'], env: {}, stdoutFile: null, stderrLimit: 64 })).exited).code).toBe(3);
  });
});

describe('NativeLauncher through its own shells', () => {
  let launcher: NativeLauncher;

  afterEach(async () => {
    await launcher.close();
  });

  it('refuses a tool whose file its shell cannot open, and keeps the shell', async () => {
    launcher = new NativeLauncher({ route: 'own-shells' });
    // A /proc path is handed to the shell as it is; this descriptor is not open.
    const missing = `/proc/${process.pid}/fd/999999`;
    await expect(launcher.launch({ file: SH, args: ['-c', 'true'], env: {}, stdoutFile: missing, stderrLimit: 64 })).rejects.toThrow(/could not be opened by the shell/);
    const shell = launcher.shellPids;
    expect(shell).toHaveLength(1);
    const tool = await launcher.launch({ file: SH, args: ['-c', 'sleep 0.05; exit 6'], env: {}, stdoutFile: null, stderrLimit: 64 });
    expect(parentOf(tool.pid)).toBe(shell[0]);
    expect((await tool.exited).code).toBe(6);
  });

  it('keeps a child forked ahead that becomes the next tool, and lets it go with its shell, however the shell ends', async () => {
    launcher = new NativeLauncher({ route: 'own-shells' });
    const first = await launcher.launch({ file: SH, args: ['-c', 'exit 0'], env: {}, stdoutFile: null, stderrLimit: 64 });
    expect((await first.exited).code).toBe(0);
    const [shell] = launcher.shellPids;
    // The idle shell's one child waits for the next command, and runs it under its own pid.
    await until(() => childrenOf(shell!).length === 1, 'the shell has forked its next child');
    const [armed] = childrenOf(shell!);
    const next = await launcher.launch({ file: '/bin/sleep', args: ['30'], env: {}, stdoutFile: null, stderrLimit: 64 });
    expect(next.pid).toBe(armed);
    next.kill();
    expect(await next.exited).toMatchObject({ code: null, signal: 'SIGKILL' });
    // Killed outright, an idle shell cannot kill its child: this process does, and the next launch gets a new shell.
    await until(() => childrenOf(shell!).length === 1, 'the shell has forked its next child');
    const [orphan] = childrenOf(shell!);
    process.kill(shell!, 'SIGKILL');
    await until(() => !alive(orphan!) && launcher.shellPids.length === 0, `the shell ${shell} and its child ${orphan} are gone`);
    const after = await launcher.launch({ file: SH, args: ['-c', 'sleep 0.05; exit 7'], env: {}, stdoutFile: null, stderrLimit: 64 });
    expect(parentOf(after.pid)).not.toBe(shell);
    expect((await after.exited).code).toBe(7);
    // Let go (close), a shell ends with its child.
    const [last] = launcher.shellPids;
    await until(() => childrenOf(last!).length === 1, 'the shell has forked its next child');
    const [waiting] = childrenOf(last!);
    await launcher.close();
    await until(() => !alive(last!) && !alive(waiting!), `the shell ${last} and its child ${waiting} are gone`);
  });

  it('lets a Ctrl-C to the shell pass, and on SIGTERM or SIGHUP its shell kills the tool and exits', async () => {
    launcher = new NativeLauncher({ route: 'own-shells' });
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      const sleeper = await launcher.launch({ file: '/bin/sleep', args: ['30'], env: {}, stdoutFile: null, stderrLimit: 64 });
      const shell = parentOf(sleeper.pid);
      for (const ignored of ['SIGINT', 'SIGQUIT'] as const) process.kill(shell, ignored);
      process.kill(sleeper.pid, 'SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect([alive(shell), alive(sleeper.pid)]).toEqual([true, true]);
      process.kill(shell, signal);
      await expect(sleeper.exited).rejects.toThrow(/the shell that started it exited/);
      await until(() => !alive(sleeper.pid) && !alive(shell), `the tool ${sleeper.pid} and its shell ${shell} are gone`);
    }
  });

  it('starts tools through the launcher process for good when its shells cannot start, with the request as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jacobian-launcher-broken-'));
    try {
      const broken = join(dir, 'setpriv');
      await writeFile(broken, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
      launcher = new NativeLauncher({ route: 'own-shells', setpriv: broken });
      expect(launcher.startsThrough).toBe('own-shells');
      const out = join(dir, 'out');
      const fd = openSync(out, 'w+');
      try {
        const tool = await launcher.launch({ file: SH, args: ['-c', 'echo through; sleep 0.05; exit 4'], env: {}, stdoutFile: out, stderrLimit: 64 });
        // The launcher's shell started it, and the named stdout file was still there for it.
        expect(parentOf(parentOf(tool.pid))).toBe(launcher.pid);
        expect((await tool.exited).code).toBe(4);
        const bytes = Buffer.alloc(64);
        expect(bytes.toString('utf8', 0, readSync(fd, bytes, 0, bytes.length, 0))).toBe('through\n');
      } finally {
        closeSync(fd);
      }
      expect(launcher.startsThrough).toBe('launcher-shells');
      expect(launcher.shellPids).toEqual([]);
      const next = await launcher.launch({ file: SH, args: ['-c', 'sleep 0.05; exit 5'], env: {}, stdoutFile: null, stderrLimit: 64 });
      expect(parentOf(parentOf(next.pid))).toBe(launcher.pid);
      expect((await next.exited).code).toBe(5);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('when this process is killed, its shells kill the tools they run and exit', async () => {
    launcher = new NativeLauncher({ route: 'own-shells' });
    const module = fileURLToPath(new URL('./launcher.ts', import.meta.url));
    const script = `import { NativeLauncher } from ${JSON.stringify(module)};
const launcher = new NativeLauncher({ route: 'own-shells' });
const tool = await launcher.launch({ file: '/bin/sleep', args: ['30'], env: {}, stdoutFile: null, stderrLimit: 64 });
process.stdout.write(JSON.stringify({ tool: tool.pid, shells: launcher.shellPids }) + '\\n');
await tool.exited;`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    const reported = JSON.parse(line) as { tool: number; shells: number[] };
    expect(reported.shells).toEqual([parentOf(reported.tool)]);
    const closed = new Promise((resolve) => child.on('close', resolve));
    child.kill('SIGKILL');
    await closed;
    await until(() => !alive(reported.tool) && !alive(reported.shells[0]!), `the tool ${reported.tool} and its shell are gone`);
  });
});

/**
 * `jacobian --help` and `--version` answer and exit 0 without starting anything: no server,
 * no kernel pool, no data dir. The command sets its own V8 flags. `jacobian serve` sent SIGTERM
 * during start-up shuts down cleanly.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { reapProcessesWithEnv } from '@jacobian/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandEnvironment, JACOBIAN_BIN, REPO_ROOT } from '../support/jacobian.js';

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run `node <nodeArgs> <args>` (args: normally JACOBIAN_BIN and its arguments) to completion; SIGKILL it by pid if it has not exited within the bound. */
function runCommand(args: string[], env: Record<string, string>, boundMs = 60_000, nodeArgs: string[] = []): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`jacobian ${args.join(' ')} did not exit by itself within ${boundMs} ms; stderr:\n${stderr}`));
    }, boundMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

let parent: string;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'jacobian-e2e-cli-'));
  // A path that does not exist: --help and --version must not create it.
  dataDir = join(parent, 'not-created');
  env = commandEnvironment({ JACOBIAN_DATA_DIR: dataDir });
});

afterAll(async () => {
  const left = await reapProcessesWithEnv('JACOBIAN_DATA_DIR', dataDir, 5_000);
  await rm(parent, { recursive: true, force: true });
  expect(left, 'processes left behind').toEqual([]);
});

describe('jacobian --help / --version', () => {
  it.each([['--help'], ['-h']])('%s prints the usage and exits 0 without starting anything', { timeout: 120_000 }, async (flag) => {
    const { code, signal, stdout, stderr } = await runCommand([JACOBIAN_BIN, flag], env);
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(stdout).toContain(`jacobian ${VERSION}`);
    expect(stdout).toContain('Usage:');
    expect(stdout).toContain('jacobian serve');
    expect(stdout).toContain('jacobian stdio');
    expect(stdout).toContain('JACOBIAN_DATA_DIR');
    expect(stdout).toContain('JACOBIAN_REASONING_MODE');
    // Nothing started: no log lines, no data dir, no process left.
    expect(stderr).toBe('');
    expect(existsSync(dataDir)).toBe(false);
    expect(await reapProcessesWithEnv('JACOBIAN_DATA_DIR', dataDir, 2_000)).toEqual([]);
  });

  it.each([['--version'], ['-v']])('%s prints the version and exits 0 without starting anything', { timeout: 120_000 }, async (flag) => {
    const { code, signal, stdout, stderr } = await runCommand([JACOBIAN_BIN, flag], env);
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(stdout).toBe(`${VERSION}\n`);
    expect(stderr).toBe('');
    expect(existsSync(dataDir)).toBe(false);
    expect(await reapProcessesWithEnv('JACOBIAN_DATA_DIR', dataDir, 2_000)).toEqual([]);
  });

  it('--help wins over a command and its options', { timeout: 120_000 }, async () => {
    const { code, stdout, stderr } = await runCommand([JACOBIAN_BIN, 'serve', '--port', '0', '--help'], env);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage:');
    expect(stderr).toBe('');
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('how the command runs Node', () => {
  it('gives every function baseline code when it is first compiled (V8 --always-sparkplug, set by the command itself)', { timeout: 120_000 }, async () => {
    // Loaded before the command; at exit it compiles and calls a new function and reports its tier.
    const probe = join(parent, 'tier-probe.mjs');
    writeFileSync(probe, "process.once('exit', () => {\n  const f = new Function('a', 'return a + 1');\n  f(1);\n  process.stdout.write(`tier ${%ActiveTierIsSparkplug(f)}\\n`);\n});\n");
    const nodeArgs = ['--allow-natives-syntax', '--import', pathToFileURL(probe).href];
    // The probe itself: plain Node interprets a new function first.
    const plain = await runCommand(['--eval', ''], env, 60_000, nodeArgs);
    expect(plain).toMatchObject({ code: 0, stdout: 'tier false\n' });
    const jacobian = await runCommand([JACOBIAN_BIN, '--version'], env, 60_000, nodeArgs);
    expect(jacobian).toMatchObject({ code: 0, stdout: `${VERSION}\ntier true\n`, stderr: '' });
  });

  it('marks the old generation on its JavaScript thread, not on helper threads beside it (V8 --no-concurrent-marking, set by the command itself)', { timeout: 120_000 }, async () => {
    // Loaded before the command; at exit it keeps 200,000 objects alive and makes garbage
    // until V8 has marked the old generation incrementally a few times.
    const probe = join(parent, 'marking-probe.mjs');
    writeFileSync(
      probe,
      "process.once('exit', () => {\n  const live = [];\n  for (let i = 0; i < 200000; i++) live.push({ i, s: 'x' + i });\n  let made = 0;\n  for (let i = 0; i < 300; i++) made += new Array(50000).fill(0).map((_, j) => ({ j })).length;\n  process.stdout.write(`made ${made} kept ${live.length}\\n`);\n});\n",
    );
    // V8 traces each incremental marking step; with concurrent marking on, each step also
    // reports what the helper threads have marked.
    const nodeArgs = ['--trace-incremental-marking', '--import', pathToFileURL(probe).href];
    const count = (text: string, what: string): number => text.split('\n').filter((line) => line.includes(what)).length;
    const plain = await runCommand(['--eval', ''], env, 60_000, nodeArgs);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('made 15000000 kept 200000');
    expect(count(plain.stdout, '[IncrementalMarking] Start marking')).toBeGreaterThan(0);
    expect(count(plain.stdout, 'on background threads')).toBeGreaterThan(0);
    const jacobian = await runCommand([JACOBIAN_BIN, '--version'], env, 60_000, nodeArgs);
    expect(jacobian).toMatchObject({ code: 0, stderr: '' });
    expect(jacobian.stdout.startsWith(`${VERSION}\n`)).toBe(true);
    expect(jacobian.stdout).toContain('made 15000000 kept 200000');
    expect(count(jacobian.stdout, '[IncrementalMarking] Start marking')).toBeGreaterThan(0);
    expect(count(jacobian.stdout, 'on background threads')).toBe(0);
  });
});

describe('a signal during start-up', () => {
  it('jacobian serve, sent SIGTERM while starting, finishes starting, shuts down cleanly and leaves no process', { timeout: 120_000 }, async () => {
    const startDir = join(parent, 'signal-at-start');
    const child = spawn(process.execPath, [JACOBIAN_BIN, 'serve', '--port', '0'], {
      cwd: REPO_ROOT,
      env: commandEnvironment({ JACOBIAN_DATA_DIR: startDir, JACOBIAN_LOG_LEVEL: 'debug' }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let signalled = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      // The handler is installed before this line is logged, and start-up (provider probes,
      // the kernel pool) has not finished when it is.
      if (!signalled && stderr.includes('"msg":"starting"')) {
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const { code, signal } = await exited;
    clearTimeout(timer);
    expect(signalled).toBe(true);
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(stderr).toContain('"msg":"shutting down"');
    expect(stderr.indexOf('"msg":"starting"')).toBeLessThan(stderr.indexOf('"msg":"jacobian started"'));
    expect(await reapProcessesWithEnv('JACOBIAN_DATA_DIR', startDir, 2_000)).toEqual([]);
  });
});

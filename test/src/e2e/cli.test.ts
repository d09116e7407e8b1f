/**
 * `jacobian --help` and `--version` answer and exit 0 without starting anything: no server,
 * no kernel pool, no data dir. The command runs compiled JavaScript, with no TypeScript loader in
 * it or its children, and logs its provider probes. A port in use fails `serve` and `api` before
 * they start, with a hint to use --port. `jacobian serve` sent SIGTERM during start-up shuts down
 * cleanly; `jacobian stdio` whose stdin closes during start-up exits at once, leaving no process.
 * `jacobian checkers` prints the checkers' identities without writing anything.
 */
import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
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

/** Run `node <args>` (normally JACOBIAN_BIN and its arguments) to completion; SIGKILL it by pid if it has not exited within the bound. */
function runCommand(args: string[], env: Record<string, string>, boundMs = 60_000): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

describe('the command runs compiled JavaScript', () => {
  it('jacobian stdio answers math.find over stdio with no TypeScript loader in it or its pool children', { timeout: 180_000 }, async () => {
    const stdioDir = join(parent, 'stdio-compiled');
    // Loaded before the command: records every module.register call (how tsx, or any loader,
    // installs itself) and reports them on stderr as the process exits.
    const probe = join(parent, 'loader-probe.mjs');
    writeFileSync(
      probe,
      "import module from 'node:module';\nconst registered = [];\nconst register = module.register;\nmodule.register = (...args) => { registered.push(String(args[0])); return register.apply(module, args); };\nprocess.once('exit', () => process.stderr.write(`loaders registered: ${JSON.stringify(registered)}\\n`));\n",
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', pathToFileURL(probe).href, JACOBIAN_BIN, 'stdio'],
      env: commandEnvironment({ JACOBIAN_DATA_DIR: stdioDir }),
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'cli-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    try {
      const found = await client.callTool({ name: 'math.find', arguments: { query: 'chromatic number of a graph' } });
      expect(found.isError).not.toBe(true);
      expect(JSON.stringify(found.structuredContent)).toContain('graph.chromatic_number.compute');
      // The pool children run the compiled child entry with plain node: no --import, no tsx.
      expect(transport.pid).not.toBeNull();
      const pids = execFileSync('pgrep', ['-P', String(transport.pid)], { encoding: 'utf8' }).trim().split('\n').filter((line) => line !== '');
      const commands = pids.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== ''));
      const poolChildren = commands.filter((args) => args.some((arg) => arg.endsWith('child-entry.js')));
      expect(poolChildren.length).toBeGreaterThan(0);
      for (const args of commands) expect(args.join(' ')).not.toMatch(/tsx|--import|child-entry\.ts/);
    } finally {
      await client.close();
    }
    expect(stderr).toContain('"msg":"provider probed"');
    expect(stderr).toContain('"msg":"providers probed"');
    expect(stderr).toContain('loaders registered: []');
    expect(await reapProcessesWithEnv('JACOBIAN_DATA_DIR', stdioDir, 5_000)).toEqual([]);
  });

  it('jacobian stdio whose stdin closes during start-up, nothing asked (the SDK client\'s discover process), exits 0 before starting and leaves no process', { timeout: 120_000 }, async () => {
    const startDir = join(parent, 'stdin-closed-at-start');
    const child = spawn(process.execPath, [JACOBIAN_BIN, 'stdio'], {
      cwd: REPO_ROOT,
      env: commandEnvironment({ JACOBIAN_DATA_DIR: startDir, JACOBIAN_LOG_LEVEL: 'debug' }),
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      // Probing has begun (the kernel pool exists, native probes may be running) and not ended.
      if (stderr.includes('"msg":"probing provider"')) child.stdin.end();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const { code, signal } = await exited;
    clearTimeout(timer);
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(stderr).toContain('"msg":"stdin closed during start-up; exiting"');
    expect(stderr).not.toContain('"msg":"jacobian started"');
    expect(await reapProcessesWithEnv('JACOBIAN_DATA_DIR', startDir, 2_000)).toEqual([]);
  });
});

describe('a port in use', () => {
  let holder: Server;
  let port: number;

  beforeAll(async () => {
    holder = createServer();
    port = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as AddressInfo).port)));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
  });

  it('jacobian checkers prints the bundled checkers\' identities, writing nothing to the data dir', { timeout: 120_000 }, async () => {
    const checkersDir = join(parent, 'checkers');
    const { code, stdout } = await runCommand([JACOBIAN_BIN, 'checkers'], commandEnvironment({ JACOBIAN_DATA_DIR: checkersDir, JACOBIAN_LOG_LEVEL: 'warn' }));
    expect(code).toBe(0);
    const { authorized } = JSON.parse(stdout) as { authorized: { checker_id: string; checker_digest: string }[] };
    // An authorization file: one entry per checker, each with the digest of its code.
    expect(authorized.map((entry) => entry.checker_id)).toContain('jacobian.graph.induced_tree.maximum.exhaustive');
    expect(new Set(authorized.map((entry) => entry.checker_id)).size).toBe(authorized.length);
    for (const entry of authorized) expect(entry.checker_digest, entry.checker_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    // It measures the checkers and signs nothing: no key, no artifacts, no provider probe.
    expect(existsSync(checkersDir)).toBe(false);
    expect(await reapProcessesWithEnv('JACOBIAN_DATA_DIR', checkersDir, 2_000)).toEqual([]);
  });

  it('jacobian serve fails before it starts, naming the port and --port', { timeout: 120_000 }, async () => {
    const busyDir = join(parent, 'serve-port-in-use');
    const { code, stderr } = await runCommand([JACOBIAN_BIN, 'serve', '--host', '127.0.0.1', '--port', String(port)], commandEnvironment({ JACOBIAN_DATA_DIR: busyDir }));
    expect(code).toBe(2);
    expect(stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use by another process; choose another with --port`);
    expect(stderr).not.toContain('jacobian started');
    // Nothing of the slow part of start-up ran: no provider was probed.
    expect(stderr).not.toContain('provider probed');
    expect(await reapProcessesWithEnv('JACOBIAN_DATA_DIR', busyDir, 2_000)).toEqual([]);
  });

  it('jacobian api fails before it connects to anything, naming the port and --port', { timeout: 120_000 }, async () => {
    const busyDir = join(parent, 'api-port-in-use');
    mkdirSync(busyDir, { recursive: true });
    const publicKey = join(busyDir, 'checker.pub.pem');
    writeFileSync(publicKey, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
    // Nothing listens on this Redis port: the role must fail on its own port first.
    const env = commandEnvironment({ JACOBIAN_DATA_DIR: busyDir, REDIS_URL: 'redis://127.0.0.1:1', JACOBIAN_CHECKER_PUBLIC_KEYS: publicKey, JACOBIAN_OPS_PORT: 'off', S3_BUCKET: 'unused' });
    const { code, stderr } = await runCommand([JACOBIAN_BIN, 'api', '--host', '127.0.0.1', '--port', String(port)], env);
    expect(code).not.toBe(0);
    expect(stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use by another process; choose another with --port`);
    expect(stderr).not.toContain('serving MCP');
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

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A running one-node Ceph Object Gateway on loopback: a real S3 implementation for tests. */
export interface CephRgwInstance {
  /** `http://127.0.0.1:<port>`; address it path-style. */
  endpoint: string;
  /** RGW accepts any region name; this is the one to sign with. */
  region: string;
  /** Keys of the S3 user created for this instance. */
  accessKeyId: string;
  secretAccessKey: string;
  /** Folder holding the cluster's config, mon store, logs and pid files. */
  directory: string;
  /** Stop every daemon of this cluster by pid and delete its folder. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Options for {@link startCephRgw}. */
export interface StartCephRgwOptions {
  /** How long the cluster may take to come up. Default 120 s (it usually takes about 15 s). */
  timeoutMs?: number;
}

/** Binaries scripts/ceph-rgw.sh runs; all come with the Debian packages radosgw, ceph-mon, ceph-osd. */
const REQUIRED_BINARIES = ['ceph', 'ceph-mon', 'ceph-osd', 'ceph-authtool', 'monmaptool', 'radosgw', 'radosgw-admin'];

function scriptPath(): string {
  return fileURLToPath(new URL('../../../scripts/ceph-rgw.sh', import.meta.url));
}

async function onPath(binary: string): Promise<boolean> {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    try {
      await access(path.join(dir, binary), constants.X_OK);
      return true;
    } catch {
      // Not in this folder; keep looking.
    }
  }
  return false;
}

/** `count` distinct loopback ports that were free a moment ago (all held open together while picked). */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    return await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.once('error', reject);
            server.listen(0, '127.0.0.1', () => {
              const address = server.address();
              if (address === null || typeof address === 'string') reject(new Error('no TCP address for a probe socket'));
              else resolve(address.port);
            });
          }),
      ),
    );
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

interface ScriptResult {
  code: number | null;
  output: string;
  timedOut: boolean;
}

/** Run scripts/ceph-rgw.sh, killing its process group if it outlives `timeoutMs`. */
function runScript(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [scriptPath(), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut });
    });
  });
}

/** Pids recorded in `dir/run/*.pid`. */
async function recordedPids(dir: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(path.join(dir, 'run'));
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.pid'))) {
    const text = await readFile(path.join(dir, 'run', name), 'utf8').catch(() => '');
    const pid = Number.parseInt(text.trim(), 10);
    if (Number.isSafeInteger(pid) && pid > 1) pids.push(pid);
  }
  return pids;
}

/** Is `pid` alive and one of this cluster's daemons (its command line names our ceph.conf)? */
async function isClusterProcess(pid: number, conf: string): Promise<boolean> {
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.split('\0').includes(conf);
  } catch {
    return false;
  }
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already exited.
  }
}

/**
 * Start a fresh one-node Ceph RGW (mon + memstore OSD + radosgw, all on 127.0.0.1) in a new temp
 * folder on free ports, with a new S3 user, by running scripts/ceph-rgw.sh. Creates no buckets.
 * Several instances can run at once. Call `stop()` when done; if the process exits first, the
 * daemons are killed on the way out.
 *
 * @throws Error if the Ceph binaries are missing (run scripts/install-system-deps.sh) or the
 *   cluster does not come up in time (the message carries the script's output and log tails).
 */
export async function startCephRgw(options: StartCephRgwOptions = {}): Promise<CephRgwInstance> {
  const missing: string[] = [];
  for (const binary of REQUIRED_BINARIES) if (!(await onPath(binary))) missing.push(binary);
  if (missing.length > 0) {
    throw new Error(
      `Ceph RGW cannot start: ${missing.join(', ')} not found on PATH. Run scripts/install-system-deps.sh as root ` +
        '(it installs the Debian packages radosgw, ceph-mon and ceph-osd).',
    );
  }
  const timeoutMs = options.timeoutMs ?? 120_000;
  const accessKeyId = `JCB${randomBytes(8).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(20).toString('hex');
  const env = { ...process.env, RGW_ACCESS_KEY: accessKeyId, RGW_SECRET_KEY: secretAccessKey };

  let lastOutput = '';
  // A port picked as free can be taken before the daemons bind it, so try twice with new ports.
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'jacobian-ceph-rgw-'));
    const conf = path.join(directory, 'ceph.conf');
    const [port, monPort] = (await freePorts(2)) as [number, number];
    let pids: number[] = [];

    const killAll = (): void => {
      for (const pid of pids) killQuietly(pid, 'SIGKILL');
    };
    let stopped: Promise<void> | undefined;
    const stop = (): Promise<void> => {
      stopped ??= (async () => {
        process.removeListener('exit', killAll);
        const known = [...new Set([...pids, ...(await recordedPids(directory))])];
        await runScript(['stop', directory], env, 30_000).catch(() => undefined);
        // Whatever the script could not stop is killed here, by pid, and waited for.
        for (const pid of known) if (await isClusterProcess(pid, conf)) killQuietly(pid, 'SIGKILL');
        for (let i = 0; i < 50; i += 1) {
          const alive = await Promise.all(known.map((pid) => isClusterProcess(pid, conf)));
          if (!alive.includes(true)) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await rm(directory, { recursive: true, force: true });
      })();
      return stopped;
    };

    process.on('exit', killAll);
    const result = await runScript(['start', directory, String(port), String(monPort)], env, timeoutMs);
    pids = await recordedPids(directory);
    if (result.code === 0 && result.output.includes('RGW_READY')) {
      return { endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId, secretAccessKey, directory, stop };
    }
    lastOutput = result.timedOut ? `timed out after ${timeoutMs} ms\n${result.output}` : result.output;
    await stop();
  }
  throw new Error(`Ceph RGW did not start (scripts/ceph-rgw.sh):\n${lastOutput.slice(-4000)}`);
}

/**
 * Runtime probe for the z3-solver (WASM) provider: identifies exactly which installed bytes
 * back our answers and proves the solver actually works on this machine before use.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JacobianError } from '@jacobian/shared';
import { platformTag, ProviderRuntimeSchema, type ProviderRuntime } from '@jacobian/shared';
import type { IsolatedExecutor } from '@jacobian/shared';
import { ensureHealthy, type HealthCache } from './health-cache.js';
import { z3HealthCheck } from './z3-health.kernel.js';

/** Capabilities of this provider that kernels rely on. */
const Z3_FEATURES = ['optimize-free-sat-queries', 'int-arith', 'pseudo-boolean-cardinality'];

interface PackageDigest {
  digest: string;
  licenseFiles: string[];
}

/** Per-process cache: the installed package cannot change under a running process. */
let packageDigestPromise: Promise<PackageDigest> | undefined;

/** Directory of the installed z3-solver package (symlinks resolved). */
async function z3PackageDir(): Promise<string> {
  const require = createRequire(import.meta.url);
  return realpath(path.dirname(require.resolve('z3-solver/package.json')));
}

/** All regular files under `root`, as POSIX-style relative paths. Symlinks are followed. */
async function listFiles(root: string, relative = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      files.push(...(await listFiles(root, rel)));
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      files.push(rel);
    }
  }
  return files;
}

/**
 * PACKAGE_FILES digest: sha256 over the lines `path\tsize\tsha256(file)\n`, one per file of
 * the installed package directory, sorted by path (UTF-16 code-unit order). Nothing is
 * excluded — package.json, README, LICENSE, typings, JS glue and the WASM binary all count, as
 * does any nested node_modules — so any change to the installed bytes changes the digest.
 */
async function computePackageDigest(dir: string, health: HealthCache | undefined, beforeHashing: () => Promise<void>): Promise<PackageDigest> {
  const files = (await listFiles(dir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hashFiles = async (): Promise<string> => {
    await beforeHashing();
    const lines: string[] = [];
    for (const rel of files) {
      const bytes = await readFile(path.join(dir, ...rel.split('/')));
      const fileHash = createHash('sha256').update(bytes).digest('hex');
      lines.push(`${rel}\t${bytes.byteLength}\t${fileHash}\n`);
    }
    return createHash('sha256').update(lines.join(''), 'utf8').digest('hex');
  };
  let digest: string;
  if (health === undefined) {
    digest = await hashFiles();
  } else {
    // Hashed once per installation: remembered by the files' stamp (see HealthCache.digestOf).
    const stamps = await Promise.all(
      files.map(async (rel) => {
        const info = await stat(path.join(dir, ...rel.split('/')), { bigint: true });
        return `${rel}\t${info.size}\t${info.mtimeNs}\t${info.ctimeNs}\t${info.ino}\t${info.dev}`;
      }),
    );
    const stamp = createHash('sha256').update(`z3-solver PACKAGE_FILES\n${dir}\n${stamps.join('\n')}`, 'utf8').digest('hex');
    digest = await health.digestOf(stamp, hashFiles);
  }
  const licenseFiles = files.filter((rel) => /^licen[cs]e/i.test(path.posix.basename(rel)));
  return { digest, licenseFiles };
}

/**
 * The package's digest; `beforeHashing` is awaited when its files are about to be read and hashed
 * (the digest was not remembered by their stamp: a first start, or a new installation).
 */
function packageDigest(dir: string, health: HealthCache | undefined, beforeHashing: () => Promise<void>): Promise<PackageDigest> {
  if (packageDigestPromise === undefined) {
    packageDigestPromise = computePackageDigest(dir, health, beforeHashing).catch((error: unknown) => {
      packageDigestPromise = undefined;
      throw error;
    });
  }
  return packageDigestPromise;
}

const HEALTH_KERNEL = { module: fileURLToPath(new URL('./z3-health.kernel.ts', import.meta.url)), exportName: 'z3HealthKernel' };
/** Generous: the first use of z3 in a fresh child instantiates its WASM module and threads. */
const HEALTH_BUDGET = { wallTimeMs: 60_000, memoryMb: 1024, maxOutputBytes: 1024 };

/** Run the health check in a child of the isolation pool, where z3 kernels run. */
async function healthCheckIn(executor: IsolatedExecutor): Promise<void> {
  const outcome = await executor.run({ kernel: HEALTH_KERNEL, input: {}, budget: HEALTH_BUDGET });
  if (outcome.status !== 'COMPLETED') throw new Error(`${outcome.status}: ${outcome.error.message}`);
  const output = outcome.output as { healthy?: unknown } | null;
  if (output?.healthy !== true) throw new Error('the health kernel did not report healthy');
}

/** Options of {@link probeZ3Provider}. */
export interface Z3ProbeOptions {
  /** Where the health check runs (one of its isolated children); without it, in this process. */
  executor?: IsolatedExecutor;
  /** Passed checks and package digests remembered across starts. */
  health?: HealthCache;
  /** Told when the probe runs (or joins) a health check, the slow part: one not remembered by `health`. */
  onChecking?: () => void;
  /**
   * A health check not remembered starts only once this settles (after `onChecking` is told). A
   * process that serves before the check ends passes its start-up: the check (a new pool child
   * compiling z3's WASM module) then does not take the CPU the rest of the start-up needs.
   */
  checkAfter?: Promise<unknown>;
}

/**
 * Describe the installed z3-solver provider and verify it works.
 *
 * With an executor, the health check runs in one of its isolated children, where z3 kernels run:
 * the serving process never instantiates z3's WASM module and worker threads (about 70 MB it
 * would keep for its whole life). Without one, it runs in this process.
 *
 * @returns a {@link ProviderRuntime} validated against ProviderRuntimeSchema.
 * @throws JacobianError PROVIDER_UNAVAILABLE if the package is missing, unreadable, cannot be
 *   initialized, or fails the health check.
 */
export async function probeZ3Provider(options: Z3ProbeOptions = {}): Promise<ProviderRuntime> {
  let dir: string;
  let manifest: Record<string, unknown>;
  try {
    dir = await z3PackageDir();
    manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new JacobianError('PROVIDER_UNAVAILABLE', 'z3-solver package is not installed or unreadable', {
      cause: error,
    });
  }
  const version = manifest['version'];
  const license = manifest['license'];
  if (typeof version !== 'string' || version === '' || typeof license !== 'string' || license === '') {
    throw new JacobianError('PROVIDER_UNAVAILABLE', 'z3-solver package.json lacks a version or license');
  }

  const check = async (): Promise<void> => {
    await options.checkAfter?.catch(() => undefined);
    await (options.executor === undefined ? z3HealthCheck() : healthCheckIn(options.executor));
  };
  // Bytes that must be hashed have not passed a check remembered by the health cache either (a
  // first start, a new installation): the check starts now, beside the hashing (35 MB), rather
  // than after it, and both wait for `checkAfter`. The check's outcome counts only once the
  // identity is known, as the check of that identity (ensureHealthy below). Both read the same
  // installed files; in either order, neither is atomic against someone rewriting them meanwhile.
  let started: Promise<void> | undefined;
  const beforeHashing = async (): Promise<void> => {
    options.onChecking?.();
    started ??= check();
    started.catch(() => undefined); // its failure is reported through ensureHealthy, below
    await options.checkAfter?.catch(() => undefined);
  };
  let digest: PackageDigest;
  try {
    // One probe of this process hashes; another one meanwhile (not the runner's way: it probes
    // z3-solver once) waits for that digest.
    digest = await packageDigest(dir, options.health, beforeHashing);
  } catch (error) {
    throw new JacobianError('PROVIDER_UNAVAILABLE', 'could not digest the z3-solver package files', {
      cause: error,
    });
  }

  try {
    // The check runs z3's WASM, the package's bytes (PACKAGE_FILES digest), on this platform.
    const identity = { provider: 'z3-solver', version, digest_kind: 'PACKAGE_FILES', digest: digest.digest, platform: platformTag(), paths: [dir], check_module: HEALTH_KERNEL.module };
    await ensureHealthy(options.health, () => identity, () => started ?? check(), options.onChecking);
  } catch (error) {
    if (error instanceof JacobianError) throw error;
    throw new JacobianError('PROVIDER_UNAVAILABLE', 'z3-solver failed its health check', {
      cause: error,
      data: { detail: error instanceof Error ? error.message : String(error) },
    });
  }

  return ProviderRuntimeSchema.parse({
    provider: 'z3-solver',
    availability: 'AVAILABLE',
    version,
    digest_kind: 'PACKAGE_FILES',
    digest: digest.digest,
    platform: `${process.platform}-${process.arch}-node${process.versions.node}`,
    install_tier: 'T0',
    license_id: license,
    license_files: digest.licenseFiles,
    features: [...Z3_FEATURES],
  });
}

/**
 * Runtime probe for the z3-solver (WASM) provider: identifies exactly which installed bytes
 * back our answers and proves the solver actually works on this machine before use.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { JacobianError } from '@jacobian/shared';
import { ProviderRuntimeSchema, type ProviderRuntime } from '@jacobian/shared';
import { withZ3Context } from '../graph/maximum-induced-tree.kernel.js';

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
async function computePackageDigest(dir: string): Promise<PackageDigest> {
  const files = (await listFiles(dir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const lines: string[] = [];
  for (const rel of files) {
    const bytes = await readFile(path.join(dir, ...rel.split('/')));
    const fileHash = createHash('sha256').update(bytes).digest('hex');
    lines.push(`${rel}\t${bytes.byteLength}\t${fileHash}\n`);
  }
  const digest = createHash('sha256').update(lines.join(''), 'utf8').digest('hex');
  const licenseFiles = files.filter((rel) => /^licen[cs]e/i.test(path.posix.basename(rel)));
  return { digest, licenseFiles };
}

function packageDigest(dir: string): Promise<PackageDigest> {
  if (packageDigestPromise === undefined) {
    packageDigestPromise = computePackageDigest(dir).catch((error: unknown) => {
      packageDigestPromise = undefined;
      throw error;
    });
  }
  return packageDigestPromise;
}

/**
 * Solve two tiny problems with known answers: x + y = 3, x > y > 0 over integers must be sat
 * with exactly x = 2, y = 1; tightening to y > 1 must be unsat.
 */
async function healthCheck(): Promise<void> {
  // The shared per-process Context for this role: a fresh Context per probe would never be
  // reclaimed (see withZ3Context).
  await withZ3Context('health', async (ctx) => {
    const x = ctx.Int.const('x');
    const y = ctx.Int.const('y');
    const solver = new ctx.Solver();
    try {
      solver.set('timeout', 10_000);
      solver.add(x.add(y).eq(3), x.gt(y), y.gt(0));
      const satStatus = await solver.check();
      if (satStatus !== 'sat') throw new Error(`expected sat, got ${satStatus}`);
      const model = solver.model();
      const xExpr = model.eval(x, true);
      const yExpr = model.eval(y, true);
      const xValue = ctx.isIntVal(xExpr) ? xExpr.value() : undefined;
      const yValue = ctx.isIntVal(yExpr) ? yExpr.value() : undefined;
      model.release();
      if (xValue !== 2n || yValue !== 1n) {
        throw new Error(`expected x=2, y=1, got x=${String(xValue)}, y=${String(yValue)}`);
      }
      solver.add(y.gt(1));
      const unsatStatus = await solver.check();
      if (unsatStatus !== 'unsat') throw new Error(`expected unsat, got ${unsatStatus}`);
    } finally {
      solver.release();
    }
  });
}

/**
 * Describe the installed z3-solver provider and verify it works.
 *
 * @returns a {@link ProviderRuntime} validated against ProviderRuntimeSchema.
 * @throws JacobianError PROVIDER_UNAVAILABLE if the package is missing, unreadable, cannot be
 *   initialized, or fails the health check.
 */
export async function probeZ3Provider(): Promise<ProviderRuntime> {
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

  let digest: PackageDigest;
  try {
    digest = await packageDigest(dir);
  } catch (error) {
    throw new JacobianError('PROVIDER_UNAVAILABLE', 'could not digest the z3-solver package files', {
      cause: error,
    });
  }

  try {
    await healthCheck();
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

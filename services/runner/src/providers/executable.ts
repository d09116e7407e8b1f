/**
 * The probe steps native providers share: finding an executable on disk (an explicit path or a
 * search of fixed folders: library code does not read PATH), listing the shared objects of a
 * family it loads (per `ldd`), and the COMPOSITE identity of an executable with its libraries.
 */
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { canonicalDigest, JacobianError } from '@jacobian/shared';
import { component, runNativeTool, type Component } from './nauty.js';

/** Where to find an executable: an explicit path, or folders to search for it by name. */
export interface ExecutableLocation {
  binary?: string;
  searchDirectories?: readonly string[];
}

const LDD_TIMEOUT_MS = 20_000;

/**
 * The absolute, symlink-free path of the executable `name`: `location.binary` if given, else the
 * first of `name` in `location.searchDirectories` (or `defaultDirectories`) that is an executable file.
 *
 * @throws JacobianError PROVIDER_UNAVAILABLE, with `hint`, when none is found.
 */
export async function findExecutable(name: string, location: ExecutableLocation, defaultDirectories: readonly string[], hint: string): Promise<string> {
  const candidates = location.binary !== undefined ? [location.binary] : (location.searchDirectories ?? defaultDirectories).map((dir) => path.join(dir, name));
  for (const candidate of candidates) {
    if (!path.isAbsolute(candidate)) continue;
    try {
      await access(candidate, constants.X_OK);
      const resolved = await realpath(candidate);
      if ((await stat(resolved)).isFile()) return resolved;
    } catch {
      // Not there or not executable: try the next candidate.
    }
  }
  throw new JacobianError('PROVIDER_UNAVAILABLE', `no ${name} executable found (looked at ${candidates.join(', ')})`, { hint });
}

/**
 * The shared objects whose names start with `prefix` (e.g. "libpari"), or with one of several
 * prefixes, that `binary` loads, per `ldd`: absolute, symlink-free, distinct and sorted; [] when
 * ldd is absent, fails, or the executable is static.
 */
export async function linkedLibraries(binary: string, prefix: string | readonly string[], signal: AbortSignal | undefined): Promise<string[]> {
  const prefixes = typeof prefix === 'string' ? [prefix] : prefix;
  for (const ldd of ['/usr/bin/ldd', '/bin/ldd']) {
    try {
      await access(ldd, constants.X_OK);
    } catch {
      continue;
    }
    try {
      const out = await runNativeTool(ldd, [binary], '', { signal, deadline: Date.now() + LDD_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
      const libraries = [...out.stdout.matchAll(/^\s*(\S+) => (\/\S+)/gm)].filter((m) => prefixes.some((p) => (m[1] ?? '').startsWith(p))).map((m) => m[2] ?? '');
      return [...new Set(await Promise.all(libraries.map((lib) => realpath(lib))))].sort();
    } catch {
      return [];
    }
  }
  return [];
}

/** The identity of an executable and its libraries: their components and the COMPOSITE digest over them. */
export async function compositeIdentity(binary: string, libraries: readonly string[]): Promise<{ components: Component[]; digest: string }> {
  const components = [(await component('executable', binary)).component, ...(await Promise.all(libraries.map(async (lib) => (await component('library', lib)).component)))];
  return { components, digest: canonicalDigest(components) };
}

/** What a successful probe vouched for: the executable, the files its digest covers, and the digest. */
export interface ProbedExecutable {
  /** Absolute, symlink-free path of the executable. */
  readonly binary: string;
  readonly components: readonly Component[];
  /** The COMPOSITE digest of the components. */
  readonly digest: string;
}

/** The stat stamp of the files last found to have the probed digest, by digest. */
const verifiedStamps = new Map<string, string>();
/** The libraries an executable loaded when its stamp was last taken, by executable. */
const stampedLibraries = new Map<string, readonly string[]>();

/**
 * One string of the stats (device, inode, size, mtime, ctime) of an executable and its libraries
 * (those of `libraries`, or those last stamped for it); null when one is missing. Take it before
 * digesting the files: a change after it gives a different stamp next time.
 */
export async function fileStamps(binary: string, libraries?: readonly string[]): Promise<string | null> {
  if (libraries !== undefined) stampedLibraries.set(binary, libraries);
  try {
    const stats = await Promise.all([binary, ...(libraries ?? stampedLibraries.get(binary) ?? [])].map((file) => stat(file, { bigint: true })));
    return stats.map((s) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`).join('|');
  } catch {
    return null;
  }
}

/** Remember that the files stamped `stamp` (taken by {@link fileStamps} before digesting) have `digest`. */
export function rememberVerifiedStamp(digest: string, stamp: string | null): void {
  if (stamp !== null) verifiedStamps.set(digest, stamp);
}

/**
 * Check, before a run, that an executable (and the libraries named `libraryPrefix`… it loads, or
 * one of several prefixes) are
 * still the bytes its probe digested. A run can take a few milliseconds, less than digesting a
 * large executable again: the digest is recomputed only when a file's stat differs from the last
 * one digested, which any package upgrade or rewrite of the file changes.
 *
 * @throws JacobianError PROVIDER_FAILED naming `label` when anything changed (an upgrade under a running runner).
 */
export async function checkExecutableIdentity(tools: ProbedExecutable, libraryPrefix: string | readonly string[], label: string): Promise<void> {
  const stamp = await fileStamps(tools.binary);
  if (stamp !== null && verifiedStamps.get(tools.digest) === stamp) return;
  const libraries = tools.components.filter((c) => c.role === 'library').map((c) => c.file);
  const resolved = await linkedLibraries(tools.binary, libraryPrefix, undefined);
  const before = await fileStamps(tools.binary, resolved);
  const { digest } = await compositeIdentity(tools.binary, resolved);
  if (digest !== tools.digest || resolved.map((lib) => path.basename(lib)).join(',') !== libraries.join(',')) {
    throw new JacobianError('PROVIDER_FAILED', `the ${label} installation at ${tools.binary} is not the one probed (its digest changed); restart the runner to probe it again`);
  }
  rememberVerifiedStamp(tools.digest, before);
}

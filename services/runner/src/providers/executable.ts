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
 * The shared objects whose names start with `prefix` (e.g. "libpari") that `binary` loads, per
 * `ldd`: absolute, symlink-free, distinct and sorted; [] when ldd is absent, fails, or the
 * executable is static.
 */
export async function linkedLibraries(binary: string, prefix: string, signal: AbortSignal | undefined): Promise<string[]> {
  for (const ldd of ['/usr/bin/ldd', '/bin/ldd']) {
    try {
      await access(ldd, constants.X_OK);
    } catch {
      continue;
    }
    try {
      const out = await runNativeTool(ldd, [binary], '', { signal, deadline: Date.now() + LDD_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
      const libraries = [...out.stdout.matchAll(/^\s*(\S+) => (\/\S+)/gm)].filter((m) => (m[1] ?? '').startsWith(prefix)).map((m) => m[2] ?? '');
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

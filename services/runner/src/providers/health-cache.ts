/**
 * Provider health checks, remembered across starts.
 *
 * A provider probe does two things: it identifies the provider from its installed bytes (the
 * executables and the shared libraries they load, or every file of a package, digested with
 * sha256 at every start), then proves it healthy by running it on tiny problems with known
 * answers. The second part is most of a probe's cost: a native tool started several times, or
 * z3's WASM module instantiated in a new pool child (seconds on a busy machine).
 *
 * Why remembering a pass is sound: the key of a remembered pass is everything the check's outcome
 * depends on, as this start found it, before anything is skipped:
 * - the provider's identity computed now: name, version, digest kind and digest. The digest
 *   covers the bytes that run (executable, libraries, package files), so an upgrade, a rebuilt
 *   binary or a changed library is a new key, whatever its path, size or modification time;
 * - where it runs from (the paths the probe resolved) and the platform (OS, architecture, Node);
 * - the check itself: the digest of the module that holds it, so a changed check is a new key.
 * A hit therefore says: exactly these bytes passed exactly this check here before. Only passes
 * are remembered; a provider that fails is checked again at every start (it may have been fixed,
 * and failing is quick). Within one process, concurrent checks of one identity (cadical probed
 * for four capabilities) run once.
 *
 * Digests of large packages are remembered too (see {@link HealthCache.digestOf}): z3-solver's
 * 35 MB, read and hashed at every start, cost a few hundred milliseconds of it.
 *
 * The file (`<data dir>/provider-health.json`) is advisory: unreadable or malformed, it is
 * ignored and rewritten; two processes sharing a data dir can lose each other's entries, which
 * costs a check, never a wrong answer.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { canonicalDigest, runnableFile, sha256Hex } from '@jacobian/shared';

/** What a provider's health check depends on, as this start found it. */
export interface HealthIdentity {
  provider: string;
  version: string;
  digest_kind: string;
  digest: string;
  platform: string;
  /** The paths the probe resolved and will run (executables, libraries, a package folder). */
  paths: readonly string[];
  /** Absolute path of the module that holds the health check (its bytes are part of the key). */
  check_module: string;
}

/** How a provider's health was established at this start. */
export type HealthOutcome = 'checked' | 'remembered';

export interface HealthCache {
  /**
   * Run `check` unless a check of exactly `identity` passed before (here or in an earlier start);
   * remember a pass. Rejects with `check`'s error when it fails. `onChecking` is told, before it
   * waits, when this call runs a check or joins one of the same identity already running.
   */
  ensureHealthy(identity: HealthIdentity, check: () => Promise<void>, onChecking?: () => void): Promise<HealthOutcome>;
  /** How each provider's health was established in this process so far (by provider name). */
  readonly outcomes: ReadonlyMap<string, HealthOutcome>;
  /**
   * The digest of files described by `stamp` (each file's path, size, modification and change
   * times, inode and device): the one computed before for exactly this stamp, or `compute()`,
   * remembered.
   *
   * Why a stamp is sound enough here: the digest names the installed bytes in the provider's
   * identity, which keys the health checks and is reported with every result. Writing a file
   * sets its change time to the present, which no call sets back (only a changed system clock
   * could), so changed bytes under an unchanged stamp take someone working at it, who could as
   * well rewrite this cache in the data dir; an install, upgrade or rebuild (npm writes new
   * files: new inodes and times) is a new stamp. A cache that is lost costs one hashing.
   */
  digestOf(stamp: string, compute: () => Promise<string>): Promise<string>;
}

/** Run `check`, through `cache` when there is one (`onChecking`: see HealthCache.ensureHealthy). */
export async function ensureHealthy(cache: HealthCache | undefined, identity: () => Promise<HealthIdentity> | HealthIdentity, check: () => Promise<void>, onChecking?: () => void): Promise<HealthOutcome> {
  if (cache === undefined) {
    onChecking?.();
    await check();
    return 'checked';
  }
  return cache.ensureHealthy(await identity(), check, onChecking);
}

interface StoredPass {
  provider: string;
  /** ISO time of the check that passed. */
  checked_at: string;
}

interface StoredDigest {
  digest: string;
  /** ISO time it was computed. */
  computed_at: string;
}

interface StoredFile {
  format: 1;
  passes: Record<string, StoredPass>;
  digests?: Record<string, StoredDigest>;
}

/** At most this many passes are kept (the newest): old installations do not accumulate. */
const MAX_ENTRIES = 256;

async function keyOf(identity: HealthIdentity): Promise<string> {
  const checkBytes = await readFile(runnableFile(identity.check_module));
  return canonicalDigest({ ...identity, paths: [...identity.paths], check_module: sha256Hex(new Uint8Array(checkBytes)) });
}

/**
 * A health cache kept in `file` (JSON), or in this process only when `file` is undefined.
 * Remembered passes are read once, at the first check.
 */
export function createHealthCache(file: string | undefined): HealthCache {
  let stored: Promise<StoredFile> | undefined;
  const running = new Map<string, Promise<HealthOutcome>>();
  const outcomes = new Map<string, HealthOutcome>();
  let writing: Promise<void> = Promise.resolve();

  const load = (): Promise<StoredFile> =>
    (stored ??= (async () => {
      if (file === undefined) return { format: 1, passes: {} };
      try {
        const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<StoredFile>;
        if (parsed.format === 1 && typeof parsed.passes === 'object' && parsed.passes !== null) {
          const digests = typeof parsed.digests === 'object' && parsed.digests !== null ? parsed.digests : {};
          return { format: 1, passes: parsed.passes, digests };
        }
      } catch {
        // Missing or malformed: start afresh (see the module comment).
      }
      return { format: 1, passes: {} };
    })());

  const save = (state: StoredFile): Promise<void> => {
    if (file === undefined) return Promise.resolve();
    const entries = Object.entries(state.passes).sort(([, a], [, b]) => (a.checked_at < b.checked_at ? 1 : -1));
    state.passes = Object.fromEntries(entries.slice(0, MAX_ENTRIES));
    const digests = Object.entries(state.digests ?? {}).sort(([, a], [, b]) => (a.computed_at < b.computed_at ? 1 : -1));
    state.digests = Object.fromEntries(digests.slice(0, MAX_ENTRIES));
    const text = `${JSON.stringify(state, null, 1)}\n`;
    // Written whole to a temporary name, then renamed over the file: a reader never sees half.
    writing = writing.then(async () => {
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(temporary, text);
        await rename(temporary, file);
      } catch {
        // Advisory: a data dir that cannot be written costs a check at the next start.
      }
    });
    return writing;
  };

  return {
    outcomes,
    async digestOf(stamp, compute) {
      const state = await load();
      const remembered = state.digests?.[stamp];
      if (remembered !== undefined && typeof remembered.digest === 'string' && /^[0-9a-f]{64}$/.test(remembered.digest)) return remembered.digest;
      const digest = await compute();
      state.digests = { ...state.digests, [stamp]: { digest, computed_at: new Date().toISOString() } };
      await save(state);
      return digest;
    },
    async ensureHealthy(identity, check, onChecking) {
      const key = await keyOf(identity);
      const state = await load();
      if (Object.hasOwn(state.passes, key)) {
        if (!outcomes.has(identity.provider)) outcomes.set(identity.provider, 'remembered');
        return 'remembered';
      }
      let pending = running.get(key);
      if (pending === undefined) {
        pending = (async () => {
          await check();
          state.passes[key] = { provider: identity.provider, checked_at: new Date().toISOString() };
          outcomes.set(identity.provider, 'checked');
          await save(state);
          return 'checked' as const;
        })();
        running.set(key, pending);
        // A failed check is not remembered: the next probe of this identity checks again.
        pending.catch(() => running.delete(key));
      }
      onChecking?.();
      return pending;
    },
  };
}

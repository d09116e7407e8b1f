/**
 * Scratch files for native tools: a tool's input, spool (stdout) and stderr files, in the system's
 * temporary folder, and nameless ones made ahead of the runs that take them (see
 * {@link SpoolSupply}). See spooled.ts for how they are used.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, open, openSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JacobianError, toAppError } from '@jacobian/shared';

/**
 * A new file, created exclusively under a random name in the temporary folder, open for reading
 * and writing: a tool's input or spool file (see the module comment).
 *
 * @throws JacobianError PROVIDER_FAILED naming the tool (`name`) and the file when it cannot be made.
 */
export function scratchFile(name: string, role: string): { file: string; fd: number } {
  const file = path.join(tmpdir(), `jacobian-${role}-${randomBytes(12).toString('hex')}`);
  try {
    return { file, fd: openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600) };
  } catch (error) {
    throw new JacobianError('PROVIDER_FAILED', `${name} was not started: its ${role} file ${file} could not be created: ${toAppError(error).message}`, { cause: error });
  }
}

/** A tool's spool file: open here for reading and writing; `file` is what the launcher opens. */
export interface Spool {
  file: string;
  fd: number;
  /** Whether it has a name in the temporary folder (unlinked by the launcher, or else by spooled.ts's withSpool). */
  named: boolean;
}

/** Linux's `__O_TMPFILE`, with the `O_DIRECTORY` that open(2) requires with it: a file without a name, in a folder. */
const O_TMPFILE = 0o20000000 | constants.O_DIRECTORY;
/**
 * What open(2) with `O_TMPFILE` fails with where nameless files cannot be made: a file system
 * without them (EOPNOTSUPP), a kernel that does not know the flag (EISDIR: it opens the folder),
 * or one that refuses it (EINVAL).
 */
const TMPFILE_UNSUPPORTED: ReadonlySet<string> = new Set(['EOPNOTSUPP', 'ENOTSUP', 'EISDIR', 'EINVAL']);

/**
 * Spool files made ahead of the runs that take them. Creating a file changes its folder, and
 * waits for the file system's journal when that is busy: in the graphs benchmark (geng -t 9 and
 * 10, with the benchmark's cleanup between runs) creating the spool file took 0.3–0.5 ms
 * (medians) on the run's path, against 0.06 ms on a quiet machine. So a run takes a file made
 * earlier, in the thread pool, and starts making the next.
 *
 * Files made ahead have no name (`O_TMPFILE`): nothing is left behind whatever happens to this
 * process. The launcher reopens one through `/proc/<pid>/fd/<n>`. Where they cannot be made
 * (another system, a file system without `O_TMPFILE`, no /proc) or the launcher cannot reopen
 * one (see withSpool in spooled.ts), runs create a named spool file as they start instead. When one could
 * not be made for another reason (say, too many open files), the run that wanted it creates a
 * named one, and the next one is made ahead again.
 */
export class SpoolSupply {
  private ready: number | null = null;
  private making = false;
  private ahead: boolean;
  private readonly procRoot: string;
  private readonly role: string;

  /**
   * `procRoot` (default `/proc`) is where the launcher finds this process's descriptors; `ahead:
   * false` makes every file named; `role` (default `spool`) names the named ones.
   */
  constructor(options: { procRoot?: string; ahead?: boolean; role?: string } = {}) {
    this.procRoot = options.procRoot ?? '/proc';
    this.role = options.role ?? 'spool';
    this.ahead = (options.ahead ?? true) && process.platform === 'linux';
  }

  /** Whether runs get files made ahead (false once they turned out not to work here: see the class comment). */
  get makesAhead(): boolean {
    return this.ahead;
  }

  /**
   * A spool file for a run of `name`: the one made ahead, or a new named one (and the next one
   * is started).
   *
   * @throws JacobianError PROVIDER_FAILED naming the tool and the file when a named one cannot be made.
   */
  take(name: string): Spool {
    const fd = this.ready;
    this.ready = null;
    // Once the run that takes this one has started its tool: handing the open to the thread pool
    // took 0.1–0.2 ms on this project's test machine (measured 2026-12-01), on that start's path.
    setImmediate(() => this.makeNext());
    if (fd !== null) return { file: `${this.procRoot}/${process.pid}/fd/${fd}`, fd, named: false };
    return { ...scratchFile(name, this.role), named: true };
  }

  /** Files made ahead do not work here: runs create named ones from now on. */
  giveUpAhead(): void {
    this.ahead = false;
    if (this.ready !== null) closeQuietly(this.ready);
    this.ready = null;
  }

  private makeNext(): void {
    if (!this.ahead || this.ready !== null || this.making) return;
    this.making = true;
    open(tmpdir(), O_TMPFILE | constants.O_RDWR, 0o600, (error, fd) => {
      this.making = false;
      if (error !== null) {
        // Where nameless files cannot be made, runs create named ones from now on; after any
        // other failure (a missing or full temporary folder, too many open files) the next run
        // creates a named one and tries again.
        if (TMPFILE_UNSUPPORTED.has(error.code ?? '')) this.ahead = false;
        return;
      }
      if (!this.ahead || this.ready !== null) {
        closeQuietly(fd);
        return;
      }
      // The launcher reopens it through /proc: without that, files made ahead are of no use.
      if (!existsSync(`${this.procRoot}/${process.pid}/fd`)) {
        this.giveUpAhead();
        closeQuietly(fd);
        return;
      }
      this.ready = fd;
    });
  }
}

/** The spool files this process's native runs share. */
export const sharedSpools = new SpoolSupply();

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // gone already
  }
}

/** Unlink a file if it is still there (the launcher unlinks what it opened). */
export function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already, as it should be (the launcher unlinks what it opened)
  }
}

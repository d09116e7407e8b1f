/**
 * The memory budget (`budget.memory_mb`) of a native tool, enforced on the tool and every
 * process it starts, the same way the TypeScript kernels' budget is (resident memory, in MiB of
 * 1024 × 1024 bytes; see shared/src/isolation/process-pool.ts), in two layers:
 *
 * 1. **Measured**: the resident memory of the whole process tree, read from /proc every
 *    {@link MEMORY_SAMPLE_MS} ms while the tool runs ({@link measureTree}). Over the budget, the
 *    whole tree is killed (SIGKILL) and the run ends as an ERROR with MEMORY_LIMIT_EXCEEDED
 *    naming the budget and what was measured. What is measured is the larger of the tree's
 *    current resident memory (the sum over its processes) and the highest peak of any one
 *    process (VmHWM), so a single process's spike between two samples is still seen.
 * 2. **A hard cap between samples**: each tool starts with an address-space limit (RLIMIT_AS,
 *    set by the shell that execs it, `ulimit -v`; children inherit it) of the budget plus
 *    {@link ADDRESS_SPACE_HEADROOM_MB}. A process's address space is at least its resident
 *    memory, so the cap never stops a tool the budget allows, except by the part of its address
 *    space that is mapped but never touched; the headroom covers that. Measured on this
 *    project's test machine (Debian 12; smallest `ulimit -v` each still runs a tiny input in):
 *    Singular 4.3.1 26 MiB (10 MiB resident), CaDiCaL 1.5.3 7 MiB, nauty 2.8.6's tools 3 MiB;
 *    the largest gap seen between address space and resident memory during a run was Singular's
 *    17 MiB and CaDiCaL's 26 MiB (VmPeak 655 MiB, VmHWM 630 MiB on 4 million variables). A tool
 *    that reaches the cap fails to allocate (CaDiCaL aborts on std::bad_alloc, Singular halts
 *    with "no more memory"); such an end is reported as MEMORY_LIMIT_EXCEEDED too (see
 *    {@link MemoryWatch.explainExit}), never as a conclusion or a generic crash.
 *
 * cgroups are not used: a cgroup v2 memory controller needs a delegated, writable subtree, which
 * unprivileged containers (and this project's test machines, with cgroup v1) do not give; the
 * two layers above need only /proc and a POSIX shell. Where /proc is missing, only the cap holds.
 *
 * Runs without a budget (provider probes, on their fixed tiny inputs) get neither.
 */
import { fstatSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { JacobianError } from '@jacobian/shared';
import { killQuietly } from './launch.js';

/** How often the tree's memory is read while a tool runs. */
export const MEMORY_SAMPLE_MS = 20;
/** What the address-space cap adds to the budget: the mapped but untouched part of a tool's address space (see the module comment). */
export const ADDRESS_SPACE_HEADROOM_MB = 64;

const BYTES_PER_MIB = 1024 * 1024;

/** The address-space cap of a tool with a budget of `memoryMb`, in KiB (what `ulimit -v` takes). */
export function addressSpaceLimitKiB(memoryMb: number): number {
  return Math.ceil(memoryMb + ADDRESS_SPACE_HEADROOM_MB) * 1024;
}

/** What one reading of a process tree found. */
export interface TreeMemory {
  /** The processes read: the root and its descendants still there. */
  pids: number[];
  /** Sum of their resident memory now (VmRSS), in bytes. */
  rssBytes: number;
  /** The highest peak resident memory (VmHWM) of any one of them, in bytes. */
  maxPeakBytes: number;
  /** The highest peak address space (VmPeak) of any one of them, in bytes. */
  maxAddressSpaceBytes: number;
}

/** The children of `pid` (every thread's, from Linux's /proc/<pid>/task/<tid>/children). */
function childrenOf(pid: number, procRoot: string): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`${procRoot}/${pid}/task`);
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const task of tasks) {
    let listed: string;
    try {
      listed = readFileSync(`${procRoot}/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of listed.split(' ')) if (/^\d+$/.test(child)) found.push(Number(child));
  }
  return found;
}

/** The pids of the tree under `root` (itself first), as far as /proc shows it now. */
export function treePids(root: number, procRoot = '/proc'): number[] {
  const seen = new Set<number>([root]);
  const queue = [root];
  for (let at = 0; at < queue.length; at++) {
    for (const child of childrenOf(queue[at] as number, procRoot)) {
      if (seen.has(child)) continue;
      seen.add(child);
      queue.push(child);
    }
  }
  return queue;
}

/** A `kB` field of /proc/<pid>/status, in bytes; 0 when absent (a zombie has none). */
function statusField(status: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
  return match === null ? 0 : Number(match[1]) * 1024;
}

/**
 * Read the memory of the process tree under `root` from /proc (Linux). A process that exits
 * while it is read is left out. Null when `root` itself cannot be read (gone, or no /proc).
 */
export function measureTree(root: number, procRoot = '/proc'): TreeMemory | null {
  const memory: TreeMemory = { pids: [], rssBytes: 0, maxPeakBytes: 0, maxAddressSpaceBytes: 0 };
  for (const pid of treePids(root, procRoot)) {
    let status: string;
    try {
      status = readFileSync(`${procRoot}/${pid}/status`, 'utf8');
    } catch {
      if (pid === root) return null;
      continue;
    }
    memory.pids.push(pid);
    memory.rssBytes += statusField(status, 'VmRSS');
    memory.maxPeakBytes = Math.max(memory.maxPeakBytes, statusField(status, 'VmHWM'));
    memory.maxAddressSpaceBytes = Math.max(memory.maxAddressSpaceBytes, statusField(status, 'VmPeak'));
  }
  return memory;
}

/** SIGKILL to the tree under `root` as /proc shows it (the root first, so that it starts nothing more), twice: the second round finds any process started meanwhile. */
export function killTree(root: number, procRoot = '/proc'): void {
  for (let round = 0; round < 2; round++) {
    const pids = treePids(root, procRoot);
    for (const pid of pids) killQuietly(pid);
  }
}

function mib(bytes: number): number {
  return Math.round((bytes / BYTES_PER_MIB) * 10) / 10;
}

/** Output of a tool that ran out of address space (allocation failures as CaDiCaL, Singular, nauty and the C and C++ runtimes report them). */
const OUT_OF_MEMORY_TEXT = /std::bad_alloc|out of memory|no more memory|cannot allocate memory|memory exhausted|malloc failed|allocation failed|can'?t allocate/i;
/** Signals a process that ran out of address space may die of (an abort on a failed allocation, or a null pointer from one unchecked). */
const OUT_OF_MEMORY_SIGNALS: ReadonlySet<string> = new Set(['SIGABRT', 'SIGSEGV', 'SIGBUS']);

/**
 * Watches one tool's process tree against its memory budget (see the module comment): started
 * once the tool runs, stopped once it has exited.
 */
export class MemoryWatch {
  private timer: NodeJS.Timeout | null = null;
  private last: TreeMemory | null = null;
  private exceeded: JacobianError | null = null;

  /**
   * `name`: the tool, for messages; `memoryMb`: its budget; `onExceeded`: called once, after
   * the tree was killed, with the MEMORY_LIMIT_EXCEEDED error.
   */
  constructor(
    private readonly name: string,
    private readonly memoryMb: number,
    private readonly onExceeded: (error: JacobianError) => void,
    private readonly procRoot = '/proc',
  ) {}

  /** Start watching the tree under `pid`. */
  start(pid: number): void {
    if (this.timer !== null || this.exceeded !== null) return;
    this.timer = setInterval(() => this.sample(pid), MEMORY_SAMPLE_MS);
    this.timer.unref();
  }

  /** Stop watching (the tool has exited, or was stopped for another reason). */
  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** The MEMORY_LIMIT_EXCEEDED error once the budget was exceeded, else null. */
  get error(): JacobianError | null {
    return this.exceeded;
  }

  /** Read the tree once; over the budget, kill it and report. */
  sample(pid: number): void {
    if (this.exceeded !== null) return;
    const memory = measureTree(pid, this.procRoot);
    if (memory === null) return;
    this.last = memory;
    const measured = Math.max(memory.rssBytes, memory.maxPeakBytes);
    if (measured <= this.memoryMb * BYTES_PER_MIB) return;
    killTree(pid, this.procRoot);
    this.stop();
    this.exceeded = new JacobianError(
      'MEMORY_LIMIT_EXCEEDED',
      `${this.name} used ${mib(measured)} MiB of memory (resident, over its ${memory.pids.length} process${memory.pids.length === 1 ? '' : 'es'}), over its budget of ${this.memoryMb} MiB (budget.memory_mb), and was killed with every process it started; nothing was concluded`,
      { data: { memoryMb: this.memoryMb, rssMb: mib(measured), processes: memory.pids.length, measure: 'resident memory of the process tree' }, hint: 'raise budget.memory_mb (at most 8192), or give a smaller input' },
    );
    this.onExceeded(this.exceeded);
  }

  /**
   * Whether a tool that ended with `code`/`signal` (not 0 or an answer of its own), printing
   * `text`, ran out of its address-space cap: as MEMORY_LIMIT_EXCEEDED, or null when nothing
   * says so. Said so by an allocation failure in its output, or by a death by SIGABRT, SIGSEGV
   * or SIGBUS after its address space was last seen at half the cap or more.
   */
  explainExit(code: number | null, signal: string | null, text: string): JacobianError | null {
    if (this.exceeded !== null) return this.exceeded;
    if (code === 0 && signal === null) return null;
    const capBytes = addressSpaceLimitKiB(this.memoryMb) * 1024;
    const saidSo = OUT_OF_MEMORY_TEXT.test(text);
    const nearCap = signal !== null && OUT_OF_MEMORY_SIGNALS.has(signal) && this.last !== null && this.last.maxAddressSpaceBytes >= capBytes / 2;
    if (!saidSo && !nearCap) return null;
    const seen = this.last === null ? '' : `; last measured ${mib(Math.max(this.last.rssBytes, this.last.maxPeakBytes))} MiB resident, ${mib(this.last.maxAddressSpaceBytes)} MiB of address space`;
    return new JacobianError(
      'MEMORY_LIMIT_EXCEEDED',
      `${this.name} ran out of memory under its budget of ${this.memoryMb} MiB (budget.memory_mb; address space capped at ${mib(capBytes)} MiB) and ended with ${signal === null ? `status ${String(code)}` : `signal ${signal}`}${seen}; nothing was concluded`,
      {
        data: { memoryMb: this.memoryMb, addressSpaceMb: mib(capBytes), ...(this.last === null ? {} : { rssMb: mib(Math.max(this.last.rssBytes, this.last.maxPeakBytes)) }), measure: 'address-space limit' },
        hint: 'raise budget.memory_mb (at most 8192), or give a smaller input',
      },
    );
  }
}

/** The last `limit` bytes of the file open as `fd`, as text ('' when it cannot be read). */
export function readTail(fd: number, limit: number): string {
  try {
    const size = fstatSync(fd).size;
    const from = Math.max(0, size - limit);
    const bytes = Buffer.alloc(size - from);
    let got = 0;
    while (got < bytes.length) {
      const read = readSync(fd, bytes, got, bytes.length - got, from + got);
      if (read === 0) break;
      got += read;
    }
    return bytes.toString('utf8', 0, got);
  } catch {
    return '';
  }
}

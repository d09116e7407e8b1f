/**
 * Peer tools (geng, cvc5) run as a user runs them from a shell: started by a small launcher
 * process (the runner's NativeLauncher, an instance of its own), and timed there, from just
 * before its spawn to the tool's exit.
 *
 * Spawning from the benchmark's own process would charge the peer for that process's size: a
 * fork copies the page tables of every private page, and this process holds 150–200 MB (the
 * TypeScript toolchain, the capabilities), so a spawn took 2.5–3.5 ms here, against under 1 ms
 * from the launcher. That inflated every short peer run and flattered the ratios.
 */
import { NativeLauncher, type LaunchExit, type LaunchRequest } from '@jacobian/runner';
import type { BenchContext } from './context.js';

const launchers = new WeakMap<BenchContext, NativeLauncher>();

function launcherOf(context: BenchContext): NativeLauncher {
  let launcher = launchers.get(context);
  if (launcher === undefined) {
    const created = new NativeLauncher();
    launcher = created;
    launchers.set(context, created);
    context.cleanups.push(async () => {
      launchers.delete(context);
      await created.close();
    });
  }
  return launcher;
}

/** How a peer run ended: the launcher's report, and whether the budget killed it. */
export interface PeerRun extends LaunchExit {
  killedAtBudget: boolean;
}

/**
 * Run a peer tool through the benchmark's launcher; with `budgetMs`, SIGKILL when it runs longer.
 * `stdoutFile` (see LaunchRequest) must exist; the launcher unlinks it once the tool has it, so
 * the caller keeps a descriptor of it open to read what the tool wrote.
 */
export async function runPeer(context: BenchContext, request: LaunchRequest, budgetMs?: number): Promise<PeerRun> {
  const launched = await launcherOf(context).launch(request);
  let killedAtBudget = false;
  const timer =
    budgetMs === undefined
      ? undefined
      : setTimeout(() => {
          killedAtBudget = true;
          launched.kill();
        }, budgetMs);
  try {
    return { ...(await launched.exited), killedAtBudget };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Requiring nauty in the tests that run it (kept apart from test-graphs.ts so that module imports
 * no provider). Test support only: never imported by product code.
 */
import { existsSync } from 'node:fs';
import { probeNautyProvider, type NautyProbeResult } from '../providers/nauty.js';

/** The nauty executables the tests run directly (Debian's paths). */
export const NAUTY_TOOLS = ['/usr/bin/nauty-labelg', '/usr/bin/dreadnaut', '/usr/bin/nauty-countg', '/usr/bin/nauty-geng'];

/**
 * Probe the installed nauty for a test suite. Tests of nauty run whenever nauty is installed and
 * fail (never skip) when it is not, saying how to install it.
 */
export async function requireNauty(): Promise<NautyProbeResult> {
  for (const tool of NAUTY_TOOLS) {
    if (!existsSync(tool)) throw new Error(`${tool} is missing: run scripts/install-system-deps.sh (it installs the Debian package nauty)`);
  }
  return probeNautyProvider();
}

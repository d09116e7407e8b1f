/**
 * The providers of lp.solve: HiGHS (npm `highs`, WebAssembly) for the floating-point start with
 * our exact simplex after it, or our exact simplex alone. HiGHS is probed at start: its package's
 * bytes are digested and it must solve a small LP correctly in this process.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalDigest, JacobianError, LP_SOURCES, platformTag, sourceProviderRuntime, type ProviderProbe, type ProviderRuntime } from '@jacobian/shared';
import { RUNNER_VERSION } from '../version.js';
import type { Highs } from './highs-start.js';

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

export const LP_TS_PROVIDER = 'jacobian-lp-ts';
export const HIGHS_PROVIDER = 'highs';

/** The files of our LP code; the SOURCE_TREE digest covers them and the shared LP core. */
export const LP_TS_SOURCES: readonly string[] = [
  ...['./provider.ts', './lp-solve.ts', './polytope-separate.ts', './lp.kernel.ts', './solve-lp.ts', './simplex.ts', './certificate-check.ts', './highs-start.ts'].map(here),
  ...LP_SOURCES,
];

const FEATURES = ['exact-rational-simplex', 'bounded-variables', 'phase-1-sum-of-violations', 'bland-anti-cycling', 'duality-certificates', 'farkas-certificates', 'unbounded-rays', 'polytope-separation'];

/** Our exact simplex alone (the slack basis as start). */
export function lpTsProvider(): ProviderProbe {
  return { name: LP_TS_PROVIDER, probe: () => sourceProviderRuntime({ provider: LP_TS_PROVIDER, version: RUNNER_VERSION, files: [...LP_TS_SOURCES], features: FEATURES }) };
}

/** max x + y subject to x + 2y ≤ 4, 3x + y ≤ 6, x, y ≥ 0: the optimum is 14/5 at (8/5, 6/5), both rows basic-tight. */
function healthCheck(highs: Highs): void {
  const result = highs.solve(['Maximize', ' obj: x + y', 'Subject To', ' a: x + 2 y <= 4', ' b: 3 x + y <= 6', 'End'].join('\n'), { output_flag: false });
  if (result.Status !== 'Optimal' || Math.abs(result.ObjectiveValue - 2.8) > 1e-9) throw new Error(`the health LP came back ${result.Status} with value ${result.ObjectiveValue}, not Optimal 2.8`);
}

/** HiGHS's package: digested (every file), loaded and health-checked here; the exact simplex's sources digested with it. */
export function highsProvider(): ProviderProbe {
  return {
    name: HIGHS_PROVIDER,
    async probe() {
      let dir: string;
      let version: string;
      try {
        const require = createRequire(import.meta.url);
        // The package exports no ./package.json: its main module is build/highs.js.
        dir = await realpath(path.dirname(path.dirname(require.resolve('highs'))));
        version = (JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { version?: unknown }).version as string;
        if (typeof version !== 'string') throw new Error('its package.json has no version');
      } catch (error) {
        throw new JacobianError('PROVIDER_UNAVAILABLE', `the npm package highs is not installed or unreadable: ${error instanceof Error ? error.message : String(error)}`);
      }
      const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const lines: string[] = [];
      for (const rel of files) {
        const bytes = await readFile(path.join(dir, rel));
        lines.push(`${rel}\t${bytes.byteLength}\t${createHash('sha256').update(bytes).digest('hex')}\n`);
      }
      const packageDigest = createHash('sha256').update(lines.join(''), 'utf8').digest('hex');
      try {
        // Instantiated for the check only (not kept): the kernels load their own in the pool's children.
        const module = await import('highs');
        healthCheck(await (module.default as unknown as (typeof module.default)['default'])());
      } catch (error) {
        throw new JacobianError('PROVIDER_UNAVAILABLE', `HiGHS (npm highs ${version}) failed its health check: ${error instanceof Error ? error.message : String(error)}`);
      }
      const ours = await sourceProviderRuntime({ provider: LP_TS_PROVIDER, version: RUNNER_VERSION, files: [...LP_TS_SOURCES], features: FEATURES });
      const runtime: ProviderRuntime = {
        provider: HIGHS_PROVIDER,
        availability: 'AVAILABLE',
        version,
        digest_kind: 'COMPOSITE',
        digest: canonicalDigest([packageDigest, ours.digest]),
        platform: platformTag(),
        install_tier: 'T0',
        license_id: 'MIT',
        license_files: files.filter((rel) => /^licen[cs]e/i.test(path.posix.basename(rel))),
        features: ['floating-point-simplex-start', ...FEATURES],
      };
      return runtime;
    },
  };
}

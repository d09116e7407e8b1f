/**
 * Jacobian runs in two forms: from its TypeScript sources (tests under vitest, `node --import
 * tsx`) and compiled (`jacobian`, the containers), where each workspace's `dist/` mirrors its
 * `src/` file by file (scripts/build.mjs). Modules name the files beside them by their source
 * name, `new URL('./x.kernel.ts', import.meta.url)`: a kernel a pool child imports, the files a
 * provider's or checker's identity digests. This maps such a name to the file that is there.
 */
import { existsSync } from 'node:fs';

/** Whether this code runs compiled (from a dist/ folder), not from its TypeScript sources. */
export const RUNNING_COMPILED: boolean = !import.meta.url.endsWith('.ts');

/**
 * The file a module's sibling named `path` (absolute, a `.ts` source name) is in this form:
 * compiled, `x.ts` is `x.js` beside it (dist/ holds no sources); from sources, `path` itself.
 * Any other path (a `.mjs`, a `.js`) is returned as it is.
 */
export function runnableFile(path: string): string {
  if (!RUNNING_COMPILED || !path.endsWith('.ts')) return path;
  const compiled = `${path.slice(0, -'.ts'.length)}.js`;
  // A compiled module naming a source that is there after all (a test fixture run by a compiled
  // pool, a source file outside dist/) keeps it; otherwise the compiled file beside it.
  return existsSync(path) || !existsSync(compiled) ? path : compiled;
}

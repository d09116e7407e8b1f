#!/usr/bin/env node
// Compiles Jacobian's TypeScript to the JavaScript that `jacobian` runs: each workspace's `src/`
// to its `dist/`, file by file (no bundle), so that `dist/` mirrors `src/` and every path a
// module computes from its own location (a kernel beside it, ../package.json) stays true.
// Run by `npm ci` / `npm install` (the root `prepare` script), by `npm test` and `npm run bench`
// before they start, and by the Dockerfiles.
//
// esbuild only strips types, with the options of tsconfig.json (verbatimModuleSyntax…); types
// are checked by `npm run typecheck`, not here. Plain JavaScript modules (.mjs) are copied as
// they are. Test files (*.test.ts) are left out; each dist/ is rebuilt whole, so nothing stale
// (a deleted or renamed source) survives.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The packages that run: the `jacobian` command's own src/, the product workspaces, and bench. */
const PACKAGES = ['.', 'shared', 'services/mcp-api', 'services/runner', 'services/checker', 'bench'];

/** @param {string} dir @returns {{ file: string, kind: 'compile' | 'copy' }[]} */
function sourcesOf(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) found.push({ file, kind: 'compile' });
    else if (entry.name.endsWith('.mjs')) found.push({ file, kind: 'copy' });
  }
  return found;
}

const started = performance.now();
let count = 0;
for (const pkg of PACKAGES) {
  const src = join(ROOT, pkg, 'src');
  const dist = join(ROOT, pkg, 'dist');
  // The container images copy the product workspaces only (no bench/).
  if (!existsSync(src)) continue;
  const files = sourcesOf(src);
  rmSync(dist, { recursive: true, force: true });
  await build({
    entryPoints: files.filter((f) => f.kind === 'compile').map((f) => f.file),
    outdir: dist,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  for (const { file } of files.filter((f) => f.kind === 'copy')) {
    const target = join(dist, relative(src, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  count += files.length;
}
process.stderr.write(`jacobian build: ${count} files compiled to dist/ in ${Math.round(performance.now() - started)} ms\n`);

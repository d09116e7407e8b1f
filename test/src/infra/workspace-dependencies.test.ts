/**
 * Each workspace declares the packages its code imports in its own package.json, so that a role
 * installs what it needs without relying on the root's hoisting: what its shipped code imports
 * under `dependencies`, what only its tests and test support import under either.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importedPackages, isTestCode, SOURCE_ONLY } from './imports.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

interface Manifest {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;

function sourceFiles(dir: string, relative = ''): string[] {
  return readdirSync(path.join(dir, relative), { withFileTypes: true }).flatMap((entry) => {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(dir, child);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) ? [child] : [];
  });
}

const WORKSPACES = (manifest('.').workspaces ?? []).map((dir) => ({ dir, sources: `${dir}/src` }));
const ROOT_CODE = { dir: '.', sources: 'src' };

describe('each workspace declares what it imports', () => {
  it('reads import specifiers of every form the code uses', () => {
    // Written with double quotes, so that this file's own scan does not read them.
    const text = [
      'import { z } from "zod";',
      'import type { Job } from "bullmq";',
      'const m = await import("@jacobian/shared/telemetry-sdk");',
      'import "pino";',
      'const S3rver = createRequire(import.meta.url)("s3rver");',
      'require.resolve("z3-solver/package.json");',
      'import { readFile } from "node:fs/promises";',
      'import path from "path";',
      'import { x } from "./local.js";',
      'const parts = Array.from("abc"); const t = s.split("/");',
    ]
      .join('\n')
      .replaceAll('"', "'");
    expect([...importedPackages(text)].sort()).toEqual(['@jacobian/shared', 'bullmq', 'pino', 's3rver', 'z3-solver', 'zod']);
  });

  for (const { dir, sources } of [ROOT_CODE, ...WORKSPACES]) {
    it(`${dir === '.' ? 'the jacobian command (src/)' : dir}`, () => {
      const own = manifest(dir);
      const runtime = new Set(Object.keys(own.dependencies ?? {}));
      const any = new Set([...runtime, ...Object.keys(own.devDependencies ?? {})]);
      const missing: string[] = [];
      for (const file of sourceFiles(path.join(ROOT, sources))) {
        const testCode = isTestCode(dir, file);
        const sourceOnly = SOURCE_ONLY[`${sources}/${file}`] ?? [];
        for (const name of importedPackages(readFileSync(path.join(ROOT, sources, file), 'utf8'))) {
          const declared = testCode || sourceOnly.includes(name) ? any : runtime;
          if (name !== own.name && !declared.has(name)) missing.push(`${sources}/${file} imports ${name}`);
        }
      }
      expect(missing, `not declared in ${dir}/package.json (shipped code: dependencies; test code: either)`).toEqual([]);
    });
  }
});

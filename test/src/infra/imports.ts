/**
 * The packages a source text imports, read from its text: every form the code uses (static and
 * dynamic imports, `require`, `require.resolve`, `createRequire(...)(...)`), so that a package
 * loaded without an import statement is seen too.
 */
import { builtinModules } from 'node:module';

const PACKAGE_SPECIFIER = String.raw`'((?:@[\w.-]+\/)?\w[\w.-]*(?:\/[\w.@-]+)*)'`;
const SPECIFIER = new RegExp(String.raw`(?:(?:^|[\s}])from\s*|\bimport\s*\(\s*|^import\s+|\brequire(?:\.resolve)?\(\s*|\bcreateRequire\([^)]*\)\(\s*)` + PACKAGE_SPECIFIER, 'gm');

/** The package names a source text imports (bare specifiers, not Node's built-ins). */
export function importedPackages(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] as string;
    if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0] as string)) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
  }
  return names;
}

/** Test files and the modules that only tests load (test support, fixtures, shared contract suites). */
export function isTestCode(workspace: string, relative: string): boolean {
  if (workspace === 'test') return true;
  return /\.test\.ts$|\.fixture\.ts$|test-fixtures?\.ts$|(^|\/)test-[\w-]+\.ts$|store-contract\.ts$|(^|\/)(testing|fixtures)\//.test(relative);
}

/**
 * Packages a shipped module loads only when it runs from the TypeScript sources (in tests), never
 * compiled: declared as development dependencies.
 */
export const SOURCE_ONLY: Record<string, readonly string[]> = {
  'shared/src/isolation/process-pool.ts': ['tsx'],
};

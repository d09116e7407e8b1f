/**
 * Architecture rules, checked over the source tree:
 * - @jacobian/shared depends on no other workspace;
 * - a service's product code imports only @jacobian/shared among workspaces, and the checker
 *   never depends on the runner (its independence is what makes VERIFIED mean something);
 * - no file reaches into another workspace by relative path or by an unexported package subpath;
 * - relative runtime imports inside a workspace form no cycle.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Workspace {
  name: string;
  /** Folder of the workspace (its package.json). */
  dir: string;
  /** Folder walked for sources. */
  src: string;
  packageName: string;
  exports: string[];
}

function readPackage(dir: string): { name: string; exports: string[] } {
  const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, unknown> };
  return { name: json.name, exports: Object.keys(json.exports ?? {}) };
}

const SERVICE_NAMES = readdirSync(path.join(ROOT, 'services')).filter((name) => existsSync(path.join(ROOT, 'services', name, 'package.json')));
const WORKSPACES: Workspace[] = [
  { name: 'shared', dir: path.join(ROOT, 'shared') },
  ...SERVICE_NAMES.map((name) => ({ name, dir: path.join(ROOT, 'services', name) })),
  { name: 'test', dir: path.join(ROOT, 'test') },
].map((w) => ({ ...w, src: path.join(w.dir, 'src'), packageName: readPackage(w.dir).name, exports: readPackage(w.dir).exports }));
// The root package's own code (the CLI and embedded wiring) lives in src/ at the repository root.
const APP: Workspace = { name: 'app', dir: ROOT, src: path.join(ROOT, 'src'), packageName: readPackage(ROOT).name, exports: [] };
const ALL = [...WORKSPACES, APP];
const BY_PACKAGE = new Map(WORKSPACES.map((w) => [w.packageName, w]));

/** The workspace whose source folder holds `file`, if any (`test` also owns test/ itself). */
function workspaceOf(file: string): Workspace | undefined {
  for (const w of WORKSPACES) if (file === w.dir || file.startsWith(w.dir + path.sep)) return w;
  if (file.startsWith(APP.src + path.sep)) return APP;
  return undefined;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (entry === 'node_modules') return [];
    if (statSync(full).isDirectory()) return walk(full);
    return /\.(m|c)?tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

interface ImportRef {
  specifier: string;
  /** `import type` / `export type`: erased at runtime. */
  typeOnly: boolean;
  dynamic: boolean;
  line: number;
}

/** Every module specifier in a source text: import/export declarations and dynamic import('...'). */
function importsOf(source: string, fileName = 'x.ts'): ImportRef[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: ImportRef[] = [];
  const add = (node: ts.Node, literal: ts.Expression | undefined, typeOnly: boolean, dynamic: boolean): void => {
    if (literal && ts.isStringLiteralLike(literal)) {
      found.push({ specifier: literal.text, typeOnly, dynamic, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, node.importClause?.isTypeOnly ?? false, false);
    else if (ts.isExportDeclaration(node)) add(node, node.moduleSpecifier, node.isTypeOnly, false);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], false, true);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal, true, false);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The file a relative specifier names (NodeNext: `./x.js` is `./x.ts` in source). */
function resolveRelative(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? base;
}

interface Edge {
  from: string;
  specifier: string;
  line: number;
  typeOnly: boolean;
  /** `import('...')`: loaded only when that code runs. */
  dynamic: boolean;
  /** Resolved file for relative specifiers. */
  target?: string;
}

const rel = (file: string): string => path.relative(ROOT, file).split(path.sep).join('/');
const isTest = (file: string): boolean => /\.test\.ts$/.test(file);
const show = (e: Edge): string => `${rel(e.from)}:${e.line} imports '${e.specifier}'`;

const FILES = [...WORKSPACES.filter((w) => w.name !== 'test'), APP].flatMap((w) => walk(w.src));
const EDGES: Edge[] = FILES.flatMap((from) =>
  importsOf(readFileSync(from, 'utf8'), from).map((ref) => ({
    from,
    specifier: ref.specifier,
    line: ref.line,
    typeOnly: ref.typeOnly,
    dynamic: ref.dynamic,
    ...(ref.specifier.startsWith('.') ? { target: resolveRelative(from, ref.specifier) } : {}),
  })),
);

/** `@jacobian/x` or `@jacobian/x/sub` → its workspace and the subpath ('.' for the root). */
function workspaceImport(specifier: string): { workspace: Workspace | undefined; packageName: string; subpath: string } | undefined {
  const match = /^(@jacobian\/[^/]+)(\/.*)?$/.exec(specifier);
  if (match === null) return undefined;
  const packageName = match[1] as string;
  return { workspace: BY_PACKAGE.get(packageName), packageName, subpath: match[2] === undefined ? '.' : `.${match[2]}` };
}

const edgesOf = (name: string): Edge[] => EDGES.filter((e) => workspaceOf(e.from)?.name === name);

function relativeReach(): string[] {
  return EDGES.filter((e) => e.target !== undefined && workspaceOf(e.target) !== workspaceOf(e.from))
    .map((e) => `${rel(e.from)} imports '${e.specifier}'`)
    .sort();
}

/** Strongly connected components with more than one file (or a self-import), via Tarjan. */
function cycles(edges: Edge[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const e of edges) {
    if (e.target === undefined || e.typeOnly) continue;
    graph.set(e.from, [...(graph.get(e.from) ?? []), e.target]);
  }
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, indices.get(w) as number));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.map(rel).sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) connect(v);
  return found;
}

describe('the import parser', () => {
  it('finds static, re-export, type-only, side-effect and dynamic specifiers, and ignores comments and strings', () => {
    const source = [
      "import { a, type B } from './a.js';",
      "import type { C } from '../c.js';",
      "import * as d from '@jacobian/shared';",
      "import './side-effect.js';",
      "export { e } from './e.js';",
      "export type { F } from './f.js';",
      "export * from './g.js';",
      "const h = await import('./h.js');",
      "type I = import('./i.js').I;",
      "// import { x } from './commented.js';",
      "/* export * from './block.js'; */",
      "const s = \"import { y } from './in-a-string.js'\";",
      'const url = new URL("./kernel.ts", import.meta.url);',
    ].join('\n');
    expect(importsOf(source).map((r) => [r.specifier, r.typeOnly, r.dynamic, r.line])).toEqual([
      ['./a.js', false, false, 1],
      ['../c.js', true, false, 2],
      ['@jacobian/shared', false, false, 3],
      ['./side-effect.js', false, false, 4],
      ['./e.js', false, false, 5],
      ['./f.js', true, false, 6],
      ['./g.js', false, false, 7],
      ['./h.js', false, true, 8],
      ['./i.js', true, false, 9],
    ]);
  });

  it('finds a cycle and reports every file in it', () => {
    const edge = (from: string, target: string, typeOnly = false): Edge => ({ from: path.join(ROOT, from), target: path.join(ROOT, target), specifier: target, line: 1, typeOnly, dynamic: false });
    expect(cycles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts'), edge('c.ts', 'd.ts')])).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(cycles([edge('a.ts', 'a.ts')])).toEqual([['a.ts']]);
    expect(cycles([edge('a.ts', 'b.ts'), edge('b.ts', 'a.ts', true)])).toEqual([]);
  });
});

describe('the source tree', () => {
  it('is found: every workspace has sources and every relative import resolves to a file', () => {
    for (const w of ALL.filter((x) => x.name !== 'test')) expect(FILES.filter((f) => workspaceOf(f) === w).length, w.name).toBeGreaterThan(0);
    expect(FILES.map(rel)).toEqual(expect.arrayContaining(['shared/src/index.ts', 'services/checker/src/checker.ts', 'src/embedded.ts']));
    expect(EDGES.length).toBeGreaterThan(100);
    const unresolved = EDGES.filter((e) => e.target !== undefined && !existsSync(e.target)).map(show);
    expect(unresolved).toEqual([]);
  });
});

describe('layering', () => {
  it('@jacobian/shared imports no workspace package', () => {
    expect(edgesOf('shared').filter((e) => e.specifier.startsWith('@jacobian/')).map(show)).toEqual([]);
  });

  it.each(SERVICE_NAMES)('the %s service imports only @jacobian/shared among workspaces (product code)', (name) => {
    // Its entries too (`@jacobian/shared/redis`, `/s3`), except the test helpers.
    const isShared = (specifier: string): boolean => specifier === '@jacobian/shared' || (specifier.startsWith('@jacobian/shared/') && specifier !== '@jacobian/shared/testing');
    const offending = edgesOf(name).filter((e) => !isTest(e.from) && e.specifier.startsWith('@jacobian/') && !isShared(e.specifier));
    expect(offending.map(show)).toEqual([]);
  });

  it('the checker never depends on the runner, in product code or tests', () => {
    const runner = WORKSPACES.find((w) => w.name === 'runner') as Workspace;
    const offending = edgesOf('checker').filter(
      (e) => e.specifier === runner.packageName || e.specifier.startsWith(`${runner.packageName}/`) || (e.target !== undefined && workspaceOf(e.target) === runner),
    );
    expect(offending.map(show)).toEqual([]);
  });

  it('workspace packages are imported only through their exported entry points', () => {
    const offending = EDGES.filter((e) => {
      const target = workspaceImport(e.specifier);
      return target !== undefined && (target.workspace === undefined || !target.workspace.exports.includes(target.subpath));
    });
    expect(offending.map(show)).toEqual([]);
  });

  it('no file reaches into another workspace by relative path', () => {
    expect(relativeReach()).toEqual([]);
  });

  it.each(ALL.filter((w) => w.name !== 'test').map((w) => w.name))('relative runtime imports within %s form no cycle', (name) => {
    expect(cycles(edgesOf(name))).toEqual([]);
  });

  it('the main entry of @jacobian/shared loads neither the Redis clients nor the AWS SDK (serve and stdio import only it)', () => {
    const shared = WORKSPACES.find((w) => w.name === 'shared') as Workspace;
    const runtime = new Map<string, Edge[]>();
    for (const e of edgesOf('shared')) if (!e.typeOnly && !e.dynamic) runtime.set(e.from, [...(runtime.get(e.from) ?? []), e]);
    const seen = new Set<string>();
    const offending: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const e of runtime.get(file) ?? []) {
        if (/^(bullmq|ioredis)$|^@aws-sdk\//.test(e.specifier)) offending.push(show(e));
        if (e.target !== undefined) visit(e.target);
      }
    };
    visit(path.join(shared.src, 'index.ts'));
    expect(seen.size).toBeGreaterThan(50);
    expect(offending).toEqual([]);
  });
});

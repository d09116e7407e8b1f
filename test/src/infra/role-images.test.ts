/**
 * Each role image carries only its role: its Dockerfile installs the production dependencies of
 * its own workspace (and of the workspaces that one depends on, shared), and what the role runs
 * must need nothing else. Checked without Docker:
 *
 * - what the image installs is read from its Dockerfile (`npm ci --omit=dev --workspace=...`) and
 *   the manifests, and what it copies of the build;
 * - what the role loads is the module graph esbuild resolves from the `jacobian` command
 *   (src/cli.ts), static and dynamic imports, following only the role's own command modules out
 *   of the CLI's command table (src/cli.ts COMMANDS);
 * - every package imported by a module of that graph, or by any module of a workspace the image
 *   carries (the isolation pool loads kernels by path, out of esbuild's sight), must be installed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDockerfile, type DockerInstruction, type DockerStage } from './dockerfile.js';
import { importedPackages, isTestCode, SOURCE_ONLY } from './imports.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const read = (relative: string): string => readFileSync(path.join(ROOT, relative), 'utf8');

interface Manifest {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
}
const manifest = (dir: string): Manifest => JSON.parse(read(`${dir}/package.json`)) as Manifest;
const ROOT_MANIFEST = manifest('.');
const WORKSPACE_OF_NAME = new Map((ROOT_MANIFEST.workspaces ?? []).map((dir) => [manifest(dir).name, dir]));

/** The CLI's per-command modules, as src/cli.ts loads them (COMMANDS). */
const COMMAND_MODULES = {
  serve: 'src/serve-command.ts',
  stdio: 'src/stdio-command.ts',
  api: 'src/api-role.ts',
  runner: 'src/runner-role.ts',
  checker: 'src/checker-role.ts',
  checkers: 'src/checkers-command.ts',
} as const;

const ROLES = [
  { role: 'api', dockerfile: 'services/mcp-api/Dockerfile', workspace: 'services/mcp-api', commands: ['api'] },
  { role: 'runner', dockerfile: 'services/runner/Dockerfile', workspace: 'services/runner', commands: ['runner'] },
  // The checker image also answers `jacobian checkers` (the identities to authorize) and `keygen`.
  { role: 'checker', dockerfile: 'services/checker/Dockerfile', workspace: 'services/checker', commands: ['checker', 'checkers'] },
] as const;

/** Every bare package esbuild would leave to Node: kept external, so the graph is our code alone. */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@jacobian/') ? undefined : { path: args.path, external: true }));
  },
};

/** The module graph from src/cli.ts: our sources (workspaces resolved to their TypeScript), packages external. */
async function moduleGraph(): Promise<Metafile> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli.ts'],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    conditions: ['jacobian-source'],
    plugins: [externalPackages],
    logLevel: 'silent',
  });
  return result.metafile;
}

function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0] ?? '')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The source files a command loads, from src/cli.ts: every static and dynamic import is
 * followed, but out of src/cli.ts only into the command modules of `commands`.
 */
function reach(graph: Metafile, commands: readonly string[]): Set<string> {
  const others = new Set<string>(Object.entries(COMMAND_MODULES).filter(([command]) => !commands.includes(command)).map(([, file]) => file));
  const seen = new Set<string>();
  const queue = ['src/cli.ts'];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of graph.inputs[file]?.imports ?? []) {
      if (edge.external === true) continue;
      if (file === 'src/cli.ts' && others.has(edge.path)) continue;
      queue.push(edge.path);
    }
  }
  return seen;
}

/** The packages a source file imports: as esbuild resolved them, and as its text names them (require forms). */
function packagesOf(graph: Metafile, file: string): Set<string> {
  const names = new Set<string>();
  for (const edge of graph.inputs[file]?.imports ?? []) {
    const name = edge.external === true ? packageName(edge.path) : undefined;
    if (name !== undefined) names.add(name);
  }
  const sourceOnly = SOURCE_ONLY[file] ?? [];
  for (const name of importedPackages(read(file))) if (!sourceOnly.includes(name)) names.add(name);
  return names;
}

function shippedSources(workspace: string, relative = ''): string[] {
  const dir = path.join(ROOT, workspace, 'src', relative);
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) return shippedSources(workspace, child);
    return /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !isTestCode(workspace, child) ? [`${workspace}/src/${child}`] : [];
  });
}

/** Every command word list of a RUN, split at `&&`, `||`, `;` and `|`. */
function runCommands(ins: DockerInstruction): string[][] {
  const commands: string[][] = [[]];
  for (const word of ins.json ?? ins.args) {
    if (['&&', '||', ';', '|'].includes(word)) commands.push([]);
    else commands.at(-1)?.push(word);
  }
  return commands.filter((c) => c.length > 0);
}

interface Install {
  readonly stage: DockerStage;
  /** The workspaces named by --workspace / -w. */
  readonly workspaces: string[];
  readonly includesRoot: boolean;
}

/** The stage whose `npm ci --omit=dev` installs the image's production dependencies. */
function productionInstall(stages: readonly DockerStage[]): Install[] {
  const found: Install[] = [];
  for (const stage of stages) {
    for (const command of stage.instructions.filter((i) => i.keyword === 'RUN').flatMap(runCommands)) {
      if (command[0] !== 'npm' || !['ci', 'install', 'i', 'prune'].includes(command[1] ?? '')) continue;
      if (!command.some((word, i) => word === '--omit=dev' || (word === '--omit' && command[i + 1] === 'dev'))) continue;
      const workspaces: string[] = [];
      command.forEach((word, i) => {
        const flag = /^--workspace=(.+)$/.exec(word);
        if (flag !== null) workspaces.push(flag[1] ?? '');
        else if ((word === '--workspace' || word === '-w') && command[i + 1] !== undefined) workspaces.push(command[i + 1] ?? '');
      });
      found.push({ stage, workspaces, includesRoot: command.includes('--include-workspace-root') });
    }
  }
  return found;
}

/**
 * What `npm ci --omit=dev --workspace=<w>` installs, by name: the production dependencies of the
 * named workspaces and, through them, of the workspaces they depend on (and of the root package
 * with --include-workspace-root), with those workspaces themselves.
 */
function installedBy(install: Pick<Install, 'workspaces' | 'includesRoot'>): { packages: Set<string>; workspaces: Set<string> } {
  const packages = new Set<string>();
  const workspaces = new Set<string>();
  const visit = (dir: string): void => {
    for (const name of Object.keys(manifest(dir).dependencies ?? {})) {
      packages.add(name);
      const workspace = WORKSPACE_OF_NAME.get(name);
      if (workspace !== undefined && !workspaces.has(workspace)) {
        workspaces.add(workspace);
        visit(workspace);
      }
    }
  };
  for (const dir of install.workspaces) {
    workspaces.add(dir);
    packages.add(manifest(dir).name);
    visit(dir);
  }
  if (install.includesRoot) visit('.');
  return { packages, workspaces };
}

/** Where a reached source file belongs: '.' for the command's own src/, else its workspace. */
function workspaceOf(file: string): string {
  if (file.startsWith('src/')) return '.';
  const dir = (ROOT_MANIFEST.workspaces ?? []).find((w) => file.startsWith(`${w}/`));
  if (dir === undefined) throw new Error(`${file} is in no workspace`);
  return dir;
}

/** The packages the files import that `installed` lacks, as "file imports name". */
function missing(graph: Metafile, files: Iterable<string>, installed: Set<string>): string[] {
  const out: string[] = [];
  for (const file of files) for (const name of packagesOf(graph, file)) if (!installed.has(name)) out.push(`${file} imports ${name}`);
  return out.sort();
}

let graph: Metafile;
beforeAll(async () => {
  graph = await moduleGraph();
});

describe('the module graph of the jacobian command', () => {
  it('has every command module of src/cli.ts, each loaded by a dynamic import', () => {
    const dynamic = (graph.inputs['src/cli.ts']?.imports ?? []).filter((edge) => edge.kind === 'dynamic-import' && edge.external !== true).map((edge) => edge.path);
    for (const file of Object.values(COMMAND_MODULES)) expect(dynamic, file).toContain(file);
    // A static import of a command module would load it for every command.
    const statics = (graph.inputs['src/cli.ts']?.imports ?? []).filter((edge) => edge.kind === 'import-statement').map((edge) => edge.path);
    for (const file of Object.values(COMMAND_MODULES)) expect(statics, file).not.toContain(file);
  });

  it('tells a role whose graph reaches another role: the embedded serve loads every workspace', () => {
    const served = reach(graph, ['serve']);
    const workspaces = new Set([...served].map(workspaceOf));
    expect([...workspaces].sort()).toEqual(['.', 'services/checker', 'services/mcp-api', 'services/runner', 'shared']);
    // So the API image, were it to run `serve`, would lack the runner's z3-solver.
    const api = installedBy({ workspaces: ['services/mcp-api'], includesRoot: false });
    expect(missing(graph, [...served].filter((f) => f.startsWith('services/runner/')), api.packages).join('\n')).toContain('z3-solver');
  });
});

describe.each(ROLES)('the $role image', ({ role, dockerfile, workspace, commands }) => {
  const stages = parseDockerfile(read(dockerfile)).stages;
  const runtime = stages.at(-1);
  const installs = productionInstall(stages);

  it(`installs the production dependencies of ${workspace} alone, in a stage of their own`, () => {
    expect(installs, 'one npm ci --omit=dev').toHaveLength(1);
    const [install] = installs;
    expect(install?.stage.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.raw)), 'npm ci, from the lockfile').toBe(true);
    expect(install?.workspaces).toEqual([workspace]);
    // The root package names every workspace (for `jacobian serve`): it would bring them all.
    expect(install?.includesRoot).toBe(false);
    expect(install?.stage.name).not.toBe(runtime?.name);
    // npm follows workspaces' devDependencies to other workspaces: they are dropped first.
    const commandsBefore = (install?.stage.instructions ?? []).filter((i) => i.keyword === 'RUN').flatMap(runCommands);
    const ci = commandsBefore.findIndex((c) => c[0] === 'npm' && c[1] === 'ci');
    const dropped = commandsBefore.findIndex((c) => c.join(' ') === 'npm pkg delete devDependencies --workspaces');
    expect(dropped, 'npm pkg delete devDependencies --workspaces before npm ci').toBeGreaterThanOrEqual(0);
    expect(dropped).toBeLessThan(ci);
  });

  it('copies into the runtime the installed modules, and of the build only the compiled code of what it installs', () => {
    const install = installs[0];
    if (install === undefined || runtime === undefined) throw new Error('no production install');
    const { workspaces } = installedBy(install);
    const copies = runtime.instructions.filter((i) => i.keyword === 'COPY');
    for (const copy of copies) expect(copy.flags['from'], `line ${copy.line}: the runtime copies from the stages`).toBeDefined();
    expect(copies.filter((c) => c.flags['from'] === install.stage.name).map((c) => (c.json ?? c.args).join(' '))).toEqual(['/app/ ./']);
    const fromBuild = copies.filter((c) => c.flags['from'] !== install.stage.name).flatMap((c) => (c.json ?? c.args).slice(0, -1)).map((s) => s.replace(/^\/app\//, '').replace(/\/$/, ''));
    const expected = ['bin', 'dist', ...[...workspaces].map((w) => `${w}/dist`)];
    expect(fromBuild.sort()).toEqual(expected.sort());
    // The production install leaves no other workspace's manifest behind (npm ci needs them all).
    const removed = install.stage.instructions.filter((i) => i.keyword === 'RUN').flatMap(runCommands).filter((c) => c[0] === 'rm').flatMap((c) => c.slice(1).filter((w) => !w.startsWith('-')));
    for (const other of (ROOT_MANIFEST.workspaces ?? []).filter((w) => !workspaces.has(w))) expect(removed, other).toContain(other);
  });

  it(`runs ${commands.join(' and ')} on what it installs: no package outside ${workspace}'s production dependencies`, () => {
    const install = installs[0];
    if (install === undefined) throw new Error('no production install');
    const installed = installedBy(install);
    const reached = reach(graph, commands);
    // Not vacuous: the role's own workspace is in its graph.
    expect([...reached].some((file) => file.startsWith(`${workspace}/src/`)), `${workspace} is reached`).toBe(true);
    const outside = [...reached].filter((file) => workspaceOf(file) !== '.' && !installed.workspaces.has(workspaceOf(file)));
    expect(outside, 'sources of workspaces the image does not carry').toEqual([]);
    const checked = new Set([...reached].filter((file) => file.startsWith('src/')));
    for (const dir of installed.workspaces) for (const file of shippedSources(dir)) checked.add(file);
    expect(missing(graph, checked, installed.packages), `not installed in the ${role} image`).toEqual([]);
  });

  it(`checks itself when built by loading the ${role} role's module alone`, () => {
    const checks = (runtime?.instructions ?? []).filter((i) => i.keyword === 'RUN' && /node --input-type=module/.test(i.raw));
    expect(checks).toHaveLength(1);
    const loaded = [...(checks[0]?.raw ?? '').matchAll(/import\("\.\/dist\/([\w-]+)\.js"\)/g)].map((m) => `src/${m[1]}.ts`);
    expect(loaded).toEqual([COMMAND_MODULES[commands[0]]]);
    // Any other command it runs is one of the role's.
    for (const command of (runtime?.instructions ?? []).filter((i) => i.keyword === 'RUN').flatMap(runCommands)) {
      const at = command.indexOf('bin/jacobian.mjs');
      if (at >= 0 && command[at + 1] !== undefined && !command[at + 1]?.startsWith('-')) expect(commands, command.join(' ')).toContain(command[at + 1]);
    }
  });
});

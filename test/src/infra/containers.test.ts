/**
 * The role images and the local development stack, checked without a Docker daemon: the three
 * Dockerfiles, .dockerignore and docker-compose.yml are parsed and held to the deployment
 * contract and to the repository they build from (workspaces, sources, the Debian packages
 * scripts/install-system-deps.sh installs, the environment the application reads).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { keyValues, parseDockerIgnore, parseDockerfile, shellWords, type DockerInstruction, type DockerStage, type Dockerfile } from './dockerfile.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const read = (relative: string): string => readFileSync(path.join(ROOT, relative), 'utf8');

interface RootPackage {
  version: string;
  engines: { node: string };
  workspaces: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
const ROOT_PACKAGE = JSON.parse(read('package.json')) as RootPackage;

const ROLES = [
  { role: 'api', dockerfile: 'services/mcp-api/Dockerfile', exposes: ['8752', '9464'] },
  { role: 'runner', dockerfile: 'services/runner/Dockerfile', exposes: ['9464'] },
  { role: 'checker', dockerfile: 'services/checker/Dockerfile', exposes: ['9464'] },
] as const;
type Role = (typeof ROLES)[number]['role'];

const OPS_PORT = '9464';
const NONROOT_ID = /^[1-9][0-9]*$/;

/**
 * The Debian packages scripts/install-system-deps.sh installs for providers: the packages it
 * adds with `need+=(...)` whose line in the script's header says what provider they serve.
 * The other packages it installs (Redis, Ceph) are test infrastructure.
 */
function providerPackagesOfInstallScript(script: string): string[] {
  const installed = [...script.matchAll(/need\+=\(([^)]*)\)/g)].flatMap((m) => shellWords(m[1] ?? ''));
  const header = script.split('\n').filter((line) => line.startsWith('#'));
  const providers = installed.filter((pkg) =>
    header.some((line) => new RegExp(`^#\\s+(?:\\S+\\s+)*${pkg.replace(/[.+]/g, '\\$&')}\\s{2,}.*\\bprovider`).test(line)),
  );
  return [...new Set(providers)].sort();
}

function finalStage(file: Dockerfile): DockerStage {
  const stage = file.stages.at(-1);
  if (stage === undefined) throw new Error('no FROM');
  return stage;
}

function all(stage: DockerStage, keyword: string): DockerInstruction[] {
  return stage.instructions.filter((ins) => ins.keyword === keyword);
}

function last(stage: DockerStage, keyword: string): DockerInstruction | undefined {
  return all(stage, keyword).at(-1);
}

function labels(stage: DockerStage): Map<string, string> {
  return new Map(all(stage, 'LABEL').flatMap((ins) => [...keyValues(ins)]));
}

function envOf(stage: DockerStage): Map<string, string> {
  return new Map(all(stage, 'ENV').flatMap((ins) => [...keyValues(ins)]));
}

/** Every command word list of a RUN's shell text, split at `&&`, `||`, `;` and `|`. */
function runCommands(ins: DockerInstruction): string[][] {
  const commands: string[][] = [[]];
  for (const word of ins.json ?? ins.args) {
    if (['&&', '||', ';', '|'].includes(word)) commands.push([]);
    else if (word.endsWith(';')) {
      commands.at(-1)?.push(word.slice(0, -1));
      commands.push([]);
    } else commands.at(-1)?.push(word);
  }
  return commands.filter((c) => c.length > 0);
}

/** Debian packages named by `apt-get install` / `apt install` in a stage (versions dropped). */
function aptPackages(stage: DockerStage): string[] {
  const packages: string[] = [];
  for (const ins of all(stage, 'RUN')) {
    for (const command of runCommands(ins)) {
      const start = command.findIndex((word, i) => /^apt(-get)?$/.test(word) && command[i + 1] === 'install');
      if (start < 0) continue;
      for (const word of command.slice(start + 2)) {
        if (word.startsWith('-')) continue;
        const name = /^[a-z0-9][a-z0-9+.-]*/.exec(word);
        if (name === null) throw new Error(`line ${ins.line}: cannot read a package name from ${word}`);
        packages.push(name[0]);
      }
    }
  }
  return packages.sort();
}

/** The HEALTHCHECK's command in exec form (`HEALTHCHECK [--opts] CMD [...]`). */
function healthcheckCommand(ins: DockerInstruction): string[] | undefined {
  const rest = ins.raw.replace(/^(?:--\S+\s+)*/, '');
  const match = /^CMD\s+(\[[\s\S]*\])$/i.exec(rest);
  if (match === null) return undefined;
  const parsed = JSON.parse(match[1] ?? '') as unknown;
  return Array.isArray(parsed) && parsed.every((v) => typeof v === 'string') ? parsed : undefined;
}

const DOCKERFILES = new Map(ROLES.map(({ role, dockerfile }) => [role, parseDockerfile(read(dockerfile))]));
const dockerfileOf = (role: Role): Dockerfile => {
  const file = DOCKERFILES.get(role);
  if (file === undefined) throw new Error(role);
  return file;
};

describe('the Dockerfile reader', () => {
  it('joins continuations, skips comments inside them, and reads JSON and shell forms', () => {
    const file = parseDockerfile(
      [
        '# syntax=docker/dockerfile:1',
        'ARG BASE=node:24',
        'FROM ${BASE} AS build',
        'RUN apt-get install -y \\',
        '  # a comment inside the instruction',
        '      "a=1" \\',
        '',
        '      b',
        'copy --from=build --chown=1:1 ["x y", "/z"]',
        'LABEL a="one two" b=3',
        'ENV OLD form value',
        'CMD ["api", "--port", "1"]',
      ].join('\n'),
    );
    expect(file.preamble.map((i) => i.keyword)).toEqual(['ARG']);
    const stage = file.stages[0];
    expect(stage?.name).toBe('build');
    expect(stage?.instructions.map((i) => i.keyword)).toEqual(['RUN', 'COPY', 'LABEL', 'ENV', 'CMD']);
    expect(stage?.instructions[0]?.args).toEqual(['apt-get', 'install', '-y', 'a=1', 'b']);
    expect(stage?.instructions[1]?.flags).toEqual({ from: 'build', chown: '1:1' });
    expect(stage?.instructions[1]?.json).toEqual(['x y', '/z']);
    expect(stage && [...labels(stage)]).toEqual([['a', 'one two'], ['b', '3']]);
    expect(stage && envOf(stage).get('OLD')).toBe('form value');
    expect(stage?.instructions[4]?.json).toEqual(['api', '--port', '1']);
  });

  it('honours the escape directive and rejects heredocs', () => {
    const file = parseDockerfile('# escape=`\nFROM a AS b\nRUN echo one `\n  two\n');
    expect(file.stages[0]?.instructions[0]?.args).toEqual(['echo', 'one', 'two']);
    expect(() => parseDockerfile('FROM a\nRUN <<EOF\necho\nEOF\n')).toThrow(/heredoc/);
  });

  it('applies .dockerignore rules as Docker does: last match wins, folders cover their contents', () => {
    const ignore = parseDockerIgnore('*\n!src/\n**/*.test.ts\n!keep/**\n/node_modules\n');
    expect(ignore.excludes('README.md')).toBe(true);
    expect(ignore.excludes('src/a.ts')).toBe(false);
    expect(ignore.excludes('src/deep/a.test.ts')).toBe(true);
    expect(ignore.excludes('keep/x/y.test.ts')).toBe(false);
    expect(ignore.excludes('node_modules/x')).toBe(true);
    expect(parseDockerIgnore('node_modules\n').excludes('shared/node_modules/x')).toBe(false);
    expect(parseDockerIgnore('**/node_modules\n').excludes('shared/node_modules/x')).toBe(true);
  });

  it('reads the provider packages of scripts/install-system-deps.sh', () => {
    const packages = providerPackagesOfInstallScript(read('scripts/install-system-deps.sh'));
    // At least one provider package, and none of the test infrastructure.
    expect(packages.length).toBeGreaterThan(0);
    expect(packages).not.toContain('redis-server');
    expect(packages).not.toContain('radosgw');
  });
});

const IGNORE = parseDockerIgnore(read('.dockerignore'));

/** Files under `relative` (a file or folder) that the build context keeps. */
function contextFiles(relative: string): string[] {
  const full = path.join(ROOT, relative);
  if (!existsSync(full) || IGNORE.excludes(relative)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full).flatMap((entry) => contextFiles(path.posix.join(relative, entry)));
}

describe.each(ROLES)('the $role image ($dockerfile)', ({ role, dockerfile, exposes }) => {
  const file = dockerfileOf(role);
  const runtime = finalStage(file);

  it('is multi-stage with named stages, built and run on one pinned Node LTS image that satisfies engines.node', () => {
    expect(file.stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of file.stages) expect(stage.name, `line ${stage.from.line}`).toMatch(/^[a-z][a-z0-9_-]*$/);
    const match = /^node:((\d+)(?:\.\d+){0,2})-[a-z0-9.-]+$/.exec(runtime.base);
    expect(match, `${runtime.base} is not node:<version>-<variant>`).not.toBeNull();
    const [, version = '', major = ''] = match ?? [];
    expect(Number(major) % 2, `Node ${major} is not an LTS line`).toBe(0);
    // Every release the tag can resolve to satisfies the root package's engines.
    expect(semver.subset(version, ROOT_PACKAGE.engines.node), `${version} vs engines ${ROOT_PACKAGE.engines.node}`).toBe(true);
    // Native modules installed in the build stage must match the runtime's Node and libc.
    for (const stage of file.stages.filter((s) => s.base.startsWith('node:'))) expect(stage.base).toBe(runtime.base);
    // The test command runs the end-to-end suites under a Node of the same release line.
    const tested = /JACOBIAN_IMAGE_NODE_VERSION:-(\d+)\.\d+\.\d+/.exec(read('scripts/node-images.sh'))?.[1];
    expect(tested, 'scripts/node-images.sh installs the Node the images run').toBe(major);
  });

  it('runs as a numeric non-root user created in the image, from /app with a writable data directory', () => {
    const user = last(runtime, 'USER');
    expect(user?.args).toHaveLength(1);
    const [uid, gid] = (user?.args[0] ?? '').split(':');
    expect(uid).toMatch(NONROOT_ID);
    expect(gid).toMatch(NONROOT_ID);
    const runs = all(runtime, 'RUN').map((r) => r.raw);
    expect(runs.some((r) => new RegExp(`useradd\\b.*--uid ${uid}\\b`).test(r)), `useradd --uid ${uid}`).toBe(true);
    expect(runs.some((r) => new RegExp(`groupadd\\b.*--gid ${gid}\\b`).test(r)), `groupadd --gid ${gid}`).toBe(true);
    expect(last(runtime, 'WORKDIR')?.args).toEqual(['/app']);
    const env = envOf(runtime);
    expect(env.get('NODE_ENV')).toBe('production');
    const dataDir = env.get('JACOBIAN_DATA_DIR') ?? '';
    expect(dataDir).toMatch(/^\//);
    // Created there, owned by that user.
    expect(runs.some((r) => r.includes(dataDir) && new RegExp(`-o ${uid} -g ${gid}|chown (-R )?${uid}:${gid}`).test(r)), `${dataDir} owned by ${uid}:${gid}`).toBe(true);
    expect(env.get('JACOBIAN_OPS_PORT') ?? OPS_PORT).toBe(OPS_PORT);
  });

  it(`runs node bin/jacobian.mjs ${role}, exposes ${exposes.join(' ')}, stops on SIGTERM and checks /healthz`, () => {
    expect(last(runtime, 'ENTRYPOINT')?.json).toEqual(['node', 'bin/jacobian.mjs']);
    const cmd = last(runtime, 'CMD')?.json;
    expect(cmd?.[0]).toBe(role);
    if (role === 'api') expect(cmd).toEqual(['api', '--host', '0.0.0.0', '--port', '8752']);
    expect(all(runtime, 'EXPOSE').flatMap((e) => e.args).sort()).toEqual([...exposes].sort());
    expect(last(runtime, 'STOPSIGNAL')?.args).toEqual(['SIGTERM']);
    const health = last(runtime, 'HEALTHCHECK');
    expect(health).toBeDefined();
    const command = health && healthcheckCommand(health);
    expect(command?.[0]).toBe('node');
    expect(command?.join(' ')).toContain(`http://127.0.0.1:${OPS_PORT}/healthz`);
  });

  it('carries the OCI labels, with the version and revision from build arguments', () => {
    const found = labels(runtime);
    for (const key of ['title', 'version', 'source', 'revision', 'licenses']) {
      expect(found.get(`org.opencontainers.image.${key}`), key).toBeTruthy();
    }
    expect(found.get('org.opencontainers.image.licenses')).toBe('MIT');
    expect(found.get('org.opencontainers.image.title')).toContain(role);
    expect(found.get('org.opencontainers.image.version')).toBe('${JACOBIAN_VERSION}');
    expect(found.get('io.jacobian.node.version')).toBeTruthy();
    const args = new Set(all(runtime, 'ARG').map((a) => (a.args[0] ?? '').split('=')[0]));
    expect(args).toContain('JACOBIAN_VERSION');
    const revision = /^\$\{(\w+)\}$/.exec(found.get('org.opencontainers.image.revision') ?? '');
    expect(revision, 'the revision label comes from a build argument').not.toBeNull();
    expect(args).toContain(revision?.[1]);
  });

  it("installs with npm ci from every workspace manifest, compiles its role's code before anything is dropped, and ships no compiler", () => {
    // Each stage that runs npm ci (the build's, with the compiler; the production install's, see
    // role-images.test.ts) copies every manifest first: npm ci checks the lockfile against them all.
    const installing = file.stages.filter((stage) => all(stage, 'RUN').some((r) => /\bnpm ci\b/.test(r.raw)));
    expect(installing.length, 'stages run npm ci').toBeGreaterThan(0);
    for (const stage of installing) {
      const ciAt = stage.instructions.findIndex((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.raw));
      const copiedBefore = stage.instructions.slice(0, ciAt).filter((i) => i.keyword === 'COPY').flatMap((i) => (i.json ?? i.args).slice(0, -1));
      for (const manifest of ['package.json', 'package-lock.json', ...ROOT_PACKAGE.workspaces.map((w) => `${w}/package.json`)]) {
        expect(copiedBefore, `${stage.name}: ${manifest} is copied before npm ci`).toContain(manifest);
      }
    }
    // The image runs compiled JavaScript (scripts/build.mjs writes each workspace's dist/): a stage
    // installs with the dev dependencies (the compiler among them), then compiles.
    const build = installing.find((stage) => all(stage, 'RUN').some((r) => /\bnode scripts\/build\.mjs\b/.test(r.raw)));
    expect(build, 'a stage compiles with scripts/build.mjs').toBeDefined();
    if (build === undefined) return;
    const ciAt = build.instructions.findIndex((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.raw));
    expect(build.instructions[ciAt]?.raw).toMatch(/--include=dev/);
    const buildAt = build.instructions.findIndex((i) => i.keyword === 'RUN' && /\bnode scripts\/build\.mjs\b/.test(i.raw));
    expect(buildAt, 'compiled after npm ci').toBeGreaterThan(ciAt);
    expect(all(build, 'RUN').map((r) => r.raw).join('\n')).not.toMatch(/\btsx\b/);
    // It compiles the command, shared and the role's own workspace.
    const copiedSources = build.instructions.filter((i) => i.keyword === 'COPY' && i.flags['from'] === undefined).flatMap((i) => (i.json ?? i.args).slice(0, -1).map((s) => s.replace(/\/$/, '')));
    for (const needed of ['bin', 'src', 'scripts/build.mjs', 'shared/src', `${path.dirname(dockerfile)}/src`]) expect(copiedSources, needed).toContain(needed);
    // The runtime takes compiled output from the build stage, never its node_modules (dev dependencies, the compiler).
    const fromBuild = all(runtime, 'COPY').filter((c) => c.flags['from'] === build.name);
    expect(fromBuild.length, 'the runtime stage copies the compiled code').toBeGreaterThan(0);
    for (const copy of fromBuild) {
      for (const source of (copy.json ?? copy.args).slice(0, -1)) expect(source, `line ${copy.line}`).toMatch(/(^|\/)(bin|dist)\/?$/);
    }
  });

  it('copies only from earlier stages, and only files the build context keeps', () => {
    const seen = new Set<string>();
    for (const stage of file.stages) {
      for (const copy of stage.instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')) {
        const from = copy.flags['from'];
        const sources = (copy.json ?? copy.args).slice(0, -1);
        expect(sources.length, `line ${copy.line}: a source and a destination`).toBeGreaterThan(0);
        if (from !== undefined) {
          expect(seen, `line ${copy.line}: --from=${from} names an earlier stage`).toContain(from.toLowerCase());
          continue;
        }
        for (const source of sources) {
          expect(source, `line ${copy.line}: no wildcards or URLs`).toMatch(/^[\w./-]+$/);
          const relative = path.posix.normalize(source).replace(/\/$/, '');
          expect(existsSync(path.join(ROOT, relative)), `line ${copy.line}: ${source} exists`).toBe(true);
          expect(IGNORE.excludes(relative), `line ${copy.line}: ${source} is excluded by .dockerignore`).toBe(false);
          expect(contextFiles(relative).length, `line ${copy.line}: ${source} brings files into the context`).toBeGreaterThan(0);
        }
      }
      if (stage.name !== undefined) seen.add(stage.name);
    }
  });

  const providerPackages = providerPackagesOfInstallScript(read('scripts/install-system-deps.sh'));
  if (role === 'runner') {
    it('installs exactly the provider packages of scripts/install-system-deps.sh, and records their versions', () => {
      expect(aptPackages(runtime)).toEqual(providerPackages);
      const runs = all(runtime, 'RUN').map((r) => r.raw);
      const install = runs.find((r) => /apt-get install/.test(r)) ?? '';
      expect(install).toContain('--no-install-recommends');
      expect(install).toMatch(/rm -rf \/var\/lib\/apt\/lists/);
      const query = runs.flatMap((r) => [...r.matchAll(/dpkg-query -W ((?:[a-z0-9][a-z0-9+.-]*\s*)+)>\s*(\S+)/g)]);
      expect(query, 'dpkg-query -W ... > FILE').toHaveLength(1);
      expect(shellWords(query[0]?.[1] ?? '').sort()).toEqual(providerPackages);
      const found = labels(runtime);
      for (const pkg of providerPackages) expect(found.get(`io.jacobian.provider.${pkg}.version`), pkg).toBeDefined();
    });
  } else {
    it('installs no Debian packages in any stage', () => {
      for (const stage of file.stages) expect(aptPackages(stage), stage.name).toEqual([]);
    });
  }
});

// ---- docker-compose.yml ----

interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  ports?: (string | { target: number; published?: string | number; host_ip?: string })[];
  volumes?: (string | { type?: string; source?: string; target: string; read_only?: boolean })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  user?: string;
  read_only?: boolean;
  security_opt?: string[];
  cap_drop?: string[];
  stop_grace_period?: string;
  healthcheck?: { test?: unknown; disable?: boolean };
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const COMPOSE = parseYaml(read('docker-compose.yml'), { merge: true }) as ComposeFile;
const SERVICES = Object.entries(COMPOSE.services);
/** Services built from this repository: the Jacobian roles (and the keygen one-shot). */
const JACOBIAN = SERVICES.filter(([, s]) => s.build !== undefined);
const words = (value: string[] | string | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : shellWords(value));
const roleOf = (s: ComposeService): string | undefined => words(s.command)[0];

/** Names the application reads: every JACOBIAN_*, S3_* and REDIS_* the CLI's sources mention. */
function applicationEnvironment(): Set<string> {
  const names = new Set<string>();
  for (const source of ['src/cli.ts', 'src/config.ts', 'src/cluster-config.ts']) {
    for (const match of read(source).matchAll(/\b(?:JACOBIAN|S3|REDIS)_[A-Z0-9_]*[A-Z0-9]\b/g)) names.add(match[0]);
  }
  return names;
}
/** The AWS SDK's credential chain (static keys: development only). */
const AWS_CHAIN = new Set(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_REGION', 'AWS_PROFILE', 'AWS_ROLE_ARN', 'AWS_WEB_IDENTITY_TOKEN_FILE']);

/** Compose durations: 1m30s, 45s, 500ms, 2h. */
function durationMs(value: string): number {
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|ns)/g)];
  expect(parts.map((p) => p[0]).join(''), `duration ${value}`).toBe(value);
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, ns: 0.000001 };
  return parts.reduce((sum, p) => sum + Number(p[1]) * (unit[p[2] ?? ''] ?? Number.NaN), 0);
}

interface Mount {
  source: string | undefined;
  target: string;
  readOnly: boolean;
}
function mounts(s: ComposeService): Mount[] {
  return (s.volumes ?? []).map((v) => {
    if (typeof v !== 'string') return { source: v.source, target: v.target, readOnly: v.read_only === true };
    const [source, target, mode] = v.split(':');
    return target === undefined ? { source: undefined, target: source ?? '', readOnly: false } : { source, target, readOnly: (mode ?? '').split(',').includes('ro') };
  });
}

interface Published {
  hostIp: string | undefined;
  published: string | undefined;
}
function published(s: ComposeService): Published[] {
  return (s.ports ?? []).map((p) => {
    if (typeof p !== 'string') return { hostIp: p.host_ip, published: p.published === undefined ? undefined : String(p.published) };
    // [HOST_IP:][HOST_PORT:]CONTAINER_PORT[/PROTOCOL]; an IPv6 host is bracketed.
    const parts = p.replace(/\/\w+$/, '').match(/(\[[^\]]*\]|[^:]+)/g) ?? [];
    if (parts.length === 3) return { hostIp: parts[0], published: parts[1] };
    if (parts.length === 2) return { hostIp: undefined, published: parts[0] };
    return { hostIp: undefined, published: undefined };
  });
}

const mountCovers = (m: Mount, file: string): boolean => file.startsWith(m.target.replace(/\/$/, '') + '/');

describe('docker-compose.yml', () => {
  it('has the services of the development stack, built from the role Dockerfiles', () => {
    for (const name of ['redis', 'minio', 'minio-setup', 'keygen', 'api', 'runner-light', 'runner-heavy', 'checker', 'jaeger']) {
      expect(COMPOSE.services, name).toHaveProperty(name);
    }
    const dockerfiles = new Map<string, string>(ROLES.map((r) => [r.role, r.dockerfile]));
    dockerfiles.set('keygen', 'services/checker/Dockerfile');
    for (const [name, s] of JACOBIAN) {
      expect(s.build?.context ?? '.', name).toBe('.');
      const dockerfile = s.build?.dockerfile ?? '';
      expect(existsSync(path.join(ROOT, dockerfile)), `${name}: ${dockerfile} exists`).toBe(true);
      const expected = dockerfiles.get(name === 'keygen' ? 'keygen' : (roleOf(s) ?? ''));
      expect(dockerfile, `${name} builds its role's image`).toBe(expected);
    }
    expect(JACOBIAN.map(([, s]) => roleOf(s)).filter((r) => r !== undefined).sort()).toEqual(expect.arrayContaining(['api', 'checker', 'runner', 'runner']));
    // Each image is named after its workspace, as the Kubernetes manifests name it (jacobian/mcp-api…).
    for (const [name, s] of JACOBIAN) expect(s.image, name).toBe(`jacobian/${path.basename(path.dirname(s.build?.dockerfile ?? ''))}:dev`);
    expect(words(COMPOSE.services['runner-light']?.command)).toEqual(['runner', '--pools', 'light']);
    expect(words(COMPOSE.services['runner-heavy']?.command)).toEqual(['runner', '--pools', 'heavy']);
    expect(words(COMPOSE.services['keygen']?.command).join(' ')).toMatch(/jacobian\.mjs keygen --out \S+/);
  });

  it('publishes only the API and the trace viewer, and only on 127.0.0.1', () => {
    for (const [name, s] of SERVICES) {
      const ports = published(s);
      if (ports.length > 0) expect(['api', 'jaeger'], `${name} publishes ports`).toContain(name);
      for (const port of ports) expect(port.hostIp, `${name}: ${port.published ?? '?'} binds 127.0.0.1`).toBe('127.0.0.1');
    }
    expect(published(COMPOSE.services['checker'] ?? {})).toEqual([]);
    expect(published(COMPOSE.services['api'] ?? {}).map((p) => p.published)).toEqual(['8752']);
    expect(published(COMPOSE.services['jaeger'] ?? {}).map((p) => p.published)).toEqual(['16686']);
  });

  it('orders start-up on health and completion, towards services that exist', () => {
    for (const [name, s] of SERVICES) {
      const deps: Record<string, { condition?: string }> = Array.isArray(s.depends_on) ? Object.fromEntries(s.depends_on.map((d) => [d, { condition: 'service_started' }])) : (s.depends_on ?? {});
      for (const [target, spec] of Object.entries(deps)) {
        expect(COMPOSE.services, `${name} depends on ${target}`).toHaveProperty(target);
        expect(['service_started', 'service_healthy', 'service_completed_successfully'], `${name} -> ${target}`).toContain(spec.condition);
        if (spec.condition === 'service_healthy') {
          expect(COMPOSE.services[target]?.healthcheck?.test ?? (COMPOSE.services[target]?.build ? 'image HEALTHCHECK' : undefined), `${target} has a healthcheck`).toBeDefined();
        }
      }
    }
    for (const name of ['api', 'runner-light', 'runner-heavy', 'checker']) {
      const deps = COMPOSE.services[name]?.depends_on as Record<string, { condition?: string }> | undefined;
      expect(deps?.['redis']?.condition, name).toBe('service_healthy');
      expect(deps?.['minio-setup']?.condition, name).toBe('service_completed_successfully');
    }
    for (const name of ['api', 'checker']) {
      expect((COMPOSE.services[name]?.depends_on as Record<string, { condition?: string }>)['keygen']?.condition, name).toBe('service_completed_successfully');
    }
  });

  it('mounts the private key only into the checker and keygen, and the public key read-only into the API', () => {
    const checker = COMPOSE.services['checker'] ?? {};
    const keyFile = String(checker.environment?.['JACOBIAN_CHECKER_KEY_FILE'] ?? '');
    const privateMount = mounts(checker).find((m) => mountCovers(m, keyFile));
    expect(privateMount, `a volume holds ${keyFile}`).toBeDefined();
    expect(privateMount?.readOnly, 'the checker mounts its key read-only').toBe(true);
    const privateVolume = privateMount?.source ?? '';
    expect(COMPOSE.volumes, 'a named volume').toHaveProperty(privateVolume);
    const holders = SERVICES.filter(([, s]) => mounts(s).some((m) => m.source === privateVolume)).map(([name]) => name);
    expect(holders.sort()).toEqual(['checker', 'keygen']);

    const api = COMPOSE.services['api'] ?? {};
    const publicKeys = String(api.environment?.['JACOBIAN_CHECKER_PUBLIC_KEYS'] ?? '').split(',').filter((k) => k.length > 0);
    expect(publicKeys.length).toBeGreaterThan(0);
    for (const key of publicKeys) {
      const mount = mounts(api).find((m) => mountCovers(m, key));
      expect(mount, `a volume holds ${key}`).toBeDefined();
      expect(mount?.readOnly, `${key} is mounted read-only`).toBe(true);
      expect(mount?.source).not.toBe(privateVolume);
      // keygen writes the public key into that volume.
      expect(mounts(COMPOSE.services['keygen'] ?? {}).some((m) => m.source === mount?.source && !m.readOnly)).toBe(true);
    }
  });

  it('gives Jacobian services only environment variables the application reads', () => {
    const known = applicationEnvironment();
    // The contract's names must be among them, or the grep above reads the wrong files.
    for (const name of ['REDIS_URL', 'S3_BUCKET', 'JACOBIAN_CHECKER_KEY_FILE', 'JACOBIAN_DRAIN_GRACE_MS', 'JACOBIAN_DATA_DIR']) expect(known).toContain(name);
    for (const [name, s] of JACOBIAN) {
      for (const variable of Object.keys(s.environment ?? {})) {
        const allowed = known.has(variable) || variable.startsWith('OTEL_') || variable.startsWith('JACOBIAN_OPS_') || AWS_CHAIN.has(variable);
        expect(allowed, `${name}: ${variable} is not read by Jacobian`).toBe(true);
      }
    }
  });

  it('configures every role for the stack: Redis, MinIO, tracing, operations port, hardening', () => {
    const serviceNames = new Set<string>();
    for (const [name, s] of JACOBIAN) {
      expect(s.user, name).toBe('10001:10001');
      expect(s.read_only, name).toBe(true);
      expect(s.security_opt, name).toContain('no-new-privileges:true');
      expect(s.cap_drop, name).toEqual(['ALL']);
      if (name === 'keygen') continue;
      const env = s.environment ?? {};
      expect(env['REDIS_URL'], name).toBe('redis://redis:6379');
      expect(env['S3_ENDPOINT'], name).toBe('http://minio:9000');
      expect(String(env['S3_FORCE_PATH_STYLE']), name).toBe('true');
      expect(env['JACOBIAN_OPS_HOST'], name).toBe('0.0.0.0');
      expect(env['OTEL_EXPORTER_OTLP_ENDPOINT'], name).toBe('http://jaeger:4318');
      const service = String(env['OTEL_SERVICE_NAME'] ?? '');
      expect(service, name).not.toBe('');
      expect(serviceNames.has(service), `${name}: OTEL_SERVICE_NAME ${service} is unique`).toBe(false);
      serviceNames.add(service);
    }
    expect(COMPOSE.services['jaeger']?.image).toMatch(/^jaegertracing\/all-in-one:\d/);
  });

  it("gives runners a stop grace period longer than their drain grace", () => {
    const defaultGrace = /JACOBIAN_DRAIN_GRACE_MS:[^\n]*\.default\(([\d_]+)\)/.exec(read('src/cluster-config.ts'));
    expect(defaultGrace, 'the default drain grace in src/cluster-config.ts').not.toBeNull();
    const runners = JACOBIAN.filter(([, s]) => roleOf(s) === 'runner');
    expect(runners.length).toBeGreaterThan(0);
    for (const [name, s] of runners) {
      const drain = Number(s.environment?.['JACOBIAN_DRAIN_GRACE_MS'] ?? (defaultGrace?.[1] ?? '').replace(/_/g, ''));
      expect(s.stop_grace_period, `${name} sets stop_grace_period`).toBeDefined();
      expect(durationMs(s.stop_grace_period ?? ''), name).toBeGreaterThan(drain);
    }
  });

  const compose = (() => {
    for (const command of [['docker', 'compose'], ['docker-compose']]) {
      const probe = spawnSync(command[0] ?? '', [...command.slice(1), 'version'], { stdio: 'ignore' });
      if (probe.status === 0) return command;
    }
    return undefined;
  })();
  it('is accepted by docker compose config', ({ skip }) => {
    if (compose === undefined) skip('neither `docker compose` nor `docker-compose` is installed');
    const [bin = '', ...args] = compose ?? [];
    execFileSync(bin, [...args, '-f', path.join(ROOT, 'docker-compose.yml'), 'config', '-q'], { cwd: ROOT, stdio: 'pipe' });
  });
});

/**
 * Static checks of the Terraform under infra/terraform (no terraform binary is needed): every file
 * parses as HCL; variables are typed and described; module calls match the modules they call (envs →
 * modules/jacobian → artifact_bucket, redis, workload_identity), and every environment-specific value
 * reaches the argument it is meant to set; the environments' outputs are wired to the child modules'
 * outputs and include what the Kubernetes overlay reads; the bucket and Redis are locked down; and the
 * IAM policy documents, evaluated by a small policy simulator over sample keys of the artifact
 * layout, give each role exactly the access the deployment contract allows (only the checker writes
 * verification records, the api writes nothing, nobody deletes). Also runs
 * scripts/terraform-outputs-to-env.mjs on a sample `terraform output -json` document.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@cdktf/hcl2json';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const TF_ROOT = path.join(ROOT, 'infra', 'terraform');
const ENVS = ['dev', 'prod'] as const;
const SCRIPT = path.join(ROOT, 'scripts', 'terraform-outputs-to-env.mjs');
const OVERLAY_ENV_FILE = path.join(ROOT, 'infra', 'k8s', 'overlays', 'prod', 'terraform-outputs.env');

/** Outputs of envs/prod the prod overlay and its operator need (deployment contract). */
const OVERLAY_OUTPUTS = [
  's3_bucket',
  's3_region',
  'api_role_arn',
  'runner_role_arn',
  'checker_role_arn',
  'redis_host',
  'redis_port',
  'redis_url_secret_arn',
] as const;
/** Keys of infra/k8s/overlays/prod/terraform-outputs.env (deployment contract). */
const CONTRACT_ENV_KEYS = ['S3_BUCKET', 'S3_REGION', 'API_ROLE_ARN', 'RUNNER_ROLE_ARN', 'CHECKER_ROLE_ARN', 'REDIS_HOST', 'REDIS_PORT'];

// ---------------------------------------------------------------------------------------------
// Reading the parsed HCL (hcl2json: blocks are arrays of objects, expressions are "${...}" strings).

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function obj(value: unknown, what: string): Obj {
  if (!isObj(value)) throw new Error(`${what}: expected an object, got ${JSON.stringify(value)}`);
  return value;
}

/** A nested block (or its absence) as a list of bodies. */
function blocks(value: unknown): Obj[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  return list.map((item, i) => obj(item, `block #${i}`));
}

/** The single body of a block that must appear exactly once. */
function single(value: unknown, what: string): Obj {
  const list = blocks(value);
  if (list.length !== 1) throw new Error(`${what}: expected exactly one block, found ${list.length}`);
  return list[0] as Obj;
}

function strings(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`${what}: expected a list of strings, got ${JSON.stringify(value)}`);
  return value;
}

interface TfDir {
  dir: string;
  files: string[];
  variables: Map<string, Obj>;
  outputs: Map<string, Obj>;
  modules: Map<string, Obj>;
  /** `type.name` → body */
  resources: Map<string, Obj>;
  /** `type.name` → body */
  data: Map<string, Obj>;
  locals: Map<string, unknown>;
  terraform: Obj[];
  providers: Map<string, Obj[]>;
  /** `moved` blocks, in file order */
  moved: Obj[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (entry.startsWith('.')) return [];
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

const TF_FILES = existsSync(TF_ROOT) ? walk(TF_ROOT).filter((f) => f.endsWith('.tf')) : [];
const TFVARS_EXAMPLES = existsSync(TF_ROOT) ? walk(TF_ROOT).filter((f) => f.endsWith('.tfvars.example')) : [];
const rel = (file: string): string => path.relative(ROOT, file);

const parsed = new Map<string, { json?: Obj; error?: string }>();
const dirs = new Map<string, TfDir>();

function addNamed(target: Map<string, Obj>, section: unknown, where: string, prefix = ''): void {
  if (section === undefined) return;
  for (const [name, body] of Object.entries(obj(section, where))) {
    const key = prefix + name;
    if (target.has(key)) throw new Error(`${where}: ${key} is declared twice`);
    target.set(key, single(body, `${where} ${key}`));
  }
}

function collect(dir: string): TfDir {
  const result: TfDir = {
    dir,
    files: [],
    variables: new Map(),
    outputs: new Map(),
    modules: new Map(),
    resources: new Map(),
    data: new Map(),
    locals: new Map(),
    terraform: [],
    providers: new Map(),
    moved: [],
  };
  for (const file of TF_FILES.filter((f) => path.dirname(f) === dir)) {
    result.files.push(file);
    const json = parsed.get(file)?.json;
    if (json === undefined) continue;
    const where = rel(file);
    addNamed(result.variables, json['variable'], where);
    addNamed(result.outputs, json['output'], where);
    addNamed(result.modules, json['module'], where);
    for (const [section, target] of [
      ['resource', result.resources],
      ['data', result.data],
    ] as const) {
      if (json[section] === undefined) continue;
      for (const [type, named] of Object.entries(obj(json[section], where))) addNamed(target, named, where, `${type}.`);
    }
    for (const locals of blocks(json['locals'])) for (const [name, value] of Object.entries(locals)) result.locals.set(name, value);
    result.terraform.push(...blocks(json['terraform']));
    result.moved.push(...blocks(json['moved']));
    if (json['provider'] !== undefined) {
      for (const [name, bodies] of Object.entries(obj(json['provider'], where))) result.providers.set(name, [...(result.providers.get(name) ?? []), ...blocks(bodies)]);
    }
  }
  return result;
}

function tfDir(...segments: string[]): TfDir {
  const dir = path.join(TF_ROOT, ...segments);
  const found = dirs.get(dir);
  if (found === undefined) throw new Error(`no Terraform files in ${rel(dir)}`);
  return found;
}

function resource(d: TfDir, address: string): Obj {
  const body = d.resources.get(address) ?? d.data.get(address);
  if (body === undefined) throw new Error(`${rel(d.dir)} has no ${address}`);
  return body;
}

function resourcesOfType(d: TfDir, type: string): [string, Obj][] {
  return [...d.resources].filter(([address]) => address.startsWith(`${type}.`)).map(([address, body]) => [address.slice(type.length + 1), body]);
}

/** `"${a.b.c}"` → `a.b.c`; anything that is not one whole reference → undefined. */
function reference(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\$\{\s*([A-Za-z0-9_.[\]"-]+)\s*\}$/.exec(value);
  return match?.[1];
}

beforeAll(async () => {
  for (const file of TF_FILES) {
    try {
      parsed.set(file, { json: await parse(path.basename(file), readFileSync(file, 'utf8')) });
    } catch (error) {
      parsed.set(file, { error: error instanceof Error ? error.message : String(error) });
    }
  }
  for (const dir of new Set(TF_FILES.map((f) => path.dirname(f)))) dirs.set(dir, collect(dir));
});

// ---------------------------------------------------------------------------------------------

describe('Terraform files', () => {
  it('exist for the four modules and both environments', () => {
    const expected = ['modules/artifact_bucket', 'modules/redis', 'modules/workload_identity', 'modules/jacobian', 'envs/dev', 'envs/prod'];
    for (const d of expected) expect(TF_FILES.some((f) => path.dirname(f) === path.join(TF_ROOT, d)), d).toBe(true);
  });

  it.each(TF_FILES.map(rel))('%s parses as HCL', (file) => {
    const result = parsed.get(path.join(ROOT, file));
    expect(result?.error).toBeUndefined();
    expect(result?.json).toBeDefined();
  });

  it('every variable has a type and a description', () => {
    const problems: string[] = [];
    for (const d of dirs.values()) {
      for (const [name, body] of d.variables) {
        if (typeof body['type'] !== 'string' || body['type'] === '') problems.push(`${rel(d.dir)}: variable ${name} has no type`);
        if (typeof body['description'] !== 'string' || body['description'].trim() === '') problems.push(`${rel(d.dir)}: variable ${name} has no description`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every output has a description, and every variable a module declares is used', () => {
    const problems: string[] = [];
    for (const d of dirs.values()) {
      for (const [name, body] of d.outputs) if (typeof body['description'] !== 'string' || body['description'] === '') problems.push(`${rel(d.dir)}: output ${name} has no description`);
      const text = d.files.map((f) => readFileSync(f, 'utf8')).join('\n');
      for (const name of d.variables.keys()) if (!new RegExp(`\\bvar\\.${name}\\b`).test(text)) problems.push(`${rel(d.dir)}: variable ${name} is never used`);
      for (const [, name] of text.matchAll(/\bvar\.([A-Za-z0-9_]+)/g)) if (!d.variables.has(name as string)) problems.push(`${rel(d.dir)}: var.${name} is not declared`);
    }
    expect([...new Set(problems)]).toEqual([]);
  });

  it('every module pins terraform >= 1.6 and the hashicorp providers it uses', () => {
    for (const d of dirs.values()) {
      const settings = d.terraform;
      expect(settings.length, rel(d.dir)).toBeGreaterThan(0);
      const required = settings.map((s) => s['required_version']).find((v) => v !== undefined);
      expect(required, `${rel(d.dir)} required_version`).toMatch(/^>=\s*1\.(6|7|8|9|1\d)/);
      const providers = Object.assign({}, ...settings.flatMap((s) => blocks(s['required_providers']))) as Obj;
      const text = d.files.map((f) => readFileSync(f, 'utf8')).join('\n');
      const used = new Set([...text.matchAll(/^\s*(?:resource|data)\s+"([a-z0-9]+)_/gm)].map((m) => m[1] as string));
      for (const name of used) {
        const entry = obj(providers[name], `${rel(d.dir)} required_providers.${name}`);
        expect(entry['source']).toBe(`hashicorp/${name}`);
        expect(entry['version'], `${rel(d.dir)} ${name} version`).toMatch(/^>=\s*\d+\.\d+,\s*<\s*\d+\.0$|^~>\s*\d+\.\d+$/);
      }
      if (used.has('aws')) expect(String(obj(providers['aws'], 'aws')['version'])).toMatch(/^(>=\s*5\.\d+,\s*<\s*7\.0|~>\s*[56]\.\d+)$/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Module calls: envs/<env> → modules/jacobian → modules/artifact_bucket, redis, workload_identity.

const MODULE_META_ARGUMENTS = new Set(['source', 'version', 'providers', 'depends_on', 'count', 'for_each']);
const CHILD_MODULES = ['artifact_bucket', 'redis', 'workload_identity'] as const;

/** The directory a module call of `d` points to (a local path). */
function calledModule(d: TfDir, name: string): TfDir {
  const call = d.modules.get(name);
  if (call === undefined) throw new Error(`${rel(d.dir)} has no module "${name}"`);
  const source = call['source'];
  if (typeof source !== 'string' || !source.startsWith('.')) throw new Error(`${rel(d.dir)} module ${name}: source must be a local path, got ${JSON.stringify(source)}`);
  const dir = path.resolve(d.dir, source);
  if (!dirs.has(dir)) throw new Error(`${rel(d.dir)} module ${name}: ${rel(dir)} holds no Terraform files`);
  return tfDir(path.relative(TF_ROOT, dir));
}

/** Every call in `d` passes only variables the called module declares, and all its required ones. */
function expectCallsMatch(d: TfDir, expected: readonly string[]): void {
  expect([...d.modules.keys()].sort()).toEqual([...expected].sort());
  for (const [name, call] of d.modules) {
    const mod = calledModule(d, name);
    const passed = Object.keys(call).filter((k) => !MODULE_META_ARGUMENTS.has(k));
    const undeclared = passed.filter((k) => !mod.variables.has(k));
    const missing = [...mod.variables].filter(([, body]) => !('default' in body)).map(([k]) => k).filter((k) => !passed.includes(k));
    expect({ caller: rel(d.dir), module: name, undeclared, missing }).toEqual({ caller: rel(d.dir), module: name, undeclared: [], missing: [] });
  }
}

/** Every `module.<call>.<output>` reference in `d` names an output the called module declares. */
function expectOutputReferencesDeclared(d: TfDir): void {
  const text = d.files.map((f) => readFileSync(f, 'utf8')).join('\n');
  // `module.a.module.b` (addresses in moved blocks) is not an output reference.
  const refs = [...text.matchAll(/\bmodule\.([a-z0-9_]+)\.(?!module\.)([a-z0-9_]+)/g)].map((m) => [m[1] as string, m[2] as string] as const);
  expect(refs.length, rel(d.dir)).toBeGreaterThan(0);
  for (const [name, output] of refs) {
    expect(d.modules.has(name), `${rel(d.dir)}: module.${name} is called`).toBe(true);
    expect(calledModule(d, name).outputs.has(output), `${rel(d.dir)}: module.${name}.${output} is declared`).toBe(true);
  }
}

/** What an output of `d` ultimately is: module outputs are followed down to the module that computes them. */
function resolveOutput(d: TfDir, name: string): string {
  const value = reference(d.outputs.get(name)?.['value']);
  if (value === undefined) throw new Error(`${rel(d.dir)} output ${name}: expected one whole reference, got ${JSON.stringify(d.outputs.get(name)?.['value'])}`);
  const viaModule = /^module\.([a-z0-9_]+)\.([a-z0-9_]+)$/.exec(value);
  if (viaModule === null) return `${rel(d.dir)}: ${value}`;
  return resolveOutput(calledModule(d, viaModule[1] as string), viaModule[2] as string);
}

/** Where each overlay output of an environment must come from. */
const OUTPUT_SOURCES: Record<(typeof OVERLAY_OUTPUTS)[number], string> = {
  s3_bucket: 'infra/terraform/modules/artifact_bucket: aws_s3_bucket.artifacts.bucket',
  s3_region: 'infra/terraform/envs/<env>: var.aws_region',
  api_role_arn: 'infra/terraform/modules/workload_identity: aws_iam_role.api.arn',
  runner_role_arn: 'infra/terraform/modules/workload_identity: aws_iam_role.runner.arn',
  checker_role_arn: 'infra/terraform/modules/workload_identity: aws_iam_role.checker.arn',
  redis_host: 'infra/terraform/modules/redis: aws_elasticache_replication_group.redis.primary_endpoint_address',
  redis_port: 'infra/terraform/modules/redis: local.port',
  redis_url_secret_arn: 'infra/terraform/modules/redis: aws_secretsmanager_secret.redis_url.arn',
};

/** Variables of an environment that configure the root itself rather than module.jacobian. */
const ROOT_ONLY_VARIABLES = new Set(['aws_region', 'extra_tags']);

/**
 * How modules/jacobian hands its variables to the modules it calls: `<call>.<argument>` → the
 * expression it must be. An environment's value therefore sets exactly this argument.
 */
const JACOBIAN_WIRING: Record<string, string> = {
  'artifact_bucket.bucket_name': '${var.artifact_bucket_name}',
  'artifact_bucket.prefix': '${var.s3_prefix}',
  'artifact_bucket.record_writer_role_arns': '["${module.workload_identity.checker_role_arn}"]',
  'artifact_bucket.temporary_prefixes': '${var.temporary_prefixes}',
  'artifact_bucket.temporary_object_expiration_days': '${var.temporary_object_expiration_days}',
  'artifact_bucket.noncurrent_version_expiration_days': '${var.noncurrent_version_expiration_days}',
  'artifact_bucket.abort_incomplete_multipart_upload_days': '${var.abort_incomplete_multipart_upload_days}',
  'artifact_bucket.kms_key_deletion_window_days': '${var.artifact_kms_key_deletion_window_days}',
  'artifact_bucket.force_destroy': '${var.artifact_bucket_force_destroy}',
  'redis.name': '${local.name}',
  'redis.vpc_id': '${local.cluster.vpc_config[0].vpc_id}',
  'redis.subnet_ids': '${var.redis_subnet_ids}',
  'redis.source_security_group_id': '${coalesce(var.redis_allowed_security_group_id, local.cluster.vpc_config[0].cluster_security_group_id)}',
  'redis.node_type': '${var.redis_node_type}',
  'redis.num_cache_clusters': '${var.redis_num_cache_clusters}',
  'redis.automatic_failover_enabled': '${var.redis_automatic_failover_enabled}',
  'redis.multi_az_enabled': '${var.redis_multi_az_enabled}',
  'redis.snapshot_retention_limit': '${var.redis_snapshot_retention_days}',
  'redis.apply_immediately': '${var.redis_apply_immediately}',
  'redis.secret_recovery_window_days': '${var.redis_secret_recovery_window_days}',
  'workload_identity.name_prefix': '${local.name}',
  'workload_identity.oidc_provider_arn': '${data.aws_iam_openid_connect_provider.cluster.arn}',
  'workload_identity.oidc_issuer': '${trimprefix(local.oidc_issuer, "https://")}',
  'workload_identity.namespace': '${var.kubernetes_namespace}',
  'workload_identity.bucket_arn': '${module.artifact_bucket.bucket_arn}',
  'workload_identity.prefix': '${var.s3_prefix}',
  'workload_identity.kms_key_arn': '${module.artifact_bucket.kms_key_arn}',
};

describe.each(ENVS)('envs/%s', (env) => {
  it('calls modules/jacobian alone, with exactly the variables it declares, supplying every required one', () => {
    const root = tfDir('envs', env);
    expectCallsMatch(root, ['jacobian']);
    expect(calledModule(root, 'jacobian').dir).toBe(path.join(TF_ROOT, 'modules', 'jacobian'));
  });

  it('refers only to outputs the called modules declare', () => {
    expectOutputReferencesDeclared(tfDir('envs', env));
  });

  it('passes each of its variables to module.jacobian under the same name, and its environment name', () => {
    const root = tfDir('envs', env);
    const call = root.modules.get('jacobian') ?? {};
    for (const name of root.variables.keys()) {
      if (ROOT_ONLY_VARIABLES.has(name)) expect(call[name], `${name} configures the root only`).toBeUndefined();
      else expect(call[name], `module.jacobian ${name}`).toBe(`\${var.${name}}`);
    }
    expect(call['environment']).toBe('${local.environment}');
  });

  it('declares every output the Kubernetes overlay needs, none sensitive, wired to the module that computes it', () => {
    const root = tfDir('envs', env);
    for (const name of OVERLAY_OUTPUTS) {
      const output = root.outputs.get(name);
      expect(output, `output ${name}`).toBeDefined();
      expect(output?.['sensitive'], `output ${name} sensitive`).not.toBe(true);
      expect(resolveOutput(root, name), `output ${name}`).toBe(OUTPUT_SOURCES[name].replace('<env>', env));
    }
    // Any output an environment declares is also available in prod, which the overlay reads.
    for (const name of root.outputs.keys()) expect(tfDir('envs', 'prod').outputs.has(name), `prod declares ${name}`).toBe(true);
  });

  it('keeps the backend configurable, tags everything with project and environment', () => {
    const root = tfDir('envs', env);
    const backends = root.terraform.flatMap((t) => (t['backend'] === undefined ? [] : Object.entries(obj(t['backend'], 'backend'))));
    expect(backends.map(([type]) => type)).toEqual(['s3']);
    // Partial configuration: bucket, key and region come from -backend-config at init.
    expect(blocks(backends[0]?.[1]).flatMap((b) => Object.keys(b))).toEqual([]);
    const aws = root.providers.get('aws') ?? [];
    expect(aws).toHaveLength(1);
    const tags = String(single(aws[0]?.['default_tags'], 'default_tags')['tags']);
    expect(tags).toMatch(/project\s*=\s*"jacobian"/);
    expect(tags).toMatch(new RegExp(`environment\\s*=\\s*local\\.environment`));
    expect(root.locals.get('environment')).toBe(env);
  });

  it('moves the state of the former root-level module calls into module.jacobian', () => {
    const root = tfDir('envs', env);
    const moves = root.moved.map((m) => [reference(m['from']), reference(m['to'])]);
    expect(moves).toEqual(CHILD_MODULES.map((name) => [`module.${name}`, `module.jacobian.module.${name}`]));
    for (const name of CHILD_MODULES) expect(calledModule(root, 'jacobian').modules.has(name), `modules/jacobian calls ${name}`).toBe(true);
  });

  it('has a terraform.tfvars.example that sets only declared variables and every required one', async () => {
    const file = path.join(TF_ROOT, 'envs', env, 'terraform.tfvars.example');
    expect(TFVARS_EXAMPLES).toContain(file);
    const values = await parse('terraform.tfvars', readFileSync(file, 'utf8'));
    const root = tfDir('envs', env);
    expect(Object.keys(values).filter((k) => !root.variables.has(k))).toEqual([]);
    const required = [...root.variables].filter(([, body]) => !('default' in body)).map(([k]) => k);
    expect(required.filter((k) => !(k in values))).toEqual([]);
  });
});

describe('modules/jacobian', () => {
  it('calls the three modules with exactly the variables they declare, supplying every required one', () => {
    expectCallsMatch(tfDir('modules', 'jacobian'), CHILD_MODULES);
  });

  it('refers only to outputs the called modules declare', () => {
    expectOutputReferencesDeclared(tfDir('modules', 'jacobian'));
  });

  it('configures no provider and no backend (the environments do)', () => {
    const d = tfDir('modules', 'jacobian');
    expect([...d.providers.keys()]).toEqual([]);
    expect(d.terraform.filter((t) => t['backend'] !== undefined || t['cloud'] !== undefined)).toEqual([]);
  });

  it('hands every variable to the argument it is meant to set', () => {
    const d = tfDir('modules', 'jacobian');
    const actual: Record<string, unknown> = {};
    for (const [name, call] of d.modules) {
      for (const [argument, value] of Object.entries(call)) if (!MODULE_META_ARGUMENTS.has(argument)) actual[`${name}.${argument}`] = Array.isArray(value) ? JSON.stringify(value) : value;
    }
    expect(actual).toEqual(JACOBIAN_WIRING);
  });

  it('names everything after the environment and looks the cluster up by name', () => {
    const d = tfDir('modules', 'jacobian');
    expect(d.locals.get('name')).toBe('jacobian-${var.environment}');
    expect(d.locals.get('cluster')).toBe('${data.aws_eks_cluster.this}');
    expect(reference(resource(d, 'aws_eks_cluster.this')['name'])).toBe('var.eks_cluster_name');
    expect(reference(resource(d, 'aws_iam_openid_connect_provider.cluster')['url'])).toBe('local.oidc_issuer');
    expect(d.locals.get('oidc_issuer')).toBe('${local.cluster.identity[0].oidc[0].issuer}');
  });

  it('lets only the checker role write verification records (bucket policy)', () => {
    const d = tfDir('modules', 'jacobian');
    const call = d.modules.get('artifact_bucket');
    expect(call?.['record_writer_role_arns']).toEqual(['${module.workload_identity.checker_role_arn}']);
    // Both modules must agree on the prefix the policies are written for.
    expect(call?.['prefix']).toBe(d.modules.get('workload_identity')?.['prefix']);
  });

  it('leaves every environment-specific value to the environment (no defaults)', () => {
    const d = tfDir('modules', 'jacobian');
    const envSpecific = [
      'environment',
      'artifact_kms_key_deletion_window_days',
      'artifact_bucket_force_destroy',
      'redis_node_type',
      'redis_num_cache_clusters',
      'redis_automatic_failover_enabled',
      'redis_multi_az_enabled',
      'redis_apply_immediately',
      'redis_snapshot_retention_days',
      'redis_secret_recovery_window_days',
      'noncurrent_version_expiration_days',
      'temporary_object_expiration_days',
      'abort_incomplete_multipart_upload_days',
    ];
    for (const name of envSpecific) {
      expect(d.variables.has(name), `variable ${name}`).toBe(true);
      expect('default' in (d.variables.get(name) ?? {}), `variable ${name} has a default`).toBe(false);
    }
  });
});

describe('environment-specific values', () => {
  const call = (env: (typeof ENVS)[number]): Obj => tfDir('envs', env).modules.get('jacobian') ?? {};

  it('runs dev on one Redis node and prod multi-AZ with automatic failover', () => {
    const dev = call('dev');
    const prod = call('prod');
    expect([dev['redis_automatic_failover_enabled'], dev['redis_multi_az_enabled']]).toEqual([false, false]);
    expect(tfDir('envs', 'dev').variables.get('redis_num_cache_clusters')?.['default']).toBe(1);
    expect([prod['redis_automatic_failover_enabled'], prod['redis_multi_az_enabled']]).toEqual([true, true]);
    const prodNodes = tfDir('envs', 'prod').variables.get('redis_num_cache_clusters');
    expect(prodNodes?.['default']).toBeGreaterThanOrEqual(2);
    // prod refuses fewer than two nodes whatever terraform.tfvars says.
    expect(blocks(prodNodes?.['validation']).map((v) => v['condition'])).toContain('${var.redis_num_cache_clusters >= 2}');
  });

  it('makes only dev easy to tear down and quick to change', () => {
    const values = (env: (typeof ENVS)[number]): unknown[] => ['artifact_bucket_force_destroy', 'artifact_kms_key_deletion_window_days', 'redis_apply_immediately'].map((k) => call(env)[k]);
    expect(values('dev')).toEqual([true, 7, true]);
    expect(values('prod')).toEqual([false, 30, false]);
  });

  it('keeps prod data longer than dev', () => {
    for (const name of ['noncurrent_version_expiration_days', 'temporary_object_expiration_days', 'redis_snapshot_retention_days']) {
      const dev = tfDir('envs', 'dev').variables.get(name)?.['default'];
      const prod = tfDir('envs', 'prod').variables.get(name)?.['default'];
      expect(typeof dev === 'number' && typeof prod === 'number' && prod > dev, `${name}: prod ${String(prod)} > dev ${String(dev)}`).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('modules/artifact_bucket', () => {
  const bucketRef = (): string => {
    const buckets = resourcesOfType(tfDir('modules', 'artifact_bucket'), 'aws_s3_bucket');
    expect(buckets).toHaveLength(1);
    return `aws_s3_bucket.${buckets[0]?.[0]}.id`;
  };
  const boundTo = (type: string): Obj => {
    const d = tfDir('modules', 'artifact_bucket');
    const matches = resourcesOfType(d, type).filter(([, body]) => reference(body['bucket']) === bucketRef());
    expect(matches, `${type} bound to the bucket`).toHaveLength(1);
    return matches[0]?.[1] as Obj;
  };

  it('blocks all public access on the bucket', () => {
    const block = boundTo('aws_s3_bucket_public_access_block');
    for (const flag of ['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets']) expect(block[flag], flag).toBe(true);
    expect(single(boundTo('aws_s3_bucket_ownership_controls')['rule'], 'rule')['object_ownership']).toBe('BucketOwnerEnforced');
  });

  it('is versioned', () => {
    expect(single(boundTo('aws_s3_bucket_versioning')['versioning_configuration'], 'versioning_configuration')['status']).toBe('Enabled');
  });

  it('is encrypted with a dedicated, rotated KMS key and a bucket key', () => {
    const d = tfDir('modules', 'artifact_bucket');
    const rule = single(boundTo('aws_s3_bucket_server_side_encryption_configuration')['rule'], 'rule');
    expect(rule['bucket_key_enabled']).toBe(true);
    const defaults = single(rule['apply_server_side_encryption_by_default'], 'apply_server_side_encryption_by_default');
    expect(defaults['sse_algorithm']).toBe('aws:kms');
    const key = /^aws_kms_key\.([a-z0-9_]+)\.arn$/.exec(reference(defaults['kms_master_key_id']) ?? '');
    expect(key, 'kms_master_key_id is a key of this module').not.toBeNull();
    expect(resource(d, `aws_kms_key.${key?.[1]}`)['enable_key_rotation']).toBe(true);
    expect(reference(d.outputs.get('kms_key_arn')?.['value'])).toBe(`aws_kms_key.${key?.[1]}.arn`);
  });

  it('expires incomplete uploads, noncurrent versions and temporary objects', () => {
    const d = tfDir('modules', 'artifact_bucket');
    const lifecycle = boundTo('aws_s3_bucket_lifecycle_configuration');
    const rules = blocks(lifecycle['rule']);
    const enabled = rules.filter((r) => r['status'] === 'Enabled');
    const days = (block: string, field: string): unknown => enabled.flatMap((r) => blocks(r[block])).map((b) => b[field]).find((v) => v !== undefined);
    expect(reference(days('abort_incomplete_multipart_upload', 'days_after_initiation'))).toBe('var.abort_incomplete_multipart_upload_days');
    expect(reference(days('noncurrent_version_expiration', 'noncurrent_days'))).toBe('var.noncurrent_version_expiration_days');
    const temporary = single(obj(lifecycle['dynamic'], 'dynamic lifecycle rules')['rule'], 'dynamic rule');
    expect(reference(temporary['for_each'])).toBe('var.temporary_prefixes');
    const content = single(temporary['content'], 'content');
    expect(content['status']).toBe('Enabled');
    expect(single(content['filter'], 'filter')['prefix']).toBe('${rule.value}');
    expect(reference(single(content['expiration'], 'expiration')['days'])).toBe('var.temporary_object_expiration_days');
    expect(d.variables.get('temporary_prefixes')?.['default']).toEqual(['tmp/']);
    expect(d.variables.get('temporary_prefixes')?.['type']).toBe('${list(string)}');
  });

  it('denies every request that does not use TLS', () => {
    const policy = bucketPolicy();
    const tls = policy.filter((s) => s.effect === 'Deny' && s.conditions.some((c) => c.test === 'Bool' && c.variable === 'aws:SecureTransport' && c.values.join() === 'false'));
    expect(tls).toHaveLength(1);
    expect(tls[0]?.actions).toEqual(['s3:*']);
    expect(tls[0]?.principals).toEqual([{ type: '*', identifiers: ['*'] }]);
    expect(tls[0]?.resources.sort()).toEqual([BUCKET_ARN, `${BUCKET_ARN}/*`]);
  });
});

// ---------------------------------------------------------------------------------------------

/** The family expression that follows var.engine_version (redis7 for 7.x). */
const FAMILY_OF_ENGINE_VERSION = 'redis${split(".", var.engine_version)[0]}';

/**
 * BullMQ needs maxmemory-policy noeviction: the replication group uses a parameter group of the
 * module whose family matches the engine version and which sets exactly that.
 */
function noevictionViolations(d: TfDir): string[] {
  const violations: string[] = [];
  for (const [name, replication] of resourcesOfType(d, 'aws_elasticache_replication_group')) {
    const ref = /^aws_elasticache_parameter_group\.([a-z0-9_]+)\.name$/.exec(reference(replication['parameter_group_name']) ?? '');
    if (!ref) {
      violations.push(`aws_elasticache_replication_group.${name}: parameter_group_name is ${JSON.stringify(replication['parameter_group_name'])}, not a parameter group of the module`);
      continue;
    }
    const group = d.resources.get(`aws_elasticache_parameter_group.${ref[1]}`);
    if (!group) {
      violations.push(`aws_elasticache_replication_group.${name}: aws_elasticache_parameter_group.${ref[1]} is not declared`);
      continue;
    }
    const local = /^local\.([a-z0-9_]+)$/.exec(reference(group['family']) ?? '');
    const family = local ? d.locals.get(local[1] ?? '') : group['family'];
    const engineVersion = d.variables.get('engine_version')?.['default'];
    const major = typeof engineVersion === 'string' ? engineVersion.split('.')[0] : undefined;
    if (family !== FAMILY_OF_ENGINE_VERSION && family !== `redis${major}`) {
      violations.push(`aws_elasticache_parameter_group.${ref[1]}: family ${JSON.stringify(family)} does not follow engine_version (redis${major})`);
    }
    const policies = blocks(group['parameter']).filter((p) => p['name'] === 'maxmemory-policy');
    if (policies.length !== 1 || policies[0]?.['value'] !== 'noeviction') {
      violations.push(`aws_elasticache_parameter_group.${ref[1]}: maxmemory-policy is ${policies.map((p) => String(p['value'])).join(', ') || 'not set (the default volatile-lru)'}, not noeviction`);
    }
  }
  if (resourcesOfType(d, 'aws_elasticache_replication_group').length === 0) violations.push(`${rel(d.dir)}: no aws_elasticache_replication_group`);
  return violations;
}

describe('modules/redis', () => {
  const group = (): Obj => {
    const groups = resourcesOfType(tfDir('modules', 'redis'), 'aws_elasticache_replication_group');
    expect(groups).toHaveLength(1);
    return groups[0]?.[1] as Obj;
  };

  it('runs Redis 7 with encryption in transit and at rest and an AUTH token from random_password', () => {
    const d = tfDir('modules', 'redis');
    const g = group();
    expect(g['engine']).toBe('redis');
    expect(reference(g['engine_version'])).toBe('var.engine_version');
    expect(d.variables.get('engine_version')?.['default']).toMatch(/^7\.\d+$/);
    expect(g['transit_encryption_enabled']).toBe(true);
    expect(g['at_rest_encryption_enabled']).toBe(true);
    expect(reference(g['auth_token'])).toMatch(/^random_password\.[a-z0-9_]+\.result$/);
    expect(reference(g['automatic_failover_enabled'])).toBe('var.automatic_failover_enabled');
    expect(reference(g['multi_az_enabled'])).toBe('var.multi_az_enabled');
    // No user groups: the AUTH token is the only way in.
    expect(g['user_group_ids']).toBeUndefined();
  });

  it('uses a parameter group of its own, of the engine version’s family, with maxmemory-policy noeviction', () => {
    expect(noevictionViolations(tfDir('modules', 'redis'))).toEqual([]);
  });

  it('the noeviction rule rejects the default parameter group, an evicting policy and a wrong family', () => {
    const d = tfDir('modules', 'redis');
    const withGroup = (mutate: (group: Obj, parameters: Obj[], replication: Obj) => void): TfDir => {
      const copy: TfDir = { ...d, resources: structuredClone(d.resources), locals: new Map(d.locals) };
      const [, group] = resourcesOfType(copy, 'aws_elasticache_parameter_group')[0] ?? [];
      const [, replication] = resourcesOfType(copy, 'aws_elasticache_replication_group')[0] ?? [];
      if (!group || !replication) throw new Error('modules/redis has no parameter group or replication group');
      mutate(group, blocks(group['parameter']), replication);
      return copy;
    };
    expect(noevictionViolations(withGroup((_g, _p, replication) => (replication['parameter_group_name'] = 'default.redis7')))).toEqual([
      expect.stringContaining('parameter_group_name is "default.redis7"'),
    ]);
    expect(
      noevictionViolations(
        withGroup((_g, parameters) => {
          for (const p of parameters) if (p['name'] === 'maxmemory-policy') p['value'] = 'volatile-lru';
        }),
      ),
    ).toEqual([expect.stringContaining('maxmemory-policy is volatile-lru')]);
    expect(noevictionViolations(withGroup((group) => (group['family'] = 'redis6.x')))).toEqual([expect.stringContaining('family')]);
  });

  it('lives in the given private subnets behind a security group open on 6379 to the workloads only', () => {
    const d = tfDir('modules', 'redis');
    const g = group();
    const subnetGroup = /^aws_elasticache_subnet_group\.([a-z0-9_]+)\.name$/.exec(reference(g['subnet_group_name']) ?? '');
    expect(subnetGroup).not.toBeNull();
    expect(reference(resource(d, `aws_elasticache_subnet_group.${subnetGroup?.[1]}`)['subnet_ids'])).toBe('var.subnet_ids');
    const groups = strings(g['security_group_ids'], 'security_group_ids').map(reference);
    expect(groups).toHaveLength(1);
    const sg = /^aws_security_group\.([a-z0-9_]+)\.id$/.exec(groups[0] ?? '');
    expect(sg).not.toBeNull();
    const sgBody = resource(d, `aws_security_group.${sg?.[1]}`);
    expect(sgBody['ingress'], 'no inline ingress rules').toBeUndefined();
    expect(sgBody['egress'], 'no inline egress rules').toBeUndefined();
    expect(resourcesOfType(d, 'aws_security_group_rule'), 'no legacy rule resources').toEqual([]);
    const port = d.locals.get('port');
    expect(port).toBe(6379);
    expect(g['port']).toBe('${local.port}');
    const ingress = resourcesOfType(d, 'aws_vpc_security_group_ingress_rule');
    expect(ingress).toHaveLength(1);
    for (const [, rule] of ingress) {
      expect(reference(rule['security_group_id'])).toBe(`aws_security_group.${sg?.[1]}.id`);
      expect([rule['ip_protocol'], rule['from_port'], rule['to_port']]).toEqual(['tcp', '${local.port}', '${local.port}']);
      expect(reference(rule['referenced_security_group_id'])).toBe('var.source_security_group_id');
      for (const open of ['cidr_ipv4', 'cidr_ipv6', 'prefix_list_id']) expect(rule[open], open).toBeUndefined();
    }
  });

  it('stores the full rediss:// URL in Secrets Manager and never outputs the token', () => {
    const d = tfDir('modules', 'redis');
    const versions = resourcesOfType(d, 'aws_secretsmanager_secret_version');
    expect(versions).toHaveLength(1);
    const secretString = String(versions[0]?.[1]['secret_string']);
    expect(secretString).toMatch(/^rediss:\/\/:\$\{urlencode\(random_password\.[a-z0-9_]+\.result\)\}@\$\{aws_elasticache_replication_group\.[a-z0-9_]+\.primary_endpoint_address\}:\$\{local\.port\}$/);
    expect(reference(versions[0]?.[1]['secret_id'])).toMatch(/^aws_secretsmanager_secret\.[a-z0-9_]+\.id$/);
    expect(reference(d.outputs.get('redis_url_secret_arn')?.['value'])).toMatch(/^aws_secretsmanager_secret\.[a-z0-9_]+\.arn$/);
    expect(reference(d.outputs.get('primary_endpoint_host')?.['value'])).toMatch(/^aws_elasticache_replication_group\.[a-z0-9_]+\.primary_endpoint_address$/);
    expect(d.outputs.get('port')?.['value']).toBe('${local.port}');
  });

  it('no output anywhere carries a secret unless it is marked sensitive', () => {
    const secretish = /random_password|auth_token|secret_string|\.result\b/;
    for (const d of dirs.values()) {
      for (const [name, body] of d.outputs) {
        if (secretish.test(JSON.stringify(body['value']))) expect(body['sensitive'], `${rel(d.dir)} output ${name}`).toBe(true);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// IAM: policy documents read from aws_iam_policy_document data sources and evaluated.

interface Condition {
  test: string;
  variable: string;
  values: string[];
}
interface Statement {
  where: string;
  sid: string | undefined;
  effect: 'Allow' | 'Deny';
  actions: string[];
  resources: string[];
  principals: { type: string; identifiers: string[] }[];
  conditions: Condition[];
}

const BUCKET = 'example-artifacts';
const BUCKET_ARN = `arn:aws:s3:::${BUCKET}`;
const KMS_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000';
const ROLE_ARNS = {
  api: 'arn:aws:iam::123456789012:role/jacobian-test-api',
  runner: 'arn:aws:iam::123456789012:role/jacobian-test-runner',
  checker: 'arn:aws:iam::123456789012:role/jacobian-test-checker',
} as const;
type Role = keyof typeof ROLE_ARNS;
const ROLES = Object.keys(ROLE_ARNS) as Role[];
const OTHER_PRINCIPAL = 'arn:aws:iam::123456789012:role/someone-else';
const OIDC_ISSUER = 'oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLE';
const OIDC_PROVIDER = `arn:aws:iam::123456789012:oidc-provider/${OIDC_ISSUER}`;
const NAMESPACE = 'jacobian';

/** Replace every `${...}` by its value; an expression the test does not know fails the test. */
function substitute(text: string, values: Record<string, string>, where: string): string {
  return text.replace(/\$\{([^}]*)\}/g, (_, expr: string) => {
    const value = values[expr.trim()];
    if (value === undefined) throw new Error(`${where}: cannot evaluate \${${expr}} in ${JSON.stringify(text)}`);
    return value;
  });
}

/** The statements of a policy document, with expressions evaluated. Dynamic or merged documents are refused: they cannot be read statically. */
function statementsOf(d: TfDir, name: string, values: Record<string, string>): Statement[] {
  const where = `${rel(d.dir)} data.aws_iam_policy_document.${name}`;
  const doc = resource(d, `aws_iam_policy_document.${name}`);
  for (const key of ['dynamic', 'source_policy_documents', 'override_policy_documents', 'source_json', 'override_json']) {
    if (doc[key] !== undefined) throw new Error(`${where}: ${key} hides statements from review; write them out`);
  }
  return blocks(doc['statement']).map((s, i) => {
    for (const key of ['not_actions', 'not_resources', 'not_principals']) if (s[key] !== undefined) throw new Error(`${where} statement ${i}: ${key} is not allowed`);
    const sub = (list: unknown, what: string): string[] => strings(list ?? [], `${where} ${what}`).map((v) => substitute(v, values, where));
    const effect = s['effect'] ?? 'Allow';
    if (effect !== 'Allow' && effect !== 'Deny') throw new Error(`${where}: effect ${JSON.stringify(effect)}`);
    return {
      where,
      sid: typeof s['sid'] === 'string' ? s['sid'] : undefined,
      effect,
      actions: sub(s['actions'], 'actions'),
      resources: sub(s['resources'], 'resources'),
      principals: blocks(s['principals']).map((p) => ({ type: String(p['type']), identifiers: sub(p['identifiers'], 'principals') })),
      conditions: blocks(s['condition']).map((c) => {
        const raw = c['values'];
        // A whole-list variable (values = var.x) is substituted as a JSON list.
        const vals = typeof raw === 'string' ? (JSON.parse(substitute(raw, values, where)) as string[]) : sub(raw, 'condition values');
        return { test: String(c['test']), variable: substitute(String(c['variable']), values, where), values: vals };
      }),
    };
  });
}

function globToRegExp(pattern: string, flags = ''): RegExp {
  return new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, flags);
}

interface Request {
  action: string;
  resource: string;
  principal: string;
  secureTransport?: boolean;
  /** s3:prefix of a listing; absent for HeadBucket and object requests. */
  s3Prefix?: string;
}

function conditionHolds(c: Condition, request: Request, where: string): boolean {
  const context: Record<string, string | undefined> = {
    'aws:PrincipalArn': request.principal,
    'aws:SecureTransport': String(request.secureTransport ?? true),
    's3:prefix': request.s3Prefix,
  };
  if (!(c.variable in context)) throw new Error(`${where}: the test does not model condition key ${c.variable}`);
  const value = context[c.variable];
  switch (c.test) {
    case 'Bool':
      return value !== undefined && c.values.includes(value);
    case 'ArnNotEquals':
    case 'StringNotEquals':
      return value === undefined || !c.values.includes(value);
    case 'ArnEquals':
    case 'StringEquals':
      return value !== undefined && c.values.includes(value);
    case 'StringLike':
      return value !== undefined && c.values.some((v) => globToRegExp(v).test(value));
    case 'StringLikeIfExists':
      return value === undefined || c.values.some((v) => globToRegExp(v).test(value));
    default:
      throw new Error(`${where}: the test does not model condition operator ${c.test}`);
  }
}

function matches(s: Statement, request: Request): boolean {
  return (
    s.actions.some((a) => globToRegExp(a, 'i').test(request.action)) &&
    s.resources.some((r) => globToRegExp(r).test(request.resource)) &&
    s.conditions.every((c) => conditionHolds(c, request, s.where))
  );
}

/** Whether a role may do `action` on `resource`: an identity-policy Allow and no Deny in its policy or the bucket policy. */
function allowed(policies: Record<Role, Statement[]>, bucket: Statement[], role: Role, request: Omit<Request, 'principal'>): boolean {
  const full: Request = { ...request, principal: ROLE_ARNS[role] };
  const identity = policies[role];
  if ([...identity, ...bucket].some((s) => s.effect === 'Deny' && matches(s, full))) return false;
  return identity.some((s) => s.effect === 'Allow' && matches(s, full));
}

function bucketDenies(bucket: Statement[], request: Request): boolean {
  return bucket.some((s) => s.effect === 'Deny' && s.principals.some((p) => p.identifiers.includes('*')) && matches(s, request));
}

function normalisedPrefix(prefix: string): string {
  return prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
}

/** The roles' identity policies, as attached by aws_iam_role_policy, for one artifact prefix. */
function rolePolicies(prefix: string): Record<Role, Statement[]> {
  const d = tfDir('modules', 'workload_identity');
  const values = {
    'var.bucket_arn': BUCKET_ARN,
    'var.kms_key_arn': KMS_ARN,
    'local.prefix': normalisedPrefix(prefix),
    'var.oidc_provider_arn': OIDC_PROVIDER,
    'var.oidc_issuer': OIDC_ISSUER,
    'var.namespace': NAMESPACE,
  };
  const result = {} as Record<Role, Statement[]>;
  for (const role of ROLES) {
    const attached = [...resourcesOfType(d, 'aws_iam_role_policy'), ...resourcesOfType(d, 'aws_iam_role_policy_attachment')].filter(
      ([, body]) => reference(body['role']) === `aws_iam_role.${role}.id` || reference(body['role']) === `aws_iam_role.${role}.name`,
    );
    expect(attached.length, `policies attached to aws_iam_role.${role}`).toBeGreaterThan(0);
    result[role] = attached.flatMap(([address, body]) => {
      const doc = /^data\.aws_iam_policy_document\.([a-z0-9_]+)\.json$/.exec(reference(body['policy']) ?? '');
      if (doc === null) throw new Error(`aws_iam_role_policy.${address}: policy must be an aws_iam_policy_document (got ${JSON.stringify(body['policy'])})`);
      return statementsOf(d, doc[1] as string, values);
    });
  }
  return result;
}

function bucketPolicy(prefix = ''): Statement[] {
  const d = tfDir('modules', 'artifact_bucket');
  const policies = resourcesOfType(d, 'aws_s3_bucket_policy');
  expect(policies).toHaveLength(1);
  const doc = /^data\.aws_iam_policy_document\.([a-z0-9_]+)\.json$/.exec(reference(policies[0]?.[1]['policy']) ?? '');
  expect(doc, 'bucket policy comes from an aws_iam_policy_document').not.toBeNull();
  const bucket = resourcesOfType(d, 'aws_s3_bucket')[0]?.[0] ?? '';
  return statementsOf(d, doc?.[1] as string, {
    [`aws_s3_bucket.${bucket}.arn`]: BUCKET_ARN,
    'local.prefix': normalisedPrefix(prefix),
    'var.record_writer_role_arns': JSON.stringify([ROLE_ARNS.checker]),
  });
}

const HEX = 'ab'.repeat(32);
const object = (prefix: string, key: string): string => `${BUCKET_ARN}/${normalisedPrefix(prefix)}${key}`;
/** Sample keys of the artifact layout, relative to the prefix. */
const LAYOUT = {
  artifacts: [`blobs/sha256/ab/${HEX}`, `manifests/sha256/ab/${HEX}`, `tenants/acme/blobs/sha256/ab/${HEX}`, `tenants/acme/manifests/sha256/ab/${HEX}`],
  records: [`records/blobs/sha256/ab/${HEX}`, `records/manifests/sha256/ab/${HEX}`, `tenants/acme/records/blobs/sha256/ab/${HEX}`, `tenants/acme.eu/records/manifests/sha256/ab/${HEX}`],
  elsewhere: ['notes.txt', `tmp/blobs/sha256/ab/${HEX}`, `tenants/acme/other/${HEX}`],
};
const WRITE_ACTIONS = ['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'];
const DELETE_ACTIONS = ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:PutLifecycleConfiguration', 's3:PutBucketPolicy', 's3:DeleteBucket'];

/** Read-only actions: everything else an Allow grants counts as a write. */
function isReadAction(action: string): boolean {
  return /^s3:(Get|List)[A-Za-z]*$/.test(action) || action === 'kms:Decrypt' || action === 'sts:AssumeRoleWithWebIdentity';
}

describe('modules/workload_identity', () => {
  it('binds each role to its ServiceAccount through the cluster OIDC provider', () => {
    const d = tfDir('modules', 'workload_identity');
    const values = { 'var.oidc_provider_arn': OIDC_PROVIDER, 'var.oidc_issuer': OIDC_ISSUER, 'var.namespace': NAMESPACE };
    for (const role of ROLES) {
      const trust = /^data\.aws_iam_policy_document\.([a-z0-9_]+)\.json$/.exec(reference(resource(d, `aws_iam_role.${role}`)['assume_role_policy']) ?? '');
      expect(trust, `aws_iam_role.${role} trust policy`).not.toBeNull();
      const statements = statementsOf(d, trust?.[1] as string, values);
      expect(statements).toHaveLength(1);
      const [s] = statements as [Statement];
      expect([s.effect, s.actions]).toEqual(['Allow', ['sts:AssumeRoleWithWebIdentity']]);
      expect(s.principals).toEqual([{ type: 'Federated', identifiers: [OIDC_PROVIDER] }]);
      const byKey = new Map(s.conditions.map((c) => [c.variable, c]));
      expect(byKey.get(`${OIDC_ISSUER}:sub`)).toEqual({ test: 'StringEquals', variable: `${OIDC_ISSUER}:sub`, values: [`system:serviceaccount:${NAMESPACE}:jacobian-${role}`] });
      expect(byKey.get(`${OIDC_ISSUER}:aud`)).toEqual({ test: 'StringEquals', variable: `${OIDC_ISSUER}:aud`, values: ['sts.amazonaws.com'] });
      expect(s.conditions).toHaveLength(2);
    }
  });

  it('agrees with the bucket module on how the prefix is normalised', () => {
    const a = tfDir('modules', 'workload_identity').locals.get('prefix');
    const b = tfDir('modules', 'artifact_bucket').locals.get('prefix');
    expect(typeof a).toBe('string');
    expect(a).toBe(b);
    // The same rule as Jacobian's S3 store: a '/' is appended to a non-empty prefix.
    expect(a).toBe('${var.prefix == "" || endswith(var.prefix, "/") ? var.prefix : "${var.prefix}/"}');
  });

  it('grants no wildcard actions, no write on Resource "*", no deletes', () => {
    const all = [...Object.values(rolePolicies('')).flat(), ...bucketPolicy()];
    for (const s of all) {
      const label = `${s.where} ${s.sid ?? ''}`;
      if (s.effect === 'Allow') {
        for (const action of s.actions) {
          expect(action, label).not.toMatch(/\*/);
          expect(action, label).not.toMatch(/^s3:Delete/i);
        }
        if (s.actions.some((a) => !isReadAction(a))) expect(s.resources, label).not.toContain('*');
        for (const r of s.resources) expect(r, label).not.toMatch(/^\*$|^arn:aws:s3:::\*/);
      } else {
        // A deny may cover everything; the only one that does is the TLS guard.
        if (s.actions.some((a) => a.includes('*'))) expect(s.conditions.map((c) => c.variable), label).toEqual(['aws:SecureTransport']);
      }
      expect(s.actions, label).not.toContain('*');
    }
  });

  it.each(['', 'jacobian', 'team/jacobian/'])('with prefix %j: every role reads everything under the prefix and lists only it', (prefix) => {
    const policies = rolePolicies(prefix);
    const bucket = bucketPolicy(prefix);
    for (const role of ROLES) {
      for (const key of [...LAYOUT.artifacts, ...LAYOUT.records]) expect(allowed(policies, bucket, role, { action: 's3:GetObject', resource: object(prefix, key) }), `${role} reads ${key}`).toBe(true);
      // HeadBucket, the start-up access check, is authorised as s3:ListBucket without s3:prefix.
      expect(allowed(policies, bucket, role, { action: 's3:ListBucket', resource: BUCKET_ARN }), `${role} HeadBucket`).toBe(true);
      expect(allowed(policies, bucket, role, { action: 's3:ListBucket', resource: BUCKET_ARN, s3Prefix: `${normalisedPrefix(prefix)}blobs/` }), `${role} lists blobs`).toBe(true);
      if (normalisedPrefix(prefix) !== '') {
        expect(allowed(policies, bucket, role, { action: 's3:ListBucket', resource: BUCKET_ARN, s3Prefix: 'elsewhere/' }), `${role} lists outside the prefix`).toBe(false);
        expect(allowed(policies, bucket, role, { action: 's3:GetObject', resource: `${BUCKET_ARN}/elsewhere/x` }), `${role} reads outside the prefix`).toBe(false);
      }
      // Without TLS nothing works.
      expect(allowed(policies, bucket, role, { action: 's3:GetObject', resource: object(prefix, LAYOUT.artifacts[0] as string), secureTransport: false }), `${role} without TLS`).toBe(false);
      for (const action of DELETE_ACTIONS) {
        for (const key of [...LAYOUT.artifacts, ...LAYOUT.records]) expect(allowed(policies, bucket, role, { action, resource: object(prefix, key) }), `${role} ${action} ${key}`).toBe(false);
      }
    }
  });

  it.each(['', 'jacobian/'])('with prefix %j: runners write artifacts only, the checker records only, the api nothing', (prefix) => {
    const policies = rolePolicies(prefix);
    const bucket = bucketPolicy(prefix);
    const may = (role: Role, action: string, key: string): boolean => allowed(policies, bucket, role, { action, resource: object(prefix, key) });
    for (const action of WRITE_ACTIONS) {
      for (const key of LAYOUT.artifacts) {
        expect(may('runner', action, key), `runner ${action} ${key}`).toBe(true);
        expect(may('checker', action, key), `checker ${action} ${key}`).toBe(false);
        expect(may('api', action, key), `api ${action} ${key}`).toBe(false);
      }
      for (const key of LAYOUT.records) {
        expect(may('checker', action, key), `checker ${action} ${key}`).toBe(true);
        expect(may('runner', action, key), `runner ${action} ${key}`).toBe(false);
        expect(may('api', action, key), `api ${action} ${key}`).toBe(false);
      }
      for (const key of LAYOUT.elsewhere) for (const role of ROLES) expect(may(role, action, key), `${role} ${action} ${key}`).toBe(false);
      // The runner's own policy keeps it out of the records too, without the bucket policy: a `*`
      // in its tenants/*/blobs/* grant also matches tenants/<t>/records/blobs/...
      for (const key of LAYOUT.records) {
        expect(allowed(policies, [], 'runner', { action, resource: object(prefix, key) }), `runner (identity policy alone) ${action} ${key}`).toBe(false);
      }
    }
  });

  it('gives the api no write action at all, and KMS only as each role needs', () => {
    const policies = rolePolicies('');
    const granted = (role: Role): string[] => [...new Set(policies[role].filter((s) => s.effect === 'Allow').flatMap((s) => s.actions))].sort();
    expect(granted('api').filter((a) => !isReadAction(a))).toEqual([]);
    expect(granted('api')).toEqual(['kms:Decrypt', 's3:GetObject', 's3:ListBucket']);
    expect(granted('runner')).toEqual(['kms:Decrypt', 'kms:GenerateDataKey', 's3:AbortMultipartUpload', 's3:GetObject', 's3:ListBucket', 's3:ListMultipartUploadParts', 's3:PutObject']);
    expect(granted('checker')).toEqual(granted('runner'));
    for (const role of ROLES) {
      for (const s of policies[role].filter((st) => st.actions.some((a) => a.startsWith('kms:')))) {
        expect(s.actions.every((a) => a.startsWith('kms:')), `${role}: KMS statements hold KMS actions only`).toBe(true);
        expect(s.resources, `${role}: KMS on the bucket key only`).toEqual([KMS_ARN]);
      }
    }
  });

  it('every statement with an s3:Put* action names only the keys its role may write', () => {
    const policies = rolePolicies('');
    const expected: Record<Role, string[]> = {
      api: [],
      runner: ['blobs/*', 'manifests/*', 'tenants/*/blobs/*', 'tenants/*/manifests/*'].map((k) => `${BUCKET_ARN}/${k}`),
      checker: ['records/*', 'tenants/*/records/*'].map((k) => `${BUCKET_ARN}/${k}`),
    };
    for (const role of ROLES) {
      const puts = policies[role].filter((s) => s.effect === 'Allow' && s.actions.some((a) => /^s3:Put/i.test(a)));
      expect([...new Set(puts.flatMap((s) => s.resources))].sort(), role).toEqual([...expected[role]].sort());
    }
  });

  it('the bucket policy denies record writes to every principal except the checker role', () => {
    const bucket = bucketPolicy('');
    const deny = bucket.filter((s) => s.effect === 'Deny' && s.actions.includes('s3:PutObject') && s.conditions.some((c) => c.variable === 'aws:PrincipalArn'));
    expect(deny).toHaveLength(1);
    const [s] = deny as [Statement];
    expect(s.principals).toEqual([{ type: '*', identifiers: ['*'] }]);
    expect(s.conditions).toEqual([{ test: 'ArnNotEquals', variable: 'aws:PrincipalArn', values: [ROLE_ARNS.checker] }]);
    for (const key of LAYOUT.records) {
      const resource = object('', key);
      for (const principal of [ROLE_ARNS.api, ROLE_ARNS.runner, OTHER_PRINCIPAL]) expect(bucketDenies(bucket, { action: 's3:PutObject', resource, principal }), `${principal} ${key}`).toBe(true);
      expect(bucketDenies(bucket, { action: 's3:PutObject', resource, principal: ROLE_ARNS.checker }), `checker ${key}`).toBe(false);
    }
    // Ordinary artifacts stay writable by whoever the identity policies allow.
    for (const key of LAYOUT.artifacts) expect(bucketDenies(bucket, { action: 's3:PutObject', resource: object('', key), principal: ROLE_ARNS.runner })).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------

function runScript(input: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [SCRIPT], { input, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A `terraform output -json` document for every output envs/prod declares. */
function sampleOutputs(): Record<string, { sensitive: boolean; type: string; value: string | number }> {
  const outputs: Record<string, { sensitive: boolean; type: string; value: string | number }> = {};
  for (const [name, body] of tfDir('envs', 'prod').outputs) {
    const value = name.endsWith('_port') ? 6379 : name.endsWith('_arn') ? `arn:aws:iam::123456789012:role/${name}` : `example-${name.replaceAll('_', '-')}`;
    outputs[name] = { sensitive: body['sensitive'] === true, type: typeof value === 'number' ? 'number' : 'string', value };
  }
  return outputs;
}

function envKeys(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.slice(0, line.indexOf('=')));
}

describe('scripts/terraform-outputs-to-env.mjs', () => {
  it('writes exactly the contract keys, with a header comment, from the prod outputs', () => {
    const outputs = sampleOutputs();
    const { status, stdout, stderr } = runScript(JSON.stringify(outputs));
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout.startsWith('#')).toBe(true);
    expect(envKeys(stdout)).toEqual(CONTRACT_ENV_KEYS);
    expect(stdout).toContain(`S3_BUCKET=${outputs['s3_bucket']?.value}`);
    expect(stdout).toContain(`CHECKER_ROLE_ARN=${outputs['checker_role_arn']?.value}`);
    expect(stdout).toContain('REDIS_PORT=6379\n');
    expect(stdout).not.toContain(String(outputs['redis_url_secret_arn']?.value));
  });

  it.skipIf(!existsSync(OVERLAY_ENV_FILE))('writes the same keys as infra/k8s/overlays/prod/terraform-outputs.env', () => {
    const { status, stdout } = runScript(JSON.stringify(sampleOutputs()));
    expect(status).toBe(0);
    expect(envKeys(stdout)).toEqual(envKeys(readFileSync(OVERLAY_ENV_FILE, 'utf8')));
  });

  it('fails naming every missing output', () => {
    const outputs: Record<string, unknown> = sampleOutputs();
    delete outputs['redis_host'];
    delete outputs['runner_role_arn'];
    const { status, stdout, stderr } = runScript(JSON.stringify(outputs));
    expect(status).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain('redis_host');
    expect(stderr).toContain('runner_role_arn');
  });

  it('never writes a sensitive output', () => {
    const outputs = sampleOutputs();
    const host = outputs['redis_host'];
    if (host === undefined) throw new Error('envs/prod has no redis_host output');
    outputs['redis_host'] = { ...host, sensitive: true, value: 'token-bearing-value' };
    const { status, stdout, stderr } = runScript(JSON.stringify(outputs));
    expect(status).not.toBe(0);
    expect(stdout).not.toContain('token-bearing-value');
    expect(stderr).toContain('redis_host');
    expect(stderr).not.toContain('token-bearing-value');
  });

  it('rejects input that is not JSON and values a dotenv line cannot carry', () => {
    expect(runScript('not json').status).not.toBe(0);
    const outputs = sampleOutputs();
    outputs['s3_bucket'] = { sensitive: false, type: 'string', value: 'bucket\nINJECTED=1' };
    const { status, stdout, stderr } = runScript(JSON.stringify(outputs));
    expect(status).not.toBe(0);
    expect(stdout).not.toContain('INJECTED');
    expect(stderr).toContain('s3_bucket');
  });
});

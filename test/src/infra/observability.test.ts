/**
 * The observability that ships in infra/: the alert rules (a PrometheusRule) and the Grafana
 * dashboard of infra/observability, and the pod identity the deployments give the telemetry.
 *
 * - The kustomization renders (kubectl from scripts/install-kubectl.sh) to exactly a
 *   PrometheusRule and a dashboard ConfigMap for Grafana's sidecar.
 * - The PrometheusRule's groups pass `promtool check rules` and the unit tests in
 *   prometheus-rules.test.yaml (`promtool test rules`); promtool comes from Debian's prometheus
 *   package (scripts/install-system-deps.sh).
 * - Every series the dashboard and the rules query is one the processes export, read from a real
 *   rendering of the metrics with every instrument recorded; the only others are redis_exporter's
 *   (an assumption, documented in docs/operations.md) and the rules' own recorded series.
 * - Every Deployment passes its pod's name, UID, namespace and node to the process by the
 *   downward API, so that replicas are distinct series.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJacobianMetrics } from '@jacobian/shared';
import { ConfigMap } from 'kubernetes-models/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml, stringify as stringifyYaml } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const OBSERVABILITY = path.join(ROOT, 'infra', 'observability');

/** redis_exporter's standard series the rules and the dashboard read (not exported by Jacobian). */
const REDIS_EXPORTER_SERIES = new Set(['redis_up', 'redis_memory_used_bytes', 'redis_memory_max_bytes']);

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
}
interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface PrometheusRuleObject extends K8sObject {
  spec: { groups: { name: string; rules: Rule[] }[] };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type: string; uid: string };
  targets?: { refId: string; expr: string; datasource?: { uid: string } }[];
}
interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query?: string }[] };
}

function kubectl(): string {
  const found = execFileSync('bash', [path.join(ROOT, 'scripts', 'install-kubectl.sh')], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').at(-1);
  if (!found) throw new Error('scripts/install-kubectl.sh printed no path');
  return found;
}

function render(dir: string): K8sObject[] {
  const output = execFileSync(kubectl(), ['kustomize', dir], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return parseAllDocuments(output).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${dir}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as K8sObject | null;
    return value === null ? [] : [value];
  });
}

/** PromQL functions, aggregations and keywords: identifiers in an expression that are not series. */
const PROMQL_WORDS = new Set(
  [
    'sum', 'min', 'max', 'avg', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'count_values', 'group',
    'rate', 'irate', 'increase', 'delta', 'idelta', 'deriv', 'predict_linear', 'histogram_quantile', 'abs', 'ceil', 'floor', 'round', 'clamp', 'clamp_min', 'clamp_max',
    'label_replace', 'label_join', 'vector', 'scalar', 'time', 'absent', 'absent_over_time', 'changes', 'resets', 'sort', 'sort_desc',
    'avg_over_time', 'min_over_time', 'max_over_time', 'sum_over_time', 'count_over_time', 'last_over_time', 'quantile_over_time',
    'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset',
  ],
);

/**
 * The series names a PromQL expression (or a Grafana target) selects: what is left of its
 * identifiers once strings, label matchers, grouping clauses, ranges, numbers and PromQL's own
 * words are taken out.
 */
function seriesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\$\w+/g, ' ');
  const names = stripped.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  return [...new Set(names.filter((name) => !PROMQL_WORDS.has(name) && !/^\d/.test(name)))].sort();
}

/** The series names the processes export: the Prometheus text of metrics with every instrument recorded. */
async function exportedSeries(): Promise<Set<string>> {
  const metrics = createJacobianMetrics({ runtime: true });
  try {
    metrics.runFinished('graph.construct.explicit', 'EXPLORE', 'COMPLETED', 0.1);
    metrics.apiRunFinished('graph.construct.explicit', 'EXPLORE', 'COMPLETED', 0.1);
    metrics.queueWait('light', 0.1);
    metrics.jobStalled('light');
    metrics.artifactBytesWritten('s3', 1);
    metrics.checkerVerdict('accepted');
    metrics.apiVerification('verified');
    metrics.mcpOperation({ method: 'tools/list', transport: 'tcp', seconds: 0.001 });
    metrics.providerHealth('nauty', true);
    metrics.watchQueueDepths(() => Promise.resolve([{ pool: 'light', waiting: 0, active: 0, delayed: 0 }]));
    const { body } = await metrics.render();
    const names = new Set<string>();
    for (const line of body.split('\n')) {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
      if (match?.[1] !== undefined) names.add(match[1]);
    }
    return names;
  } finally {
    await metrics.shutdown();
  }
}

const rulesFile = path.join(OBSERVABILITY, 'prometheus-rules.yaml');
const rule = parseYaml(readFileSync(rulesFile, 'utf8')) as PrometheusRuleObject;
const dashboard = JSON.parse(readFileSync(path.join(OBSERVABILITY, 'grafana-dashboard.json'), 'utf8')) as Dashboard;

/** Each rule's problems with the PrometheusRule schema and our conventions. */
function ruleViolations(object: PrometheusRuleObject): string[] {
  const problems: string[] = [];
  if (object.apiVersion !== 'monitoring.coreos.com/v1' || object.kind !== 'PrometheusRule') problems.push(`not a PrometheusRule: ${object.apiVersion}/${object.kind}`);
  const groups = new Set<string>();
  for (const group of object.spec.groups) {
    if (groups.has(group.name)) problems.push(`group ${group.name} twice`);
    groups.add(group.name);
    for (const r of group.rules) {
      const name = r.alert ?? r.record ?? '(unnamed)';
      if ((r.alert === undefined) === (r.record === undefined)) problems.push(`${name}: exactly one of alert and record`);
      if (typeof r.expr !== 'string' || r.expr.trim() === '') problems.push(`${name}: no expr`);
      if (r.for !== undefined && !/^(\d+(ms|s|m|h|d|w|y))+$/.test(r.for)) problems.push(`${name}: for ${r.for} is not a duration`);
      if (r.alert !== undefined) {
        if (!['warning', 'critical'].includes(r.labels?.['severity'] ?? '')) problems.push(`${name}: severity must be warning or critical`);
        if (!r.annotations?.['summary'] || !r.annotations['description']) problems.push(`${name}: summary and description annotations`);
      }
    }
  }
  return problems;
}

function promtool(args: string[], cwd: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
  if (run.error !== undefined) throw new Error(`promtool could not run (${run.error.message}): install Debian's prometheus package (scripts/install-system-deps.sh)`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('infra/observability', () => {
  let work: string;
  let exported: Set<string>;
  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'jacobian-rules-'));
    exported = await exportedSeries();
  });
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it('renders to the PrometheusRule and a dashboard ConfigMap for the Grafana sidecar', () => {
    const objects = render(OBSERVABILITY);
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(['ConfigMap/jacobian-grafana-dashboard', 'PrometheusRule/jacobian']);
    const map = objects.find((o) => o.kind === 'ConfigMap') as K8sObject & { data: Record<string, string> };
    new ConfigMap(map).validate();
    expect(map.metadata.labels?.['grafana_dashboard']).toBe('1');
    expect(JSON.parse(map.data['grafana-dashboard.json'] ?? '{}')).toEqual(dashboard);
  });

  it('has rules that follow the PrometheusRule schema, pass promtool check rules and its unit tests', () => {
    expect(ruleViolations(rule)).toEqual([]);
    // The groups of the PrometheusRule are a Prometheus rule file as they are.
    writeFileSync(path.join(work, 'rules.yaml'), stringifyYaml({ groups: rule.spec.groups }));
    writeFileSync(path.join(work, 'tests.yaml'), readFileSync(path.join(OBSERVABILITY, 'prometheus-rules.test.yaml')));
    const check = promtool(['check', 'rules', 'rules.yaml'], work);
    expect(check.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(check.status, check.output).toBe(0);
    const tests = promtool(['test', 'rules', 'tests.yaml'], work);
    expect(tests.status, tests.output).toBe(0);
    // The alerts the issue asks for are there.
    const alerts = rule.spec.groups.flatMap((g) => g.rules.map((r) => r.alert)).filter((a) => a !== undefined);
    expect(alerts).toEqual(
      expect.arrayContaining(['JacobianQueueWaitHigh', 'JacobianRunsFailing', 'JacobianJobsStalled', 'JacobianProviderDown', 'JacobianCheckerRejections', 'JacobianRedisMemoryHigh']),
    );
  });

  it('refuses broken rules: promtool on a bad expression, the schema check on a missing severity', () => {
    writeFileSync(path.join(work, 'broken.yaml'), stringifyYaml({ groups: [{ name: 'x', rules: [{ alert: 'Broken', expr: 'sum(rate(jacobian_runs_total[5m])' }] }] }));
    const check = promtool(['check', 'rules', 'broken.yaml'], work);
    expect(check.status).not.toBe(0);
    const damaged = structuredClone(rule);
    const first = damaged.spec.groups[0]?.rules.find((r) => r.alert !== undefined);
    if (first?.labels !== undefined) delete first.labels['severity'];
    expect(ruleViolations(damaged)).toEqual([`${first?.alert}: severity must be warning or critical`]);
  });

  it('queries only series the processes export (and redis_exporter standard ones)', () => {
    const recorded = new Set(rule.spec.groups.flatMap((g) => g.rules.map((r) => r.record)).filter((r): r is string => r !== undefined));
    const queries = [
      ...rule.spec.groups.flatMap((g) => g.rules.map((r) => ({ where: `rule ${r.alert ?? r.record}`, expr: r.expr }))),
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}" ${t.refId}`, expr: t.expr }))),
    ];
    expect(queries.length).toBeGreaterThan(20);
    const unknown = queries.flatMap(({ where, expr }) => seriesIn(expr).filter((name) => !exported.has(name) && !recorded.has(name) && !REDIS_EXPORTER_SERIES.has(name)).map((name) => `${where}: ${name}`));
    expect(unknown).toEqual([]);
    // Every Jacobian series family is looked at somewhere, except the build details.
    const used = new Set(queries.flatMap(({ expr }) => seriesIn(expr)));
    const families = ['jacobian_queue_jobs', 'jacobian_queue_wait_seconds_bucket', 'jacobian_runs_total', 'jacobian_jobs_stalled_total', 'jacobian_provider_up', 'jacobian_checker_verifications_total', 'jacobian_api_verifications_total', 'mcp_server_operation_duration_seconds_count', 'redis_memory_used_bytes'];
    expect(families.filter((name) => !used.has(name))).toEqual([]);
  });

  it('finds the series of an expression, and a made-up one', () => {
    expect(seriesIn('histogram_quantile(0.95, sum by (pool, le) (rate(jacobian_queue_wait_seconds_bucket{pool=~"a|b"}[$__rate_interval])))')).toEqual(['jacobian_queue_wait_seconds_bucket']);
    expect(seriesIn('redis_memory_used_bytes / (redis_memory_max_bytes > 0) > 0.8')).toEqual(['redis_memory_max_bytes', 'redis_memory_used_bytes']);
    expect(seriesIn('sum(rate(jacobian_runs_failed_total{outcome="ERROR"}[5m])) and on (capability) jacobian_runs_total')).toEqual(['jacobian_runs_failed_total', 'jacobian_runs_total']);
    expect(exported.has('jacobian_runs_failed_total')).toBe(false);
    expect(exported.has('jacobian_runs_total')).toBe(true);
  });

  it('is a dashboard Grafana can import: unique panel IDs, a Prometheus datasource variable, panels on the grid', () => {
    expect(dashboard.uid).toBe('jacobian-overview');
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }));
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
  });
});

describe('the pod identity of every Deployment', () => {
  it.each(['dev', 'prod'])('passes pod name, UID, namespace and node by the downward API (%s overlay)', (overlay) => {
    const deployments = render(path.join(ROOT, 'infra', 'k8s', 'overlays', overlay)).filter((o) => o.kind === 'Deployment') as (K8sObject & {
      spec: { template: { spec: { containers: { name: string; env?: { name: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[] }[] } } };
    })[];
    // The Jacobian roles: the containers that name their OTEL_SERVICE_NAME (not the dev overlay's MinIO or Redis).
    const roles = deployments.flatMap((deployment) =>
      deployment.spec.template.spec.containers.filter((c) => (c.env ?? []).some((e) => e.name === 'OTEL_SERVICE_NAME')).map((container) => ({ deployment, container })),
    );
    expect(roles.length).toBeGreaterThanOrEqual(4);
    const expected = { K8S_POD_NAME: 'metadata.name', K8S_POD_UID: 'metadata.uid', K8S_NAMESPACE_NAME: 'metadata.namespace', K8S_NODE_NAME: 'spec.nodeName' };
    for (const { deployment, container } of roles) {
      const fields = Object.fromEntries((container.env ?? []).filter((e) => e.name.startsWith('K8S_')).map((e) => [e.name, e.valueFrom?.fieldRef?.fieldPath]));
      expect(fields, `${deployment.metadata.name}/${container.name}`).toEqual(expected);
    }
  });
});

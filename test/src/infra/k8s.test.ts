/**
 * The Kubernetes manifests in infra/k8s. Both overlays are rendered with `kubectl kustomize`
 * (kubectl from scripts/install-kubectl.sh) and every rendered object is validated against the
 * Kubernetes API schemas (kubernetes-models) or KEDA's CRD schemas (@kubernetes-models/keda); a
 * kind that neither knows fails. Then the deployment's rules are checked on the rendered output:
 * hardened containers, an unreachable checker, egress limited to what the roles need, drain
 * grace, the private key only in the checker, IRSA and no static AWS keys in prod, KEDA on the
 * BullMQ wait list of the right pool, the HPA, a PDB for every Deployment.
 *
 * Each rule is a function that returns its violations, so that the last block can show that the
 * rules fail on broken input (objects from the real render, damaged in memory).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScaledObject, TriggerAuthentication, type IScaledObject, type ITriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy, type IIngress, type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service, ServiceAccount, type IContainer, type IPodSpec, type IService } from 'kubernetes-models/v1';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, parseAllDocuments } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const OVERLAYS = path.join(ROOT, 'infra', 'k8s', 'overlays');
const EXAMPLES = path.join(ROOT, 'infra', 'k8s', 'examples');

// From the deployment contract.
const MCP_PORT = 8752;
const OPS_PORT = 9464;
const OTLP_PORT = 4318;
const ROLES = ['api', 'runner', 'checker'] as const;
type Role = (typeof ROLES)[number];
const ROLE_ARN_KEY: Record<Role, string> = { api: 'API_ROLE_ARN', runner: 'RUNNER_ROLE_ARN', checker: 'CHECKER_ROLE_ARN' };
const TERRAFORM_OUTPUT_KEYS = ['S3_BUCKET', 'S3_REGION', 'API_ROLE_ARN', 'RUNNER_ROLE_ARN', 'CHECKER_ROLE_ARN', 'REDIS_HOST', 'REDIS_PORT'];
const CHECKER_KEY_SECRET = 'jacobian-checker-key';
const CHECKER_PUBLIC_KEYS = 'jacobian-checker-public-keys';
/** Time a role needs after its drain to close connections and flush telemetry. */
const MIN_GRACE_MARGIN_S = 5;

const NAME = 'app.kubernetes.io/name';
const COMPONENT = 'app.kubernetes.io/component';
const PART_OF = 'app.kubernetes.io/part-of';

interface Meta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Meta;
}

type ConfigMapObject = K8sObject & { data?: Record<string, string> };
type SecretObject = K8sObject & { data?: Record<string, string>; stringData?: Record<string, string> };
type DeploymentObject = K8sObject & IDeployment & { spec: NonNullable<IDeployment['spec']> };
type NetworkPolicyObject = K8sObject & INetworkPolicy & { spec: NonNullable<INetworkPolicy['spec']> };
type ScaledObjectObject = K8sObject & IScaledObject & { spec: IScaledObject['spec'] };
type HpaObject = K8sObject & IHorizontalPodAutoscaler & { spec: NonNullable<IHorizontalPodAutoscaler['spec']> };
type PdbObject = K8sObject & IPodDisruptionBudget & { spec: NonNullable<IPodDisruptionBudget['spec']> };
type ServiceObject = K8sObject & IService & { spec: NonNullable<IService['spec']> };
type TriggerAuthenticationObject = K8sObject & ITriggerAuthentication;
type NetworkPolicyRule = NonNullable<NetworkPolicyObject['spec']['ingress']>[number];
type NetworkPolicyPort = NonNullable<NetworkPolicyRule['ports']>[number];
type NetworkPolicyPeer = NonNullable<NetworkPolicyRule['from']>[number];

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** A pod template of a workload, with where it comes from. */
interface PodTemplate {
  owner: string;
  kind: string;
  namespace: string;
  labels: Record<string, string>;
  spec: IPodSpec;
}

type Validating = new (data?: never) => { validate(): void };

/** Every kind the overlays may render, with the schema that validates it. */
const SCHEMAS = new Map<string, Validating>([
  ['v1/Namespace', Namespace],
  ['v1/ServiceAccount', ServiceAccount],
  ['v1/ConfigMap', ConfigMap],
  ['v1/Secret', Secret],
  ['v1/Service', Service],
  ['apps/v1/Deployment', Deployment],
  ['batch/v1/Job', Job],
  ['autoscaling/v2/HorizontalPodAutoscaler', HorizontalPodAutoscaler],
  ['policy/v1/PodDisruptionBudget', PodDisruptionBudget],
  ['networking.k8s.io/v1/NetworkPolicy', NetworkPolicy],
  ['networking.k8s.io/v1/Ingress', Ingress],
  ['keda.sh/v1alpha1/ScaledObject', ScaledObject],
  ['keda.sh/v1alpha1/TriggerAuthentication', TriggerAuthentication],
]);

let kubectlPath: string | undefined;

function kubectl(): string {
  kubectlPath ??= execFileSync('bash', [path.join(ROOT, 'scripts', 'install-kubectl.sh')], { cwd: ROOT, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1);
  if (!kubectlPath) throw new Error('scripts/install-kubectl.sh printed no path');
  return kubectlPath;
}

const renders = new Map<string, K8sObject[]>();

/** The overlay's objects, rendered once per run; each caller gets its own copy. */
function render(overlay: string): K8sObject[] {
  let objects = renders.get(overlay);
  if (!objects) {
    objects = renderOverlay(overlay);
    renders.set(overlay, objects);
  }
  return structuredClone(objects);
}

function renderOverlay(overlay: string): K8sObject[] {
  return renderDirectory(path.join(OVERLAYS, overlay), overlay);
}

function renderDirectory(directory: string, overlay: string): K8sObject[] {
  const output = execFileSync(kubectl(), ['kustomize', directory], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return parseAllDocuments(output).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${overlay}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as K8sObject | null;
    return value === null ? [] : [value];
  });
}

/** KEY=VALUE lines, # comments and blank lines ignored (the subset of dotenv kustomize reads). */
function readDotenv(file: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const eq = trimmed.indexOf('=');
    if (eq <= 0) throw new Error(`${file}: not KEY=VALUE: ${line}`);
    values.set(trimmed.slice(0, eq), trimmed.slice(eq + 1));
  }
  return values;
}

const id = (o: K8sObject): string => `${o.kind}/${o.metadata.name}`;
const ofKind = <T extends K8sObject>(objects: K8sObject[], kind: string): T[] => objects.filter((o) => o.kind === kind) as T[];
const labelOf = (labels: Record<string, string> | undefined, key: string): string | undefined => labels?.[key];
const isRole = (value: string | undefined): value is Role => (ROLES as readonly string[]).includes(value ?? '');

function podTemplates(objects: K8sObject[]): PodTemplate[] {
  return objects.flatMap((o) => {
    if (o.kind !== 'Deployment' && o.kind !== 'Job') return [];
    const template = (o as K8sObject & { spec?: { template?: { metadata?: Meta; spec?: IPodSpec } } }).spec?.template;
    if (!template?.spec) return [];
    return [{ owner: id(o), kind: o.kind, namespace: o.metadata.namespace ?? '', labels: template.metadata?.labels ?? {}, spec: template.spec }];
  });
}

const allContainers = (spec: IPodSpec): IContainer[] => [...(spec.initContainers ?? []), ...spec.containers];

function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const e of selector?.matchExpressions ?? []) {
    const value = labels[e.key];
    const ok =
      e.operator === 'In' ? value !== undefined && (e.values ?? []).includes(value)
      : e.operator === 'NotIn' ? value === undefined || !(e.values ?? []).includes(value)
      : e.operator === 'Exists' ? value !== undefined
      : e.operator === 'DoesNotExist' ? value === undefined
      : false;
    if (!ok) return false;
  }
  return true;
}

/**
 * The value a container sees for an environment variable, as far as the rendered objects tell:
 * `env` wins over `envFrom`, and a later `envFrom` source over an earlier one. Values from
 * Secrets that are not rendered (created by the operator) are unknown.
 */
function envValue(objects: K8sObject[], namespace: string, container: IContainer, name: string): string | undefined {
  const configMap = (cmName: string): ConfigMapObject | undefined =>
    ofKind<ConfigMapObject>(objects, 'ConfigMap').find((c) => c.metadata.name === cmName && (c.metadata.namespace ?? '') === namespace);
  const direct = container.env?.find((e) => e.name === name);
  if (direct) {
    if (direct.value !== undefined) return direct.value;
    const ref = direct.valueFrom?.configMapKeyRef;
    return ref?.name === undefined ? undefined : configMap(ref.name)?.data?.[ref.key];
  }
  let value: string | undefined;
  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? '';
    if (!source.configMapRef?.name || !name.startsWith(prefix)) continue;
    value = configMap(source.configMapRef.name)?.data?.[name.slice(prefix.length)] ?? value;
  }
  return value;
}

// ---- rules: each returns the list of violations ----

function schemaViolations(objects: K8sObject[]): string[] {
  return objects.flatMap((o) => {
    const Schema = SCHEMAS.get(`${o.apiVersion}/${o.kind}`);
    if (!Schema) return [`${o.apiVersion} ${id(o)}: no schema validates this kind`];
    try {
      new Schema(o as never).validate();
      return [];
    } catch (error) {
      return [`${id(o)}: ${error instanceof Error ? error.message : String(error)}`];
    }
  });
}

function labelViolations(objects: K8sObject[]): string[] {
  return objects.flatMap((o) => {
    const labels = o.metadata.labels ?? {};
    const missing = [NAME, COMPONENT].filter((key) => !labels[key]);
    if (labels[PART_OF] !== 'jacobian') missing.push(`${PART_OF}=jacobian`);
    return missing.length > 0 ? [`${id(o)}: missing labels ${missing.join(', ')}`] : [];
  });
}

function containerViolations(objects: K8sObject[]): string[] {
  const violations: string[] = [];
  for (const pod of podTemplates(objects)) {
    const podSc = pod.spec.securityContext ?? {};
    const inits = new Set(pod.spec.initContainers ?? []);
    for (const c of allContainers(pod.spec)) {
      const where = `${pod.owner} container ${c.name}`;
      const sc = c.securityContext ?? {};
      if ((sc.runAsNonRoot ?? podSc.runAsNonRoot) !== true) violations.push(`${where}: runAsNonRoot is not true`);
      for (const [field, value] of [['runAsUser', sc.runAsUser ?? podSc.runAsUser], ['runAsGroup', sc.runAsGroup ?? podSc.runAsGroup]] as const) {
        if (typeof value !== 'number' || value <= 0) violations.push(`${where}: ${field} is not a numeric non-root id`);
      }
      if (sc.readOnlyRootFilesystem !== true) violations.push(`${where}: readOnlyRootFilesystem is not true`);
      if (sc.allowPrivilegeEscalation !== false) violations.push(`${where}: allowPrivilegeEscalation is not false`);
      if (sc.privileged === true) violations.push(`${where}: privileged`);
      if (!sc.capabilities?.drop?.includes('ALL')) violations.push(`${where}: capabilities do not drop ALL`);
      if ((sc.capabilities?.add ?? []).length > 0) violations.push(`${where}: adds capabilities`);
      if ((sc.seccompProfile ?? podSc.seccompProfile)?.type !== 'RuntimeDefault') violations.push(`${where}: seccompProfile is not RuntimeDefault`);
      for (const kind of ['requests', 'limits'] as const) {
        for (const resource of ['cpu', 'memory']) {
          if (c.resources?.[kind]?.[resource] === undefined) violations.push(`${where}: no ${resource} ${kind}`);
        }
      }
      // Jobs run to completion, and Kubernetes rejects these probes on init containers.
      if (pod.kind !== 'Job' && !inits.has(c)) {
        if (!c.livenessProbe) violations.push(`${where}: no liveness probe`);
        if (!c.readinessProbe) violations.push(`${where}: no readiness probe`);
      }
    }
  }
  return violations;
}

/** The Jacobian roles probe /healthz and /readyz on the operations port. */
function roleProbeViolations(objects: K8sObject[]): string[] {
  const violations: string[] = [];
  for (const pod of podTemplates(objects)) {
    if (!isRole(labelOf(pod.labels, COMPONENT))) continue;
    for (const c of pod.spec.containers) {
      const opsPort = c.ports?.find((p) => p.name === 'ops')?.containerPort;
      if (opsPort !== OPS_PORT) violations.push(`${pod.owner} container ${c.name}: no port ops = ${OPS_PORT}`);
      for (const [probe, expected] of [[c.livenessProbe, '/healthz'], [c.readinessProbe, '/readyz']] as const) {
        const get = probe?.httpGet;
        if (get?.path !== expected || (get.port !== 'ops' && get.port !== OPS_PORT)) {
          violations.push(`${pod.owner} container ${c.name}: expected a probe GET ${expected} on port ops, found ${JSON.stringify(get)}`);
        }
      }
    }
  }
  return violations;
}

/** The kubelet waits longer than the role drains (JACOBIAN_DRAIN_GRACE_MS as configured), plus a margin. */
function graceViolations(objects: K8sObject[]): string[] {
  const violations: string[] = [];
  for (const d of ofKind<DeploymentObject>(objects, 'Deployment')) {
    const pod = d.spec.template;
    if (!isRole(labelOf(pod.metadata?.labels, COMPONENT)) || !pod.spec) continue;
    const grace = pod.spec.terminationGracePeriodSeconds ?? 30;
    for (const c of pod.spec.containers) {
      const drain = envValue(objects, d.metadata.namespace ?? '', c, 'JACOBIAN_DRAIN_GRACE_MS');
      if (drain === undefined || !/^\d+$/.test(drain)) {
        violations.push(`${id(d)} container ${c.name}: JACOBIAN_DRAIN_GRACE_MS is not configured (${drain})`);
      } else if (!(grace >= Number(drain) / 1000 + MIN_GRACE_MARGIN_S)) {
        violations.push(`${id(d)}: terminationGracePeriodSeconds ${grace} is not above the ${Number(drain) / 1000} s drain plus ${MIN_GRACE_MARGIN_S} s`);
      }
    }
  }
  return violations;
}

function policyTypes(np: NetworkPolicyObject): string[] {
  return np.spec.policyTypes ?? ['Ingress', ...(np.spec.egress ? ['Egress'] : [])];
}

function policiesSelecting(objects: K8sObject[], pod: PodTemplate, type: 'Ingress' | 'Egress'): NetworkPolicyObject[] {
  return ofKind<NetworkPolicyObject>(objects, 'NetworkPolicy').filter(
    (np) => (np.metadata.namespace ?? '') === pod.namespace && selects(np.spec.podSelector, pod.labels) && policyTypes(np).includes(type),
  );
}

/** Resolves a NetworkPolicy port (a number or a container port name of `pod`). */
function portNumber(port: NetworkPolicyPort['port'], pod: PodTemplate | undefined): number | undefined {
  if (typeof port === 'number') return port;
  if (port === undefined || pod === undefined) return undefined;
  return allContainers(pod.spec)
    .flatMap((c) => c.ports ?? [])
    .find((p) => p.name === port)?.containerPort;
}

function ruleAllowsPort(ports: NetworkPolicyPort[] | undefined, port: number, protocol: 'TCP' | 'UDP', pod?: PodTemplate): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    const first = portNumber(p.port, pod);
    return first !== undefined && (first === port || (p.endPort !== undefined && first <= port && port <= p.endPort));
  });
}

function checkerIngressViolations(objects: K8sObject[]): string[] {
  const checkers = podTemplates(objects).filter((p) => labelOf(p.labels, COMPONENT) === 'checker');
  if (checkers.length === 0) return ['no checker pods rendered'];
  const violations: string[] = [];
  for (const pod of checkers) {
    const policies = policiesSelecting(objects, pod, 'Ingress');
    if (!policies.some((np) => (np.spec.ingress ?? []).length === 0)) violations.push(`${pod.owner}: no default-deny ingress policy selects it`);
    for (const np of policies) {
      if ((np.spec.ingress ?? []).length > 0) violations.push(`${id(np)} admits ingress to ${pod.owner}`);
    }
    for (const s of ofKind<ServiceObject>(objects, 'Service')) {
      if (s.spec.selector && selects({ matchLabels: s.spec.selector }, pod.labels)) violations.push(`${id(s)} exposes ${pod.owner}`);
    }
  }
  return violations;
}

/** Ingress from outside the namespace that a rule of the deployment is allowed to admit. */
interface ExternalIngress {
  /** Pods it may reach: by app.kubernetes.io/name or app.kubernetes.io/component. */
  pods: { names?: string[]; components?: string[] };
  port: number;
  /** 'anywhere', or exactly the namespace with this name. */
  from: 'anywhere' | { namespace: string };
}

const isExternalPeer = (peer: NetworkPolicyPeer): boolean => peer.ipBlock !== undefined || peer.namespaceSelector !== undefined;

function namespaceOnly(peer: NetworkPolicyPeer, namespace: string): boolean {
  const selector = peer.namespaceSelector;
  return (
    peer.ipBlock === undefined &&
    selector !== undefined &&
    (selector.matchExpressions ?? []).length === 0 &&
    JSON.stringify(selector.matchLabels) === JSON.stringify({ 'kubernetes.io/metadata.name': namespace })
  );
}

/** Every ingress rule that admits traffic from outside the namespace matches an allowance. */
function externalIngressViolations(objects: K8sObject[], allowed: ExternalIngress[]): string[] {
  const violations: string[] = [];
  for (const np of ofKind<NetworkPolicyObject>(objects, 'NetworkPolicy')) {
    const pods = podTemplates(objects).filter((p) => p.namespace === (np.metadata.namespace ?? '') && selects(np.spec.podSelector, p.labels));
    for (const rule of np.spec.ingress ?? []) {
      const peers = rule.from ?? [];
      if (peers.length > 0 && !peers.some(isExternalPeer)) continue;
      for (const pod of pods) {
        const fits = allowed.some(
          (a) =>
            ((a.pods.names ?? []).includes(labelOf(pod.labels, NAME) ?? '') || (a.pods.components ?? []).includes(labelOf(pod.labels, COMPONENT) ?? '')) &&
            (rule.ports ?? []).length > 0 &&
            (rule.ports ?? []).every((p) => portNumber(p.port, pod) === a.port && p.endPort === undefined) &&
            (a.from === 'anywhere' || (peers.length > 0 && peers.filter(isExternalPeer).every((peer) => namespaceOnly(peer, (a.from as { namespace: string }).namespace)))),
        );
        if (!fits) violations.push(`${id(np)} admits ingress from outside the namespace to ${pod.owner} (${JSON.stringify(rule)})`);
      }
    }
  }
  return violations;
}

/** Default deny for every Jacobian pod, and the egress each role needs (and only by port). */
function isolationViolations(objects: K8sObject[], needs: { redisPort: number; artifactPort: number }): string[] {
  const violations: string[] = [];
  const pods = podTemplates(objects);
  const checkers = pods.filter((p) => labelOf(p.labels, COMPONENT) === 'checker');
  for (const pod of pods) {
    if (labelOf(pod.labels, PART_OF) !== 'jacobian') violations.push(`${pod.owner}: pods are not labelled ${PART_OF}=jacobian`);
    const denyAll = ofKind<NetworkPolicyObject>(objects, 'NetworkPolicy').some(
      (np) =>
        (np.metadata.namespace ?? '') === pod.namespace &&
        selects(np.spec.podSelector, pod.labels) &&
        policyTypes(np).includes('Ingress') &&
        policyTypes(np).includes('Egress') &&
        (np.spec.ingress ?? []).length === 0 &&
        (np.spec.egress ?? []).length === 0,
    );
    if (!denyAll) violations.push(`${pod.owner}: no default-deny (ingress and egress) policy selects it`);
    if (!isRole(labelOf(pod.labels, COMPONENT))) continue;
    const egress = policiesSelecting(objects, pod, 'Egress').flatMap((np) => (np.spec.egress ?? []).map((rule) => ({ np, rule })));
    const need: Array<[string, number, 'TCP' | 'UDP']> = [
      ['DNS', 53, 'UDP'],
      ['DNS', 53, 'TCP'],
      ['Redis', needs.redisPort, 'TCP'],
      ['the artifact store', needs.artifactPort, 'TCP'],
      ['the OTLP collector', OTLP_PORT, 'TCP'],
    ];
    for (const [what, port, protocol] of need) {
      if (!egress.some(({ rule }) => ruleAllowsPort(rule.ports, port, protocol))) violations.push(`${pod.owner}: no egress to ${what} (${port}/${protocol})`);
    }
    for (const { np, rule } of egress) {
      if ((rule.ports ?? []).length === 0) violations.push(`${id(np)} lets ${pod.owner} egress on every port`);
      for (const peer of rule.to ?? []) {
        if (peer.podSelector && !peer.namespaceSelector && checkers.some((c) => selects(peer.podSelector, c.labels))) {
          violations.push(`${id(np)} lets ${pod.owner} talk to the checker`);
        }
      }
    }
  }
  return violations;
}

/** The checker's private key reaches the checker only; the checker and the api find their keys. */
function keyViolations(objects: K8sObject[]): string[] {
  const violations: string[] = [];
  const pods = podTemplates(objects);
  for (const pod of pods) {
    const component = labelOf(pod.labels, COMPONENT);
    const keyVolumes = (pod.spec.volumes ?? []).filter(
      (v) => v.secret?.secretName === CHECKER_KEY_SECRET || (v.projected?.sources ?? []).some((s) => s.secret?.name === CHECKER_KEY_SECRET),
    );
    const keyEnv = allContainers(pod.spec).some(
      (c) =>
        (c.env ?? []).some((e) => e.valueFrom?.secretKeyRef?.name === CHECKER_KEY_SECRET) ||
        (c.envFrom ?? []).some((e) => e.secretRef?.name === CHECKER_KEY_SECRET),
    );
    if (component !== 'checker' && (keyVolumes.length > 0 || keyEnv)) violations.push(`${pod.owner}: mounts the checker private key`);
    const expectFile = (variable: string, volumes: string[]): void => {
      for (const c of pod.spec.containers) {
        const value = envValue(objects, pod.namespace, c, variable);
        const mounts = (c.volumeMounts ?? []).filter((m) => volumes.includes(m.name)).map((m) => m.mountPath);
        const files = value?.split(',').map((f) => f.trim()) ?? [];
        if (files.length === 0 || !files.every((f) => mounts.some((m) => f.startsWith(`${m}/`)))) {
          violations.push(`${pod.owner} container ${c.name}: ${variable}=${value} is not inside a mount of ${volumes.join(', ') || 'the key volume'}`);
        }
      }
    };
    if (component === 'checker') expectFile('JACOBIAN_CHECKER_KEY_FILE', keyVolumes.map((v) => v.name));
    if (component === 'api') {
      const publicVolumes = (pod.spec.volumes ?? []).filter((v) => v.configMap?.name === CHECKER_PUBLIC_KEYS || v.secret?.secretName === CHECKER_PUBLIC_KEYS);
      expectFile('JACOBIAN_CHECKER_PUBLIC_KEYS', publicVolumes.map((v) => v.name));
    }
  }
  return violations;
}

/** REDIS_URL always comes from the Secret; `secretName` checks its name. */
function redisUrlViolations(objects: K8sObject[], secretName: (name: string) => boolean): string[] {
  const violations: string[] = [];
  for (const pod of podTemplates(objects)) {
    if (!isRole(labelOf(pod.labels, COMPONENT))) continue;
    for (const c of pod.spec.containers) {
      const ref = c.env?.find((e) => e.name === 'REDIS_URL')?.valueFrom?.secretKeyRef;
      if (ref?.key !== 'REDIS_URL' || !secretName(ref.name ?? '')) violations.push(`${pod.owner} container ${c.name}: REDIS_URL is not a secretKeyRef to jacobian-redis/REDIS_URL`);
    }
  }
  for (const cm of ofKind<ConfigMapObject>(objects, 'ConfigMap')) {
    if (cm.data?.['REDIS_URL'] !== undefined) violations.push(`${id(cm)}: holds REDIS_URL`);
  }
  return violations;
}

function poolOf(d: DeploymentObject): string | undefined {
  const args = d.spec.template.spec?.containers[0]?.args ?? [];
  const i = args.indexOf('--pools');
  return i >= 0 ? args[i + 1] : undefined;
}

/** ScaledObjects scale existing runner Deployments on the wait list of the pool the runner serves. */
function kedaViolations(objects: K8sObject[]): string[] {
  const violations: string[] = [];
  const deployments = ofKind<DeploymentObject>(objects, 'Deployment');
  const scaledObjects = ofKind<ScaledObjectObject>(objects, 'ScaledObject');
  const auths = ofKind<TriggerAuthenticationObject>(objects, 'TriggerAuthentication');
  for (const so of scaledObjects) {
    const ref = so.spec.scaleTargetRef;
    const target = deployments.find((d) => d.metadata.name === ref.name && d.metadata.namespace === so.metadata.namespace);
    if ((ref.kind ?? 'Deployment') !== 'Deployment' || !target) {
      violations.push(`${id(so)}: scales ${ref.kind ?? 'Deployment'}/${ref.name}, which is not a rendered Deployment`);
      continue;
    }
    const pool = poolOf(target);
    const container = target.spec.template.spec?.containers[0];
    const prefix = container ? envValue(objects, target.metadata.namespace ?? '', container, 'JACOBIAN_PREFIX') : undefined;
    if (!pool || !prefix) {
      violations.push(`${id(so)}: the target ${id(target)} names no pool (${pool}) or prefix (${prefix})`);
      continue;
    }
    const queueKeys = `${prefix}:jacobian-pool-${pool}:`;
    const redisTriggers = so.spec.triggers.filter((t) => t.type === 'redis');
    if (!redisTriggers.some((t) => t.metadata['listName'] === `${queueKeys}wait`)) violations.push(`${id(so)}: no redis trigger on the list ${queueKeys}wait`);
    for (const t of so.spec.triggers) {
      if (t.type !== 'redis' || !t.metadata['listName']?.startsWith(queueKeys)) violations.push(`${id(so)}: trigger ${t.name ?? t.type} is not on a list of ${queueKeys}*`);
      const auth = t.authenticationRef;
      if (!auth || !auths.some((a) => a.metadata.name === auth.name && a.metadata.namespace === so.metadata.namespace)) {
        violations.push(`${id(so)}: trigger ${t.name ?? t.type} has no rendered TriggerAuthentication`);
      }
    }
  }
  for (const d of deployments) {
    if (labelOf(d.spec.template.metadata?.labels, COMPONENT) !== 'runner') continue;
    const count = scaledObjects.filter((so) => so.spec.scaleTargetRef.name === d.metadata.name).length;
    if (count !== 1) violations.push(`${id(d)}: scaled by ${count} ScaledObjects`);
  }
  return violations;
}

function hpaViolations(objects: K8sObject[]): string[] {
  const hpas = ofKind<HpaObject>(objects, 'HorizontalPodAutoscaler');
  const api = hpas.filter((h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === 'mcp-api');
  const violations: string[] = [];
  if (!ofKind<DeploymentObject>(objects, 'Deployment').some((d) => d.metadata.name === 'mcp-api')) violations.push('no Deployment mcp-api');
  if (api.length !== 1) violations.push(`${api.length} HorizontalPodAutoscalers target mcp-api`);
  for (const h of api) {
    if (!(h.spec.metrics ?? []).some((m) => m.type === 'Resource' && m.resource?.name === 'cpu')) violations.push(`${id(h)}: does not scale on CPU`);
  }
  const kedaTargets = new Set(ofKind<ScaledObjectObject>(objects, 'ScaledObject').map((so) => so.spec.scaleTargetRef.name));
  for (const h of hpas) if (kedaTargets.has(h.spec.scaleTargetRef.name)) violations.push(`${id(h)}: its target is also scaled by KEDA`);
  return violations;
}

/** Every Deployment has a PDB, and a PDB never blocks a node drain at the Deployment's replica floor. */
function pdbViolations(objects: K8sObject[]): string[] {
  const violations: string[] = [];
  const pdbs = ofKind<PdbObject>(objects, 'PodDisruptionBudget');
  for (const d of ofKind<DeploymentObject>(objects, 'Deployment')) {
    const labels = d.spec.template.metadata?.labels ?? {};
    const matching = pdbs.filter((p) => p.metadata.namespace === d.metadata.namespace && p.spec.selector && selects(p.spec.selector, labels));
    if (matching.length !== 1) {
      violations.push(`${id(d)}: selected by ${matching.length} PodDisruptionBudgets`);
      continue;
    }
    const pdb = matching[0]!;
    if ((pdb.spec.minAvailable === undefined) === (pdb.spec.maxUnavailable === undefined)) violations.push(`${id(pdb)}: set exactly one of minAvailable, maxUnavailable`);
    const floor =
      ofKind<HpaObject>(objects, 'HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === d.metadata.name)?.spec.minReplicas ??
      ofKind<ScaledObjectObject>(objects, 'ScaledObject').find((s) => s.spec.scaleTargetRef.name === d.metadata.name)?.spec.minReplicaCount ??
      d.spec.replicas ??
      1;
    if (typeof pdb.spec.minAvailable === 'number' && pdb.spec.minAvailable >= floor) {
      violations.push(`${id(pdb)}: minAvailable ${pdb.spec.minAvailable} with at least ${floor} replicas blocks every eviction`);
    }
  }
  return violations;
}

/** Every runner pool and the api can be scraped; nothing is exposed beyond http and ops. */
function serviceViolations(objects: K8sObject[]): string[] {
  const violations: string[] = [];
  const services = ofKind<ServiceObject>(objects, 'Service');
  for (const pod of podTemplates(objects)) {
    const component = labelOf(pod.labels, COMPONENT);
    if (component !== 'api' && component !== 'runner') continue;
    const ports = services
      .filter((s) => s.spec.selector && selects({ matchLabels: s.spec.selector }, pod.labels))
      .flatMap((s) => s.spec.ports ?? [])
      .map((p) => `${p.name}:${p.port}`);
    const expected = component === 'api' ? [`http:${MCP_PORT}`, `ops:${OPS_PORT}`] : [`ops:${OPS_PORT}`];
    if (JSON.stringify(ports.sort()) !== JSON.stringify(expected.sort())) violations.push(`${pod.owner}: Services expose ${ports.join(', ') || 'nothing'}, expected ${expected.join(', ')}`);
  }
  return violations;
}

function namespaceViolations(objects: K8sObject[], namespace: string): string[] {
  return objects.flatMap((o) => {
    if (o.kind === 'Namespace') return o.metadata.name === namespace ? [] : [`${id(o)}: unexpected namespace`];
    return o.metadata.namespace === namespace ? [] : [`${id(o)}: in namespace ${o.metadata.namespace}, expected ${namespace}`];
  });
}

const HOSTNAME_KEY = 'kubernetes.io/hostname';
const ZONE_KEY = 'topology.kubernetes.io/zone';

/**
 * Every role spreads its own pods (and only them) over nodes, required, and over zones,
 * preferred or, for the Deployments in `zoneRequired`, required; per rollout revision
 * (pod-template-hash), with nodes the pod cannot tolerate left out (nodeTaintsPolicy Honor).
 */
function spreadViolations(objects: K8sObject[], zoneRequired: readonly string[] = []): string[] {
  const violations: string[] = [];
  const deployments = ofKind<DeploymentObject>(objects, 'Deployment');
  for (const d of deployments) {
    const labels = d.spec.template.metadata?.labels ?? {};
    if (!isRole(labelOf(labels, COMPONENT))) continue;
    const constraints = d.spec.template.spec?.topologySpreadConstraints ?? [];
    for (const key of [HOSTNAME_KEY, ZONE_KEY]) {
      const found = constraints.filter((c) => c.topologyKey === key);
      if (found.length !== 1) {
        violations.push(`${id(d)}: ${found.length} topology spread constraints on ${key}`);
        continue;
      }
      const c = found[0]!;
      const expected = key === HOSTNAME_KEY || zoneRequired.includes(d.metadata.name) ? 'DoNotSchedule' : 'ScheduleAnyway';
      const where = `${id(d)} spread on ${key}`;
      if (c.whenUnsatisfiable !== expected) violations.push(`${where}: whenUnsatisfiable ${c.whenUnsatisfiable}, expected ${expected}`);
      if (c.maxSkew !== 1) violations.push(`${where}: maxSkew ${c.maxSkew}, expected 1`);
      if (c.nodeTaintsPolicy !== 'Honor') violations.push(`${where}: nodeTaintsPolicy ${c.nodeTaintsPolicy}, expected Honor`);
      if (!(c.matchLabelKeys ?? []).includes('pod-template-hash')) violations.push(`${where}: matchLabelKeys lacks pod-template-hash`);
      if (!c.labelSelector || !selects(c.labelSelector, labels)) violations.push(`${where}: the selector does not count its own pods`);
      for (const other of deployments) {
        if (other !== d && c.labelSelector && selects(c.labelSelector, other.spec.template.metadata?.labels ?? {})) violations.push(`${where}: the selector also counts the pods of ${id(other)}`);
      }
    }
  }
  return violations;
}

/** The tag of an image reference (`name:tag`, `name:tag@sha256:...`), or undefined. */
function tagOf(image: string): string | undefined {
  const name = image.split('@')[0] ?? '';
  const colon = name.indexOf(':', name.lastIndexOf('/') + 1);
  return colon < 0 ? undefined : name.slice(colon + 1);
}

const DIGEST_REFERENCE = /@sha256:[0-9a-f]{64}$/;

/** Every container's image is pinned: by digest (prod), or by a tag that is not `latest` (dev). */
function imageViolations(objects: K8sObject[], pin: 'digest' | 'tag'): string[] {
  const violations: string[] = [];
  for (const pod of podTemplates(objects)) {
    for (const c of allContainers(pod.spec)) {
      const image = c.image ?? '';
      const where = `${pod.owner} container ${c.name}`;
      const tag = tagOf(image);
      if (tag === 'latest') violations.push(`${where}: ${image} is tagged latest`);
      if (pin === 'digest' && !DIGEST_REFERENCE.test(image)) violations.push(`${where}: ${image} is not referenced by digest`);
      if (pin === 'tag' && tag === undefined && !DIGEST_REFERENCE.test(image)) violations.push(`${where}: ${image} has no tag (that is latest)`);
    }
  }
  return violations;
}

/** A CIDR with a prefix length above 0: an address block, not "anywhere". */
function isNarrowCidr(cidr: string): boolean {
  const [address = '', length, ...rest] = cidr.split('/');
  if (rest.length > 0 || length === undefined || !/^\d{1,3}$/.test(length)) return false;
  const bits = Number(length);
  return (isIPv4(address) && bits >= 1 && bits <= 32) || (isIPv6(address) && bits >= 1 && bits <= 128);
}

/**
 * Egress other than DNS (port 53 only) goes to named peers: pods of the namespace, or an
 * ipBlock whose CIDR is a real address block with a prefix above /0; never to any address.
 */
function egressDestinationViolations(objects: K8sObject[]): string[] {
  const violations: string[] = [];
  for (const np of ofKind<NetworkPolicyObject>(objects, 'NetworkPolicy')) {
    for (const rule of np.spec.egress ?? []) {
      const ports = rule.ports ?? [];
      if (ports.length > 0 && ports.every((p) => p.port === 53)) continue;
      const shown = ports.map((p) => String(p.port ?? 'all')).join(',') || 'every port';
      const peers = rule.to ?? [];
      if (peers.length === 0) violations.push(`${id(np)}: egress on ${shown} to any address`);
      for (const peer of peers) {
        if (peer.ipBlock !== undefined) {
          if (!isNarrowCidr(peer.ipBlock.cidr)) violations.push(`${id(np)}: egress on ${shown} to ${peer.ipBlock.cidr}, not an address block narrower than /0`);
        } else if (peer.namespaceSelector !== undefined || peer.podSelector === undefined) {
          violations.push(`${id(np)}: egress on ${shown} to ${JSON.stringify(peer)}, beyond the namespace's pods`);
        }
      }
    }
  }
  return violations;
}

/** The peers of the first egress rule of each named NetworkPolicy. */
function egressPeers(objects: K8sObject[], name: string): unknown {
  return ofKind<NetworkPolicyObject>(objects, 'NetworkPolicy').find((np) => np.metadata.name === name)?.spec.egress?.[0]?.to;
}

function find<T extends K8sObject>(objects: K8sObject[], kind: string, name: string): T {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} not rendered`);
  return found as T;
}

/** The value after `flag` in a redis-server command line. */
function redisArg(args: readonly string[], flag: string): string | undefined {
  const i = args.lastIndexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

interface ComposeFile {
  services: Record<string, { image?: string; command?: string[] }>;
}

const readCompose = (): ComposeFile => parseYaml(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;

/** docker-compose.yml's image of each service, `${VAR:-default}` read as its default. */
function composeImages(): Map<string, string> {
  return new Map(
    Object.entries(readCompose().services).flatMap(([name, service]) =>
      service.image === undefined ? [] : [[name, service.image.replace(/^\$\{[A-Z_]+:-(.+)\}$/, '$1')] as [string, string]],
    ),
  );
}

const composeRedisCommand = (): string[] => readCompose().services['redis']?.command ?? [];

// ---- prod only ----

function staticAwsKeyViolations(objects: K8sObject[]): string[] {
  return objects.flatMap((o) => {
    const text = JSON.stringify(o);
    return ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'].filter((key) => text.includes(key)).map((key) => `${id(o)}: mentions ${key}`);
  });
}

function irsaViolations(objects: K8sObject[], outputs: Map<string, string>): string[] {
  const violations: string[] = [];
  const accounts = ofKind<K8sObject & { automountServiceAccountToken?: boolean }>(objects, 'ServiceAccount');
  for (const d of ofKind<DeploymentObject>(objects, 'Deployment')) {
    const role = labelOf(d.spec.template.metadata?.labels, COMPONENT);
    const name = d.spec.template.spec?.serviceAccountName;
    const account = accounts.find((a) => a.metadata.name === name && a.metadata.namespace === d.metadata.namespace);
    if (!isRole(role) || !account) {
      violations.push(`${id(d)}: role ${role} runs as ServiceAccount ${name}, which is not rendered`);
      continue;
    }
    const expected = outputs.get(ROLE_ARN_KEY[role]);
    const actual = account.metadata.annotations?.['eks.amazonaws.com/role-arn'];
    if (!expected || actual !== expected) violations.push(`${id(d)}: ServiceAccount ${name} has role ARN ${actual}, expected ${ROLE_ARN_KEY[role]}=${expected}`);
    if (account.automountServiceAccountToken !== false) violations.push(`${id(account)}: automountServiceAccountToken is not false`);
  }
  return violations;
}

// ---- the overlays ----

interface OverlayExpectations {
  overlay: 'dev' | 'prod';
  namespace: string;
  artifactPort: number;
  redisPort: () => number;
  externalIngress: ExternalIngress[];
  /** How images are pinned. */
  images: 'digest' | 'tag';
  /** Deployments whose pods must spread over zones (the others prefer to). */
  zoneRequired: string[];
  /** The peers of NetworkPolicies jacobian-egress-<name>, from the overlay's egress.env. */
  egressPeers: () => Record<string, unknown>;
}

const BASE_EXTERNAL_INGRESS: ExternalIngress[] = [
  { pods: { names: ['mcp-api'] }, port: MCP_PORT, from: 'anywhere' },
  { pods: { components: ['api', 'runner'] }, port: OPS_PORT, from: { namespace: 'monitoring' } },
];

const terraformOutputs = (): Map<string, string> => readDotenv(path.join(OVERLAYS, 'prod', 'terraform-outputs.env'));
const egressCidrs = (overlay: string): Map<string, string> => readDotenv(path.join(OVERLAYS, overlay, 'egress.env'));
const cidrPeer = (cidr: string | undefined): unknown[] => [{ ipBlock: { cidr } }];

const EXPECTATIONS: OverlayExpectations[] = [
  {
    overlay: 'dev',
    namespace: 'jacobian-dev',
    artifactPort: 9000,
    redisPort: () => 6379,
    // KEDA's operator reads the BullMQ list lengths from the in-cluster Redis.
    externalIngress: [...BASE_EXTERNAL_INGRESS, { pods: { names: ['redis'] }, port: 6379, from: { namespace: 'keda' } }],
    images: 'tag',
    zoneRequired: [],
    // Redis and MinIO are pods of the namespace; nothing goes to S3 on 443.
    egressPeers: () => ({
      'jacobian-egress-redis': [{ podSelector: { matchLabels: { [NAME]: 'redis' } } }],
      'jacobian-egress-minio': [{ podSelector: { matchLabels: { [NAME]: 'minio' } } }],
      'jacobian-egress-artifact-store': undefined,
      'jacobian-egress-otlp': cidrPeer(egressCidrs('dev').get('OTLP_CIDR')),
    }),
  },
  {
    overlay: 'prod',
    namespace: 'jacobian',
    artifactPort: 443,
    redisPort: () => Number(terraformOutputs().get('REDIS_PORT')),
    externalIngress: BASE_EXTERNAL_INGRESS,
    images: 'digest',
    zoneRequired: ['mcp-api', 'checker'],
    egressPeers: () => ({
      'jacobian-egress-redis': cidrPeer(egressCidrs('prod').get('REDIS_CIDR')),
      'jacobian-egress-artifact-store': cidrPeer(egressCidrs('prod').get('ARTIFACT_STORE_CIDR')),
      'jacobian-egress-otlp': cidrPeer(egressCidrs('prod').get('OTLP_CIDR')),
    }),
  },
];

describe.each(EXPECTATIONS)('infra/k8s/overlays/$overlay', (expected) => {
  let objects: K8sObject[] = [];
  beforeAll(() => {
    objects = render(expected.overlay);
  });

  it('renders every kind the deployment needs', () => {
    const kinds = new Set(objects.map((o) => o.kind));
    for (const kind of ['Deployment', 'Service', 'ServiceAccount', 'ConfigMap', 'NetworkPolicy', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'ScaledObject', 'TriggerAuthentication']) {
      expect(kinds, kind).toContain(kind);
    }
    const deployments = ofKind(objects, 'Deployment').map((d) => d.metadata.name);
    expect(deployments).toEqual(expect.arrayContaining(['mcp-api', 'runner-light', 'runner-heavy', 'checker']));
    expect(ofKind(objects, 'ServiceAccount').map((s) => s.metadata.name).sort()).toEqual(['jacobian-api', 'jacobian-checker', 'jacobian-runner']);
  });

  it('validates every object against the Kubernetes and KEDA schemas', () => {
    expect(schemaViolations(objects)).toEqual([]);
  });

  it('labels every object and puts it in the namespace', () => {
    expect(labelViolations(objects)).toEqual([]);
    expect(namespaceViolations(objects, expected.namespace)).toEqual([]);
  });

  it('runs every container non-root, read-only, unprivileged, with resources and probes', () => {
    expect(containerViolations(objects)).toEqual([]);
    expect(roleProbeViolations(objects)).toEqual([]);
  });

  it('gives every role more termination grace than its configured drain', () => {
    expect(graceViolations(objects)).toEqual([]);
  });

  it('lets nothing reach the checker', () => {
    expect(checkerIngressViolations(objects)).toEqual([]);
  });

  it('admits traffic from outside the namespace only to the MCP port and, from monitoring, the ops port', () => {
    expect(externalIngressViolations(objects, expected.externalIngress)).toEqual([]);
    const api = podTemplates(objects).find((p) => labelOf(p.labels, NAME) === 'mcp-api');
    expect(api).toBeDefined();
    const open = policiesSelecting(objects, api!, 'Ingress').some((np) =>
      (np.spec.ingress ?? []).some((rule) => (rule.from ?? []).length === 0 && ruleAllowsPort(rule.ports, MCP_PORT, 'TCP', api)),
    );
    expect(open, 'mcp-api accepts MCP clients from anywhere').toBe(true);
  });

  it('denies by default and lets the roles out only to DNS, Redis, the artifact store and OTLP', () => {
    expect(isolationViolations(objects, { redisPort: expected.redisPort(), artifactPort: expected.artifactPort })).toEqual([]);
  });

  it('sends egress other than DNS to the configured CIDRs or pods, never to any address', () => {
    expect(egressDestinationViolations(objects)).toEqual([]);
    const expectedPeers = expected.egressPeers();
    for (const [name, peers] of Object.entries(expectedPeers)) expect(egressPeers(objects, name), name).toEqual(peers);
    // Every CIDR of egress.env is valid and used.
    for (const [key, cidr] of egressCidrs(expected.overlay)) {
      expect(isNarrowCidr(cidr), `${key}=${cidr}`).toBe(true);
      expect(JSON.stringify(Object.values(expectedPeers)), key).toContain(JSON.stringify(cidr));
    }
  });

  it('spreads every role over nodes and zones, counting only its own pods', () => {
    expect(spreadViolations(objects, expected.zoneRequired)).toEqual([]);
  });

  it(`pins every image (${expected.overlay === 'prod' ? 'by digest' : 'by tag, never latest'})`, () => {
    expect(imageViolations(objects, expected.images)).toEqual([]);
  });

  it('gives the checker private key to the checker only, and the public keys to the api', () => {
    expect(keyViolations(objects)).toEqual([]);
  });

  it('takes REDIS_URL from the Secret jacobian-redis', () => {
    const secretName = expected.overlay === 'dev' ? (n: string) => /^jacobian-redis(-[a-z0-9]+)?$/.test(n) : (n: string) => n === 'jacobian-redis';
    expect(redisUrlViolations(objects, secretName)).toEqual([]);
  });

  it('scales the runners with KEDA on the wait list of their pool', () => {
    expect(kedaViolations(objects)).toEqual([]);
  });

  it('scales mcp-api on CPU with a HorizontalPodAutoscaler', () => {
    expect(hpaViolations(objects)).toEqual([]);
  });

  it('has a PodDisruptionBudget for every Deployment', () => {
    expect(pdbViolations(objects)).toEqual([]);
  });

  it('exposes the api and the runners through Services on their named ports only', () => {
    expect(serviceViolations(objects)).toEqual([]);
  });
});

describe('infra/k8s/overlays/dev specifics', () => {
  let objects: K8sObject[] = [];
  beforeAll(() => {
    objects = render('dev');
  });

  it('points Jacobian at the in-cluster Redis and MinIO', () => {
    const config = ofKind<ConfigMapObject>(objects, 'ConfigMap').find((c) => c.metadata.name.startsWith('jacobian-config'));
    expect(config?.data).toMatchObject({ S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' });
    const redis = ofKind<SecretObject>(objects, 'Secret').find((s) => s.metadata.name.startsWith('jacobian-redis'));
    expect(Buffer.from(redis?.data?.['REDIS_URL'] ?? '', 'base64').toString()).toBe('redis://redis:6379');
    for (const name of ['redis', 'minio']) {
      expect(ofKind(objects, 'Deployment').map((d) => d.metadata.name)).toContain(name);
      expect(ofKind(objects, 'Service').map((s) => s.metadata.name)).toContain(name);
    }
    const job = ofKind(objects, 'Job')[0] as (K8sObject & { spec: { template: { spec: IPodSpec } } }) | undefined;
    expect(job?.spec.template.spec.containers[0]?.image).toMatch(/^minio\/mc(:|$)/);
  });

  it('runs the third-party images docker-compose.yml runs, and Jacobian images of the same tag', () => {
    const compose = composeImages();
    const imageOf = (kind: string, name: string): string | undefined =>
      podTemplates(objects).find((p) => p.owner === `${kind}/${name}`)?.spec.containers[0]?.image;
    expect(imageOf('Deployment', 'redis')).toBe(compose.get('redis'));
    expect(imageOf('Deployment', 'minio')).toBe(compose.get('minio'));
    expect(imageOf('Job', 'minio-create-bucket')).toBe(compose.get('minio-setup'));
    for (const [deployment, service] of [['mcp-api', 'api'], ['runner-light', 'runner-light'], ['runner-heavy', 'runner-heavy'], ['checker', 'checker']] as const) {
      const tag = tagOf(imageOf('Deployment', deployment) ?? '');
      expect(tag, deployment).toBeDefined();
      expect(tag, deployment).toBe(tagOf(compose.get(service) ?? ''));
      // One name for each image everywhere: what compose builds is what the cluster runs.
      expect(imageOf('Deployment', deployment), deployment).toBe(compose.get(service));
    }
  });

  it('runs a Redis that never evicts, with maxmemory below its memory limit, as compose does', () => {
    const redis = find<DeploymentObject>(objects, 'Deployment', 'redis').spec.template.spec!.containers[0]!;
    const args = redis.args ?? [];
    expect(redisArg(args, '--maxmemory-policy')).toBe('noeviction');
    const maxmemory = /^(\d+)mb$/.exec(redisArg(args, '--maxmemory') ?? '');
    const limit = /^(\d+)Mi$/.exec(String(redis.resources?.limits?.['memory'] ?? ''));
    expect(maxmemory).not.toBeNull();
    expect(limit).not.toBeNull();
    // Redis's mb is 10^6 bytes, Mi is 2^20: maxmemory stays under the limit with room for Redis's own overhead.
    expect(Number(maxmemory![1]) * 1e6).toBeLessThan(Number(limit![1]) * 2 ** 20 * 0.8);
    expect(redisArg(composeRedisCommand(), '--maxmemory-policy')).toBe('noeviction');
  });

  it('commits no private key', () => {
    expect(JSON.stringify(objects)).not.toMatch(/PRIVATE KEY/);
    for (const s of ofKind<SecretObject>(objects, 'Secret')) {
      const decoded = Object.values(s.data ?? {}).map((v) => Buffer.from(v, 'base64').toString());
      expect(decoded.join('\n')).not.toMatch(/PRIVATE KEY/);
      expect(s.metadata.name).not.toMatch(/^jacobian-checker-key/);
    }
  });
});

describe('infra/k8s/overlays/prod specifics', () => {
  let objects: K8sObject[] = [];
  let outputs = new Map<string, string>();
  beforeAll(() => {
    objects = render('prod');
    outputs = terraformOutputs();
  });

  it('reads exactly the contract keys from terraform-outputs.env', () => {
    expect([...outputs.keys()].sort()).toEqual([...TERRAFORM_OUTPUT_KEYS].sort());
  });

  it('has no static AWS keys anywhere and no Secret of its own', () => {
    expect(staticAwsKeyViolations(objects)).toEqual([]);
    expect(ofKind(objects, 'Secret')).toEqual([]);
  });

  it('gives every ServiceAccount used by a Deployment the IRSA role of its role', () => {
    expect(irsaViolations(objects, outputs)).toEqual([]);
  });

  it('takes the bucket and region from Terraform, and talks to S3 itself', () => {
    const config = ofKind<ConfigMapObject>(objects, 'ConfigMap').filter((c) => c.metadata.name.startsWith('jacobian-config'));
    expect(config).toHaveLength(1);
    expect(config[0]?.data?.['S3_BUCKET']).toBe(outputs.get('S3_BUCKET'));
    expect(config[0]?.data?.['S3_REGION']).toBe(outputs.get('S3_REGION'));
    expect(config[0]?.data).not.toHaveProperty('S3_ENDPOINT');
    expect(ofKind(objects, 'ConfigMap').map((c) => c.metadata.name)).not.toContain('terraform-outputs');
  });

  it('points KEDA at the managed Redis over TLS and narrows Redis egress to its port', () => {
    for (const so of ofKind<ScaledObjectObject>(objects, 'ScaledObject')) {
      for (const t of so.spec.triggers) {
        expect(t.metadata, `${id(so)} ${t.name}`).toMatchObject({ host: outputs.get('REDIS_HOST'), port: outputs.get('REDIS_PORT'), enableTLS: 'true' });
      }
    }
    for (const auth of ofKind<TriggerAuthenticationObject>(objects, 'TriggerAuthentication')) {
      expect((auth.spec?.secretTargetRef ?? []).map((r) => r.parameter)).toEqual(['password']);
    }
    const redisEgress = ofKind<NetworkPolicyObject>(objects, 'NetworkPolicy').find((np) => np.metadata.name === 'jacobian-egress-redis');
    expect(redisEgress?.spec.egress?.[0]?.ports?.[0]?.port).toBe(Number(outputs.get('REDIS_PORT')));
  });

  it('gives the api its auth file and, optionally, the introspection client secret from the Secret jacobian-api-auth', () => {
    const api = podTemplates(objects).find((p) => p.owner === 'Deployment/mcp-api');
    const container = api?.spec.containers.find((c) => c.name === 'mcp-api');
    expect(container?.env?.find((e) => e.name === 'JACOBIAN_AUTH_FILE')?.value).toBe('/etc/jacobian/auth/auth.json');
    expect(container?.env?.find((e) => e.name === 'JACOBIAN_OAUTH_CLIENT_SECRET')?.valueFrom?.secretKeyRef).toEqual({ name: 'jacobian-api-auth', key: 'oauth-client-secret', optional: true });
    // Only the api gets it.
    for (const pod of podTemplates(objects).filter((p) => p.owner !== 'Deployment/mcp-api')) {
      for (const c of allContainers(pod.spec)) expect((c.env ?? []).map((e) => e.name), `${pod.owner} ${c.name}`).not.toContain('JACOBIAN_OAUTH_CLIENT_SECRET');
    }
  });

  it('references the Jacobian images by digest, with the release tag for people', () => {
    const tags = new Set(podTemplates(objects).flatMap((pod) => allContainers(pod.spec).map((c) => tagOf(c.image ?? ''))));
    expect([...tags]).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+$/)]);
  });

  it('names the Jacobian images as docker-compose.yml does', () => {
    const nameOf = (image: string): string => image.split('@')[0]?.replace(/:[^/:]*$/, '') ?? '';
    const compose = composeImages();
    for (const [deployment, service] of [['mcp-api', 'api'], ['runner-light', 'runner-light'], ['runner-heavy', 'runner-heavy'], ['checker', 'checker']] as const) {
      const image = podTemplates(objects).find((p) => p.owner === `Deployment/${deployment}`)?.spec.containers[0]?.image ?? '';
      expect(nameOf(image), deployment).toBe(nameOf(compose.get(service) ?? ''));
    }
  });

  it('requires zone spread for the api and the checker, whose budgets keep minAvailable', () => {
    const zone = (name: string): string | undefined =>
      find<DeploymentObject>(objects, 'Deployment', name).spec.template.spec?.topologySpreadConstraints?.find((c) => c.topologyKey === ZONE_KEY)?.whenUnsatisfiable;
    expect([zone('mcp-api'), zone('checker'), zone('runner-light'), zone('runner-heavy')]).toEqual(['DoNotSchedule', 'DoNotSchedule', 'ScheduleAnyway', 'ScheduleAnyway']);
  });

  it('keeps capacity through node drains with minAvailable where replicas allow', () => {
    const pdbs = new Map(ofKind<PdbObject>(objects, 'PodDisruptionBudget').map((p) => [p.metadata.name, p.spec]));
    for (const name of ['mcp-api', 'runner-light', 'checker']) expect(pdbs.get(name)?.minAvailable, name).toBeGreaterThanOrEqual(1);
  });
});

/** The longest a math.run call waits for its answer: the largest wall-time budget (600 s) plus queueing. */
const MIN_PROXY_TIMEOUT_S = 1800;

interface IngressExample {
  example: string;
  /** What keeps Streamable HTTP working through this proxy: timeouts, no buffering, body size. */
  streamingViolations: (annotations: Record<string, string>) => string[];
  /** Whether the TLS hosts are listed in spec.tls (ingress-nginx), or TLS is the load balancer's (ALB). */
  tlsInSpec: boolean;
}

const INGRESS_EXAMPLES: IngressExample[] = [
  {
    example: 'ingress-nginx',
    tlsInSpec: true,
    streamingViolations: (annotations) => {
      const nginx = (key: string): string | undefined => annotations[`nginx.ingress.kubernetes.io/${key}`];
      const violations: string[] = [];
      for (const key of ['proxy-read-timeout', 'proxy-send-timeout']) {
        if (!(Number(nginx(key)) >= MIN_PROXY_TIMEOUT_S)) violations.push(`${key} ${nginx(key)} is under ${MIN_PROXY_TIMEOUT_S} s`);
      }
      for (const key of ['proxy-buffering', 'proxy-request-buffering']) if (nginx(key) !== 'off') violations.push(`${key} is not off`);
      if (nginx('proxy-http-version') !== '1.1') violations.push('proxy-http-version is not 1.1');
      // At least the server's own 4 MiB request limit, which then answers with its own error.
      if (!/^(4|[5-9]|\d{2,})m$/.test(nginx('proxy-body-size') ?? '')) violations.push(`proxy-body-size ${nginx('proxy-body-size')} is under 4m`);
      return violations;
    },
  },
  {
    example: 'aws-load-balancer',
    tlsInSpec: false,
    streamingViolations: (annotations) => {
      const alb = (key: string): string | undefined => annotations[`alb.ingress.kubernetes.io/${key}`];
      const violations: string[] = [];
      const idle = /(?:^|,)idle_timeout\.timeout_seconds=(\d+)(?:,|$)/.exec(alb('load-balancer-attributes') ?? '')?.[1];
      if (!(Number(idle) >= MIN_PROXY_TIMEOUT_S)) violations.push(`idle_timeout.timeout_seconds ${idle} is under ${MIN_PROXY_TIMEOUT_S} s`);
      if (!/"HTTPS"\s*:\s*443/.test(alb('listen-ports') ?? '')) violations.push('no HTTPS listener');
      if (alb('healthcheck-path') !== '/readyz') violations.push(`health check on ${alb('healthcheck-path')}, not /readyz`);
      return violations;
    },
  },
];

describe.each(INGRESS_EXAMPLES)('infra/k8s/examples/$example', ({ example, streamingViolations, tlsInSpec }) => {
  type IngressObject = K8sObject & IIngress;
  let objects: K8sObject[] = [];
  let ingress: IngressObject;
  beforeAll(() => {
    objects = renderDirectory(path.join(EXAMPLES, example), `examples/${example}`);
    ingress = find<IngressObject>(objects, 'Ingress', 'mcp-api');
  });

  it('is a valid Ingress for the prod namespace', () => {
    expect(schemaViolations(objects)).toEqual([]);
    expect(labelViolations(objects)).toEqual([]);
    expect(namespaceViolations(objects, 'jacobian')).toEqual([]);
  });

  it('routes /mcp and the OAuth metadata to the http port of mcp-api', () => {
    const prod = render('prod');
    const service = find<ServiceObject>(prod, 'Service', 'mcp-api');
    expect(service.spec.ports?.find((p) => p.name === 'http')?.port).toBe(MCP_PORT);
    const paths = (ingress.spec?.rules ?? []).flatMap((r) => r.http?.paths ?? []);
    expect(paths.map((p) => [p.path, p.pathType])).toEqual([
      ['/mcp', 'Exact'],
      ['/.well-known/oauth-protected-resource', 'Prefix'],
    ]);
    for (const p of paths) expect(p.backend.service).toEqual({ name: 'mcp-api', port: { name: 'http' } });
    if (tlsInSpec) expect((ingress.spec?.tls ?? []).flatMap((t) => t.hosts ?? [])).toEqual((ingress.spec?.rules ?? []).map((r) => r.host));
  });

  it('keeps Streamable HTTP responses open and unbuffered, and the Authorization header as it came', () => {
    const annotations = ingress.metadata?.annotations ?? {};
    expect(streamingViolations(annotations)).toEqual([]);
    // Nothing that authenticates at the proxy or rewrites headers (and could drop Authorization).
    expect(Object.keys(annotations).filter((key) => /auth|snippet|headers|actions\./.test(key))).toEqual([]);
  });

  it('its rule rejects a short timeout', () => {
    const annotations = { ...(ingress.metadata?.annotations ?? {}) };
    for (const key of Object.keys(annotations)) annotations[key] = annotations[key]!.replace(/3600/g, '60');
    const violations = streamingViolations(annotations);
    expect(violations.length).toBe(example === 'ingress-nginx' ? 2 : 1);
    for (const v of violations) expect(v).toMatch(/ 60 is under 1800 s$/);
  });
});

describe('the rules reject broken manifests', () => {
  let dev: K8sObject[] = [];
  let prod: K8sObject[] = [];
  beforeAll(() => {
    dev = render('dev');
    prod = render('prod');
  });

  const firstContainer = (d: DeploymentObject): IContainer => d.spec.template.spec!.containers[0]!;

  it('an unknown kind and a schema error', () => {
    const objects = structuredClone(dev);
    objects.push({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'x' } });
    const scaled = find<ScaledObjectObject>(objects, 'ScaledObject', 'runner-light');
    (scaled.spec.triggers[0]!.metadata as Record<string, unknown>)['listLength'] = 10;
    const violations = schemaViolations(objects);
    expect(violations.some((v) => v.includes('StatefulSet/x: no schema'))).toBe(true);
    expect(violations.some((v) => v.startsWith('ScaledObject/runner-light'))).toBe(true);
  });

  it('a writable root filesystem, a missing limit, a missing probe', () => {
    const objects = structuredClone(dev);
    const redis = firstContainer(find<DeploymentObject>(objects, 'Deployment', 'redis'));
    redis.securityContext!.readOnlyRootFilesystem = false;
    delete redis.resources!.limits!['memory'];
    delete firstContainer(find<DeploymentObject>(objects, 'Deployment', 'checker')).readinessProbe;
    const violations = containerViolations(objects);
    expect(violations).toHaveLength(3);
    expect(violations).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Deployment/checker container checker: no readiness probe'),
        expect.stringContaining('Deployment/redis container redis: readOnlyRootFilesystem is not true'),
        expect.stringContaining('Deployment/redis container redis: no memory limits'),
      ]),
    );
  });

  it('a policy that admits ingress to the checker', () => {
    const objects = structuredClone(prod);
    const policy = find<NetworkPolicyObject>(objects, 'NetworkPolicy', 'jacobian-ops-ingress-monitoring');
    policy.spec.podSelector.matchExpressions![0]!.values!.push('checker');
    expect(checkerIngressViolations(objects)).toEqual([expect.stringContaining('admits ingress to Deployment/checker')]);
    expect(externalIngressViolations(objects, BASE_EXTERNAL_INGRESS)).toEqual([expect.stringContaining('from outside the namespace to Deployment/checker')]);
    // The MCP port is open to the monitoring namespace on the runners: only mcp-api may serve it.
    policy.spec.podSelector.matchExpressions![0]!.values = ['runner'];
    policy.spec.ingress![0]!.ports![0]!.port = MCP_PORT;
    expect(externalIngressViolations(objects, BASE_EXTERNAL_INGRESS)).toEqual([
      expect.stringContaining('to Deployment/runner-heavy'),
      expect.stringContaining('to Deployment/runner-light'),
    ]);
  });

  it('a drain longer than the termination grace', () => {
    const objects = structuredClone(prod);
    const config = ofKind<ConfigMapObject>(objects, 'ConfigMap').find((c) => c.metadata.name.startsWith('jacobian-config'))!;
    config.data!['JACOBIAN_DRAIN_GRACE_MS'] = '60000';
    const violations = graceViolations(objects);
    // runner-heavy sets its own, longer drain and grace; the other roles read the ConfigMap.
    expect(violations.map((v) => v.split(':')[0]).sort()).toEqual(['Deployment/checker', 'Deployment/mcp-api', 'Deployment/runner-light']);
  });

  it('the private key in the api, a ScaledObject on the wrong list, an HPA on memory, a missing PDB', () => {
    const objects = structuredClone(prod);
    const api = find<DeploymentObject>(objects, 'Deployment', 'mcp-api');
    api.spec.template.spec!.volumes!.push({ name: 'stolen', secret: { secretName: CHECKER_KEY_SECRET } });
    expect(keyViolations(objects)).toEqual([expect.stringContaining('mcp-api: mounts the checker private key')]);

    const heavy = find<ScaledObjectObject>(objects, 'ScaledObject', 'runner-heavy');
    heavy.spec.triggers[0]!.metadata['listName'] = 'jacobian:jacobian-pool-light:wait';
    expect(kedaViolations(objects)).toEqual(
      expect.arrayContaining([expect.stringContaining('ScaledObject/runner-heavy: no redis trigger on the list jacobian:jacobian-pool-heavy:wait')]),
    );

    const hpa = find<HpaObject>(objects, 'HorizontalPodAutoscaler', 'mcp-api');
    hpa.spec.metrics = [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 80 } } }];
    expect(hpaViolations(objects)).toEqual([expect.stringContaining('does not scale on CPU')]);

    const withoutPdb = objects.filter((o) => !(o.kind === 'PodDisruptionBudget' && o.metadata.name === 'checker'));
    expect(pdbViolations(withoutPdb)).toEqual([expect.stringContaining('Deployment/checker: selected by 0')]);
  });

  it('a role without node spread, a selector that counts another pool, a zone rule too weak for prod', () => {
    const objects = structuredClone(prod);
    const api = find<DeploymentObject>(objects, 'Deployment', 'mcp-api');
    api.spec.template.spec!.topologySpreadConstraints = api.spec.template.spec!.topologySpreadConstraints!.filter((c) => c.topologyKey !== HOSTNAME_KEY);
    const light = find<DeploymentObject>(objects, 'Deployment', 'runner-light');
    light.spec.template.spec!.topologySpreadConstraints![0]!.labelSelector = { matchLabels: { [COMPONENT]: 'runner' } };
    const checker = find<DeploymentObject>(objects, 'Deployment', 'checker');
    checker.spec.template.spec!.topologySpreadConstraints![1]!.whenUnsatisfiable = 'ScheduleAnyway';
    delete checker.spec.template.spec!.topologySpreadConstraints![1]!.nodeTaintsPolicy;
    expect(spreadViolations(objects, ['mcp-api', 'checker'])).toEqual([
      'Deployment/checker spread on topology.kubernetes.io/zone: whenUnsatisfiable ScheduleAnyway, expected DoNotSchedule',
      'Deployment/checker spread on topology.kubernetes.io/zone: nodeTaintsPolicy undefined, expected Honor',
      'Deployment/mcp-api: 0 topology spread constraints on kubernetes.io/hostname',
      'Deployment/runner-light spread on kubernetes.io/hostname: the selector also counts the pods of Deployment/runner-heavy',
    ]);
  });

  it('an image by tag in prod, latest and an untagged image in dev', () => {
    const objects = structuredClone(prod);
    firstContainer(find<DeploymentObject>(objects, 'Deployment', 'checker')).image = 'jacobian/checker:0.1.0';
    expect(imageViolations(objects, 'digest')).toEqual(['Deployment/checker container checker: jacobian/checker:0.1.0 is not referenced by digest']);
    const devObjects = structuredClone(dev);
    firstContainer(find<DeploymentObject>(devObjects, 'Deployment', 'redis')).image = 'redis:latest';
    firstContainer(find<DeploymentObject>(devObjects, 'Deployment', 'minio')).image = 'minio/minio';
    expect(imageViolations(devObjects, 'tag')).toEqual([
      'Deployment/minio container minio: minio/minio has no tag (that is latest)',
      'Deployment/redis container redis: redis:latest is tagged latest',
    ]);
  });

  it('egress to any address, to 0.0.0.0/0, to an unreplaced CIDR, to another namespace', () => {
    const objects = structuredClone(prod);
    const policy = (name: string): NetworkPolicyObject => find<NetworkPolicyObject>(objects, 'NetworkPolicy', name);
    delete policy('jacobian-egress-redis').spec.egress![0]!.to;
    policy('jacobian-egress-artifact-store').spec.egress![0]!.to = [{ ipBlock: { cidr: '0.0.0.0/0' } }];
    policy('jacobian-egress-otlp').spec.egress![0]!.to = [{ ipBlock: { cidr: 'OTLP_CIDR' } }, { namespaceSelector: {} }];
    expect(egressDestinationViolations(objects)).toEqual([
      'NetworkPolicy/jacobian-egress-artifact-store: egress on 443 to 0.0.0.0/0, not an address block narrower than /0',
      'NetworkPolicy/jacobian-egress-otlp: egress on 4318 to OTLP_CIDR, not an address block narrower than /0',
      'NetworkPolicy/jacobian-egress-otlp: egress on 4318 to {"namespaceSelector":{}}, beyond the namespace\'s pods',
      'NetworkPolicy/jacobian-egress-redis: egress on 6379 to any address',
    ]);
    expect(['10.0.0.0/8', '2001:db8::/32'].map(isNarrowCidr)).toEqual([true, true]);
    expect(['10.0.0.0/0', '::/0', '10.0.0.0', '10.0.0.0/33', 'example.com/16'].map(isNarrowCidr)).toEqual([false, false, false, false, false]);
  });

  it('static AWS keys and a wrong IRSA role in prod', () => {
    const objects = structuredClone(prod);
    firstContainer(find<DeploymentObject>(objects, 'Deployment', 'runner-light')).env!.push({ name: 'AWS_ACCESS_KEY_ID', value: 'x' });
    expect(staticAwsKeyViolations(objects)).toEqual([expect.stringContaining('runner-light: mentions AWS_ACCESS_KEY_ID')]);
    find<DeploymentObject>(objects, 'Deployment', 'checker').spec.template.spec!.serviceAccountName = 'jacobian-runner';
    expect(irsaViolations(objects, terraformOutputs())).toEqual([expect.stringContaining('Deployment/checker: ServiceAccount jacobian-runner')]);
  });
});

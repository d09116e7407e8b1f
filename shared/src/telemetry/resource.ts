/**
 * The OpenTelemetry resource of a process: who emits its spans and metrics. Replicas of one
 * role share `service.name` and differ by `service.instance.id`, so their series stay apart
 * wherever they are aggregated (a collector's Prometheus exporter turns the pair into `job` and
 * `instance`).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { parseKeyPairsIntoRecord } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes, type Resource } from '@opentelemetry/resources';

/**
 * The environment variables the resource is read from. The `K8S_*` ones are set from the
 * Kubernetes downward API by the deployments (`fieldRef: metadata.name`, `metadata.namespace`,
 * `metadata.uid`, `spec.nodeName`).
 */
export interface ResourceEnvironment {
  OTEL_SERVICE_NAME?: string | undefined;
  OTEL_RESOURCE_ATTRIBUTES?: string | undefined;
  K8S_POD_NAME?: string | undefined;
  K8S_POD_UID?: string | undefined;
  K8S_NAMESPACE_NAME?: string | undefined;
  K8S_NODE_NAME?: string | undefined;
}

export interface ProcessResourceOptions {
  /** `jacobian-<role>`, unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names the service. */
  serviceName: string;
  serviceVersion: string;
  env: ResourceEnvironment;
  /** This machine's host name (default `os.hostname()`). */
  hostName?: string;
  /** A fresh instance ID when neither the environment nor a pod name gives one (default a random UUID). */
  newInstanceId?: () => string;
}

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The attributes of this process's resource, later ones winning: what the process knows
 * (service, version, host, pid, k8s pod, namespace and node), then OTEL_RESOURCE_ATTRIBUTES,
 * then OTEL_SERVICE_NAME (the OpenTelemetry SDK's precedence). `service.instance.id` is the
 * one OTEL_RESOURCE_ATTRIBUTES sets, else the pod name, else a generated UUID.
 */
export function processResourceAttributes(options: ProcessResourceOptions): Record<string, string | number> {
  const { env } = options;
  const pod = present(env.K8S_POD_NAME);
  const known: Record<string, string | number> = {
    'service.name': options.serviceName,
    'service.version': options.serviceVersion,
    'host.name': options.hostName ?? hostname(),
    'process.pid': process.pid,
    'process.runtime.name': 'nodejs',
    'process.runtime.version': process.versions.node,
  };
  const k8s: [string, string | undefined][] = [
    ['k8s.pod.name', pod],
    ['k8s.pod.uid', present(env.K8S_POD_UID)],
    ['k8s.namespace.name', present(env.K8S_NAMESPACE_NAME)],
    ['k8s.node.name', present(env.K8S_NODE_NAME)],
  ];
  for (const [key, value] of k8s) if (value !== undefined) known[key] = value;
  const configured = parseKeyPairsIntoRecord(env.OTEL_RESOURCE_ATTRIBUTES);
  const attributes: Record<string, string | number> = { ...known, ...configured };
  attributes['service.instance.id'] = present(configured['service.instance.id']) ?? pod ?? (options.newInstanceId ?? randomUUID)();
  const serviceName = present(env.OTEL_SERVICE_NAME);
  if (serviceName !== undefined) attributes['service.name'] = serviceName;
  return attributes;
}

/** The resource of this process: the SDK's defaults (telemetry.sdk.*) under {@link processResourceAttributes}. */
export function processResource(options: ProcessResourceOptions): Resource {
  return defaultResource().merge(resourceFromAttributes(processResourceAttributes(options)));
}

import { SpanKind, type Span } from '@opentelemetry/api';

import type { PreparedArtifact, StoredArtifact } from '../artifacts/store.js';
import { activeMetrics, activeTracer, inSpan, SpanAttribute } from './instrumentation.js';

export type ArtifactStoreKind = 's3' | 'local';

/**
 * An artifact put, observed: a client span when tracing is on (`put` gets it, to record the
 * byte count), nothing when it is off.
 */
export function observePut(store: ArtifactStoreKind, put: (span: Span | undefined) => Promise<StoredArtifact>): Promise<StoredArtifact> {
  const tracer = activeTracer();
  if (tracer === undefined) return put(undefined);
  return inSpan(tracer, 'artifact.put', { kind: SpanKind.CLIENT, attributes: { [SpanAttribute.artifactStore]: store } }, put);
}

/** Count a successful put's bytes (canonical payload and manifest): the metric, and the put's span. */
export function countPut(store: ArtifactStoreKind, prepared: PreparedArtifact, span: Span | undefined): void {
  const bytes = prepared.payloadBytes.byteLength + prepared.manifestBytes.byteLength;
  activeMetrics()?.artifactBytesWritten(store, bytes);
  span?.setAttribute(SpanAttribute.artifactBytes, bytes);
}

import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';

import { installTelemetry } from '../telemetry/instrumentation.js';

/** A tracer provider that keeps finished spans in memory, registered and installed for one test. */
export interface MemoryTracing {
  readonly tracer: Tracer;
  readonly exporter: InMemorySpanExporter;
  /** Uninstall, shut the provider down and unregister the global context, propagator and tracer. */
  close(): Promise<void>;
}

/**
 * Register a tracer provider exporting to memory (with its context manager and propagator) and
 * install its tracer for the instrumented code; `close()` in a finally or afterEach.
 */
export function memoryTracing(): MemoryTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  const tracer = provider.getTracer('test');
  const uninstall = installTelemetry({ tracer });
  return {
    tracer,
    exporter,
    async close() {
      uninstall();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

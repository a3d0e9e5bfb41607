/**
 * The OpenTelemetry SDK behind a TelemetrySink: log records (`codex.*` events) through a batch
 * processor and counters through a periodic reader, exported over OTLP/HTTP (protobuf or JSON)
 * or OTLP/gRPC. Loaded only when `[otel] exporter` names one, so runs without an exporter load
 * none of it. A collector that is down or slow never holds a turn up: exports run in the
 * background, batches that fail are counted and reported once, and the final flush at
 * shutdown waits at most `FLUSH_BUDGET_MS`.
 */
import type { TelemetrySink, TelemetryValue } from "./recorder.js";
import type { OtelExporter, OtelSettings } from "./settings.js";

/** The reference's resource name for these records. */
const SERVICE_NAME = "codex-cli";
/** How long a shutdown waits for the last batches before giving up on a slow collector. */
export const FLUSH_BUDGET_MS = 2000;
/**
 * Every export, retries included, ends within this. The shutdown cannot cancel an export in
 * flight, and its requests and retry timers keep the process alive until they end: a longer
 * timeout would hold the exit past the flush budget (5 s for a collector that is down).
 */
const EXPORT_TIMEOUT_MS = FLUSH_BUDGET_MS;
/** Bounds the records held in memory while a collector is slow; beyond it the oldest wait is cut. */
const MAX_QUEUE = 2048;

export interface OtelHandle {
  sink: TelemetrySink;
  /** Flushes and stops (bounded by FLUSH_BUDGET_MS). */
  shutdown(): Promise<void>;
}

export async function startOtel(
  settings: OtelSettings,
  exporter: Exclude<OtelExporter, { kind: "none" }>,
  options: { version: string; onWarning: (message: string) => void },
): Promise<OtelHandle> {
  const [logsSdk, metricsSdk, { resourceFromAttributes }] = await Promise.all([
    import("@opentelemetry/sdk-logs"),
    import("@opentelemetry/sdk-metrics"),
    import("@opentelemetry/resources"),
  ]);
  const resource = resourceFromAttributes({ "service.name": SERVICE_NAME, "service.version": options.version, env: settings.environment });

  // Once is enough: a collector that is down would otherwise warn on every batch.
  let warned = false;
  const warnOnce = (message: string): void => {
    if (warned) return;
    warned = true;
    options.onWarning(`OpenTelemetry: ${message}; further failures are not reported`);
  };
  const reportDrop = (count: number): void => warnOnce(`the collector at ${exporter.endpoint} did not accept ${count} record(s)`);

  const logExporter = await logExporterFor(exporter);
  const counting: import("@opentelemetry/sdk-logs").LogRecordExporter = {
    export: (records, done) =>
      logExporter.export(records, (result) => {
        if (result.code !== 0) reportDrop(records.length);
        done(result);
      }),
    shutdown: () => logExporter.shutdown(),
    forceFlush: () => logExporter.forceFlush(),
  };
  const loggerProvider = new logsSdk.LoggerProvider({
    resource,
    processors: [
      new logsSdk.BatchLogRecordProcessor({
        exporter: counting,
        maxQueueSize: MAX_QUEUE,
        maxExportBatchSize: 512,
        scheduledDelayMillis: 1000,
        exportTimeoutMillis: EXPORT_TIMEOUT_MS,
      }),
    ],
  });
  const meterProvider = new metricsSdk.MeterProvider({
    resource,
    readers: [
      new metricsSdk.PeriodicExportingMetricReader({
        exporter: await metricExporterFor(exporter),
        exportIntervalMillis: 60_000,
        exportTimeoutMillis: EXPORT_TIMEOUT_MS,
      }),
    ],
  });
  const logger = loggerProvider.getLogger("codex_otel", options.version);
  const meter = meterProvider.getMeter("codex_otel", options.version);
  const counters = new Map<string, ReturnType<typeof meter.createCounter>>();

  const sink: TelemetrySink = {
    emit(name: string, attributes: Record<string, TelemetryValue>): void {
      logger.emit({ eventName: name, body: name, attributes, timestamp: Date.now() });
    },
    count(name: string, attributes: Record<string, TelemetryValue>): void {
      let counter = counters.get(name);
      if (!counter) {
        counter = meter.createCounter(name);
        counters.set(name, counter);
      }
      counter.add(1, attributes);
    },
  };
  return {
    sink,
    async shutdown(): Promise<void> {
      const flushed = Promise.allSettled([loggerProvider.shutdown(), meterProvider.shutdown()]);
      let timer: NodeJS.Timeout | undefined;
      const budget = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, FLUSH_BUDGET_MS);
        timer.unref();
      });
      const finished = await Promise.race([flushed.then(() => true), budget.then(() => false)]);
      clearTimeout(timer);
      if (!finished) warnOnce(`the collector at ${exporter.endpoint} did not accept the last records within ${FLUSH_BUDGET_MS / 1000} s; they were dropped`);
    },
  };
}

async function logExporterFor(exporter: Exclude<OtelExporter, { kind: "none" }>): Promise<import("@opentelemetry/sdk-logs").LogRecordExporter> {
  const common = { url: exporter.endpoint, timeoutMillis: EXPORT_TIMEOUT_MS };
  if (exporter.kind === "otlp-grpc") {
    const { OTLPLogExporter } = await import("@opentelemetry/exporter-logs-otlp-grpc");
    return new OTLPLogExporter({ ...common, metadata: await grpcMetadata(exporter.headers) });
  }
  if (exporter.protocol === "json") {
    const { OTLPLogExporter } = await import("@opentelemetry/exporter-logs-otlp-http");
    return new OTLPLogExporter({ ...common, headers: exporter.headers });
  }
  const { OTLPLogExporter } = await import("@opentelemetry/exporter-logs-otlp-proto");
  return new OTLPLogExporter({ ...common, headers: exporter.headers });
}

async function metricExporterFor(exporter: Exclude<OtelExporter, { kind: "none" }>): Promise<import("@opentelemetry/sdk-metrics").PushMetricExporter> {
  const common = { url: metricsEndpoint(exporter), timeoutMillis: EXPORT_TIMEOUT_MS };
  if (exporter.kind === "otlp-grpc") {
    const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-grpc");
    return new OTLPMetricExporter({ ...common, metadata: await grpcMetadata(exporter.headers) });
  }
  if (exporter.protocol === "json") {
    const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-http");
    return new OTLPMetricExporter({ ...common, headers: exporter.headers });
  }
  const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-proto");
  return new OTLPMetricExporter({ ...common, headers: exporter.headers });
}

/** OTLP/HTTP puts logs and metrics on sibling paths; a `/v1/logs` endpoint implies `/v1/metrics`. */
export function metricsEndpoint(exporter: Exclude<OtelExporter, { kind: "none" }>): string {
  if (exporter.kind === "otlp-grpc") return exporter.endpoint;
  return exporter.endpoint.replace(/\/v1\/logs\/?$/, "/v1/metrics");
}

async function grpcMetadata(headers: Record<string, string>): Promise<import("@grpc/grpc-js").Metadata> {
  const { Metadata } = await import("@grpc/grpc-js");
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
  return metadata;
}

// The parts of the trace SDK that OpenTelemetry's own variables choose, read as @opentelemetry/sdk-node reads
// them (its create-from-env), without that package: it installs every exporter of every signal, gRPC's among
// them (issue 62: 17 MB of the image for a service that exports traces over OTLP/HTTP only).
import { diag } from "@opentelemetry/api";
import { getNumberFromEnv, getStringFromEnv } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import {
  defaultResource,
  detectResources,
  hostDetector,
  osDetector,
  processDetector,
  type Resource,
  resourceAttributesEnvDetector,
  resourceFromAttributes,
  serviceInstanceIdDetector,
} from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace";

/** The process's resource: host, OS, process, OTEL_RESOURCE_ATTRIBUTES, then the service's name and release. */
export function resourceFromEnv(serviceName: string, serviceVersion: string): Resource {
  const detected = detectResources({
    detectors: [serviceInstanceIdDetector, hostDetector, osDetector, processDetector],
  });
  const operators = detectResources({ detectors: [resourceAttributesEnvDetector] });
  return defaultResource()
    .merge(detected)
    .merge(operators)
    .merge(resourceFromAttributes({ "service.name": serviceName, "service.version": serviceVersion }));
}

function samplerRatio(): number {
  const ratio = getNumberFromEnv("OTEL_TRACES_SAMPLER_ARG");
  if (ratio === undefined || ratio < 0 || ratio > 1) return 1;
  return ratio;
}

/** OTEL_TRACES_SAMPLER and its argument; the specification's default, parentbased_always_on, without them. */
export function samplerFromEnv(): Sampler {
  switch (getStringFromEnv("OTEL_TRACES_SAMPLER")) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "traceidratio":
      return new TraceIdRatioBasedSampler(samplerRatio());
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(samplerRatio()) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** OTLP over HTTP as OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL says; each exporter reads its endpoint and headers. */
function otlpExporter(): SpanExporter {
  const protocol =
    (
      getStringFromEnv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? getStringFromEnv("OTEL_EXPORTER_OTLP_PROTOCOL")
    )?.trim() || "http/protobuf";
  if (protocol === "http/json") return new JsonTraceExporter();
  if (protocol !== "http/protobuf")
    diag.warn(
      `OTLP traces protocol "${protocol}" is not supported here (http/protobuf or http/json): using http/protobuf`,
    );
  return new ProtobufTraceExporter();
}

/** A span processor for each exporter OTEL_TRACES_EXPORTER names (otlp unless told; none for none). */
export function spanProcessorsFromEnv(): SpanProcessor[] {
  const names = new Set(
    (getStringFromEnv("OTEL_TRACES_EXPORTER") ?? "otlp")
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
  );
  if (names.has("none")) return [];
  if (names.size === 0) names.add("otlp");
  const processors: SpanProcessor[] = [];
  for (const name of names) {
    if (name === "console") processors.push(new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() }));
    else if (name === "otlp")
      processors.push(
        new BatchSpanProcessor({
          exporter: otlpExporter(),
          maxQueueSize: getNumberFromEnv("OTEL_BSP_MAX_QUEUE_SIZE"),
          scheduledDelayMillis: getNumberFromEnv("OTEL_BSP_SCHEDULE_DELAY"),
          exportTimeoutMillis: getNumberFromEnv("OTEL_BSP_EXPORT_TIMEOUT"),
          maxExportBatchSize: getNumberFromEnv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE"),
        }),
      );
    else diag.warn(`OTEL_TRACES_EXPORTER names "${name}": supported are otlp, console and none`);
  }
  return processors;
}

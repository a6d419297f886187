// OpenTelemetry traces, loaded only when the environment asks for them (hooks.ts's tracingWanted; server.ts
// imports this file then and only then). The SDK reads OpenTelemetry's own variables: OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf unless told), OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER and the rest.
// What is traced: each HTTP request the service answers (a span named by its route, its W3C traceparent
// honoured, so a proxy's or a client's trace continues here) and each database statement sent inside one,
// on PostgreSQL and on the embedded PGlite alike (a span around the database driver, statement-listeners.ts).
// Log lines written while a traced request runs carry its trace_id and span_id.
import { createRequire } from "node:module";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { redactUrl } from "../http/logging.ts";
import { serverVersion } from "../release/version.ts";
import { type StatementTracer, useRequestSpanNamer, useStatementTracer, useTraceLogFields } from "./hooks.ts";

export interface Tracing {
  /** Sends what is still buffered and stops. */
  shutdown(): Promise<void>;
}

/** Probes answered every few seconds: tracing them would bury the requests people make. */
const untracedPaths = new Set(["/health", "/ready", "/metrics"]);

/** The query of a request's URL with only the values a log line may keep (logging.ts); undefined without one. */
function redactedQuery(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const redacted = redactUrl(url);
  const question = redacted.indexOf("?");
  return question < 0 ? undefined : redacted.slice(question + 1);
}

const tracer = () => trace.getTracer("kpi-id", serverVersion);

/** A span for each statement sent while a trace is under way; outside one (clean-up, the cache feed) none. */
const traceStatementSpan: StatementTracer = (text, run) => {
  if (trace.getSpan(context.active()) === undefined) return run();
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "SQL";
  return tracer().startActiveSpan(
    operation,
    { kind: SpanKind.CLIENT, attributes: { "db.system.name": "postgresql", "db.query.text": text } },
    async (span) => {
      try {
        return await run();
      } catch (error) {
        // The SQLSTATE or the error's class, not its message: PostgreSQL quotes the value it refused there.
        const code = (error as { code?: unknown }).code;
        const name = error instanceof Error ? error.name : "Error";
        span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === "string" ? code : name });
        throw error;
      } finally {
        span.end();
      }
    },
  );
};

/** The request's span named by its route (GET /api/apps/:id), as tracing back ends group them. */
function nameRequestSpan(method: string, route: string): void {
  const span = trace.getSpan(context.active());
  span?.setAttribute("http.route", route).updateName(`${method} ${route}`);
}

/** The active span's ids for a log line; none outside a trace. */
function activeTraceFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export function startTracing(): Tracing {
  // The service exports its metrics on /metrics and its logs to stdout; the SDK would otherwise send both over
  // OTLP too (its default), so only an operator's explicit choice turns them on.
  process.env.OTEL_METRICS_EXPORTER ??= "none";
  process.env.OTEL_LOGS_EXPORTER ??= "none";
  // The release on every span's resource, after whatever the operator names there.
  const resource = process.env.OTEL_RESOURCE_ATTRIBUTES;
  process.env.OTEL_RESOURCE_ATTRIBUTES = `${resource ? `${resource},` : ""}service.version=${serverVersion}`;
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? "kpi-id",
    autoDetectResources: true,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => untracedPaths.has((request.url ?? "").split("?")[0] ?? ""),
        // Tokens, tickets and codes travel in query strings: a span keeps only the values a log line may keep
        // (the instrumentation's own list redacts a few cloud storage signatures and nothing of ours).
        startIncomingSpanHook: (request) => {
          const query = redactedQuery(request.url);
          return query === undefined ? {} : { "url.query": query };
        },
        // The outgoing calls (Diia, BankID, Google) go through fetch, which this instrumentation does not see.
        disableOutgoingRequestInstrumentation: true,
      }),
    ],
  });
  sdk.start();
  // The instrumentation patches node:http when it is next required; the service imports it as an ES module, which
  // shares the module object (and its Server's prototype) with require's, so one require here is enough.
  createRequire(import.meta.url)("node:http");
  useStatementTracer(traceStatementSpan);
  useTraceLogFields(activeTraceFields);
  useRequestSpanNamer(nameRequestSpan);
  return {
    shutdown: async () => {
      useStatementTracer(undefined);
      useTraceLogFields(undefined);
      useRequestSpanNamer(undefined);
      await sdk.shutdown();
    },
  };
}

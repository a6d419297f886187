// OpenTelemetry traces, loaded only when the environment asks for them (hooks.ts's tracingWanted; server.ts
// imports this file then and only then). The trace SDK set up by hand, as OpenTelemetry's docs describe for a
// manual setup, reading OpenTelemetry's own variables (from-env.ts): OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf unless told), OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER and the rest.
// What is traced: each HTTP request the service answers (a span named by its route, its W3C traceparent
// honoured, so a proxy's or a client's trace continues here) and each database statement sent inside one,
// on PostgreSQL and on the embedded PGlite alike (a span around the database driver, statement-listeners.ts).
// Log lines written while a traced request runs carry its trace_id and span_id.
import { createRequire } from "node:module";
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { TracerProvider } from "@opentelemetry/sdk-trace";
import { redactUrl } from "../logging/redact-url.ts";
import { serverVersion } from "../release/version.ts";
import { resourceFromEnv, samplerFromEnv, spanProcessorsFromEnv } from "./from-env.ts";
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
  const provider = new TracerProvider({
    resource: resourceFromEnv(process.env.OTEL_SERVICE_NAME ?? "kpi-id", serverVersion),
    sampler: samplerFromEnv(),
    spanProcessors: spanProcessorsFromEnv(),
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  // W3C traceparent and baggage, the specification's default propagators (OTEL_PROPAGATORS unset).
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(provider);
  const unregisterInstrumentations = registerInstrumentations({
    tracerProvider: provider,
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
      unregisterInstrumentations();
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

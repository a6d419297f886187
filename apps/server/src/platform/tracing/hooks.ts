// What the rest of the service asks of tracing, without loading it: OpenTelemetry is off by default, and an
// instance without it must not load the SDK (its idle memory and start-up time stay as they were). start.ts,
// imported only when tracing is wanted, fills these in; until then each costs one check of an undefined.

/** Runs `run` as the statement `text` (a span when tracing is on, and a trace is under way). */
export type StatementTracer = <T>(text: string, run: () => Promise<T>) => Promise<T>;

let statementTracer: StatementTracer | undefined;
let logFields: (() => Record<string, string>) | undefined;

export function useStatementTracer(tracer: StatementTracer | undefined): void {
  statementTracer = tracer;
}

/** `run`, inside a statement span when tracing is on. */
export function traceStatement<T>(text: string, run: () => Promise<T>): Promise<T> {
  return statementTracer ? statementTracer(text, run) : run();
}

export function useTraceLogFields(fields: (() => Record<string, string>) | undefined): void {
  logFields = fields;
}

/** The fields each log line gets (trace_id, span_id of the request's trace), or undefined when tracing is off. */
export function traceLogFields(): (() => Record<string, string>) | undefined {
  return logFields;
}

let requestSpanNamer: ((method: string, route: string) => void) | undefined;

export function useRequestSpanNamer(namer: ((method: string, route: string) => void) | undefined): void {
  requestSpanNamer = namer;
}

/** What names a request's span by its route, or undefined when tracing is off. */
export function requestSpanNaming(): ((method: string, route: string) => void) | undefined {
  return requestSpanNamer;
}

/**
 * Whether OpenTelemetry's environment asks for traces: an OTLP endpoint, or an exporter named in
 * OTEL_TRACES_EXPORTER; never when OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 */
export function tracingWanted(environment: Record<string, string | undefined>): boolean {
  const text = (name: string) => environment[name]?.trim() ?? "";
  if (text("OTEL_SDK_DISABLED").toLowerCase() === "true") return false;
  const exporters = text("OTEL_TRACES_EXPORTER");
  if (exporters.split(",").some((each) => each.trim() === "none")) return false;
  return (
    exporters !== "" || text("OTEL_EXPORTER_OTLP_ENDPOINT") !== "" || text("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") !== ""
  );
}

// A tiny OTLP/HTTP receiver on loopback, standing in for an OpenTelemetry collector: it keeps every span that an
// exporter POSTs to /v1/traces as OTLP/JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), and the raw bodies and
// content types of every other export (http/protobuf, the SDK's default).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  /** service.name and service.version of the resource that sent it. */
  resource: Record<string, string | number | boolean | undefined>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpJsonTraces {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, "attributes" | "resource"> & { attributes?: OtlpAttribute[] })[];
    }[];
  }[];
}

const plainValue = (value: OtlpValue) =>
  value.stringValue ??
  (value.intValue === undefined ? undefined : Number(value.intValue)) ??
  value.boolValue ??
  value.doubleValue;

const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map((attribute) => [attribute.key, plainValue(attribute.value)]));

export interface OtlpReceiver {
  endpoint: string;
  spans: ReceivedSpan[];
  /** Bodies that were not OTLP/JSON, with their content type. */
  binaryExports: { contentType: string; body: Buffer }[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const binaryExports: OtlpReceiver["binaryExports"] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const contentType = request.headers["content-type"] ?? "";
      if (request.url === "/v1/traces" && contentType.startsWith("application/json")) {
        const traces = JSON.parse(body.toString("utf8")) as OtlpJsonTraces;
        for (const resourceSpans of traces.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({ ...span, attributes: attributesOf(span.attributes), resource });
        }
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
        return;
      }
      binaryExports.push({ contentType, body });
      // An empty ExportTraceServiceResponse is an empty protobuf message.
      response.writeHead(200, { "content-type": contentType || "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    binaryExports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../../src/model/users/service.ts";
import { createPasswordHasher } from "../../../src/platform/crypto/password.ts";
import { openDatabase } from "../../../src/platform/db/index.ts";
import { tracingWanted } from "../../../src/platform/tracing/hooks.ts";
import { testConfig } from "../../support/app.ts";
import { migratedDataDirOnDisk } from "../../support/databases.ts";
import { freePort } from "../../support/listening.ts";
import { type OtlpReceiver, startOtlpReceiver } from "../../support/otlp-receiver.ts";

// OpenTelemetry traces, off unless OpenTelemetry's own environment asks for them: the service started as an
// operator starts it (bin/kpi-id-server.js in its own process: the bundle when `npm run build` made a current one,
// as in `npm test`, else the source) with an OTLP endpoint, a password sign-in sent with a
// W3C traceparent as a traced proxy or client sends it, and what reaches a stand-in collector on loopback.

const serverEntry = fileURLToPath(new URL("../../../bin/kpi-id-server.js", import.meta.url));
const person = { username: "traced", password: "a password for the traced sign-in" };

/**
 * A migrated embedded database in `dataDir` holding the one person who signs in: the demo campus would do too, but
 * seeding it hashes every demo person's password at the first start (issue 75: one demo-data start per run, in
 * surfaces/seed/demo-data.test.ts).
 */
async function dataDirWithPerson(dataDir: string): Promise<void> {
  await migratedDataDirOnDisk(dataDir);
  const database = await openDatabase({ dataDir });
  try {
    const hasher = createPasswordHasher(testConfig().argon2);
    await createUser(database.db, hasher, { username: person.username, fullName: "Трасована Особа" }, person.password);
  } finally {
    await database.close();
  }
}

interface LogLine {
  msg?: string;
  reqId?: string;
  req?: { url?: string };
  trace_id?: string;
  span_id?: string;
}

/** The service in a child process with `env`, its JSON log lines collected. */
async function startService(env: Record<string, string>) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), "kpi-id-tracing-"));
  await dataDirWithPerson(dataDir);
  const lines: LogLine[] = [];
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [serverEntry], {
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // The batch goes out a tenth of a second after the spans end, not five seconds.
      OTEL_BSP_SCHEDULE_DELAY: "100",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let partial = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    const text = partial + chunk.toString();
    const complete = text.split("\n");
    partial = complete.pop() ?? "";
    for (const line of complete) if (line.startsWith("{")) lines.push(JSON.parse(line) as LogLine);
  });
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Ready once /health answers (a minute at most, on a busy machine).
  for (const started = Date.now(); ; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (child.exitCode !== null) throw new Error(`the service exited: ${output}`);
    if (Date.now() - started > 60_000) {
      child.kill("SIGKILL");
      throw new Error(`the service did not answer: ${output}`);
    }
    const status = await fetch(`${origin}/health`).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) break;
  }
  return {
    origin,
    lines,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A password sign-in's two requests (credentials, then the grant for the cookie), both under `traceId`. */
async function signIn(origin: string, traceId: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin,
        traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01`,
      },
      body: JSON.stringify(body),
    });
  const auth = await post("/api/auth", { username: person.username, password: person.password });
  expect(auth.status).toBe(200);
  const { sessionId } = (await auth.json()) as { sessionId: string };
  const grant = await post("/api/auth/internal", { sessionId });
  expect(grant.status).toBe(200);
  return grant.headers.get("set-cookie") ?? "";
}

describe("traces over OTLP/JSON", () => {
  let receiver: OtlpReceiver;
  let service: Awaited<ReturnType<typeof startService>>;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    service = await startService({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    });
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
  });

  it("follows a password sign-in across its requests and statements under one trace id, named in its log lines", async () => {
    const traceId = randomBytes(16).toString("hex");
    expect(await signIn(service.origin, traceId)).toMatch(/session/i);

    const ofTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
    await expect
      .poll(() => ofTrace().map((span) => span.name), { timeout: 20_000 })
      .toEqual(expect.arrayContaining(["POST /api/auth", "POST /api/auth/internal"]));
    const spans = ofTrace();
    const requests = spans.filter((span) => span.name.startsWith("POST /api/auth"));
    expect(requests.map((span) => span.attributes["http.route"]).sort()).toEqual(["/api/auth", "/api/auth/internal"]);
    expect(requests.every((span) => span.attributes["http.response.status_code"] === 200)).toBe(true);
    expect(spans[0]?.resource["service.name"]).toBe("kpi-id");

    // Each request's statements are spans under it: reading the person and the grant, writing the session.
    const statements = spans.filter((span) => span.attributes["db.query.text"] !== undefined);
    const under = (request: (typeof spans)[number]) => {
      const descendants = new Set([request.spanId]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const span of spans)
          if (span.parentSpanId && descendants.has(span.parentSpanId) && !descendants.has(span.spanId)) {
            descendants.add(span.spanId);
            grew = true;
          }
      }
      return statements.filter((statement) => descendants.has(statement.spanId));
    };
    for (const request of requests) {
      const own = under(request);
      expect(own.length, `statements under ${request.name}`).toBeGreaterThan(0);
      expect(own.every((statement) => statement.attributes["db.system.name"] === "postgresql")).toBe(true);
    }
    // Reads (the person, the grant) and writes (the session, the audit row).
    const texts = statements.map((span) => String(span.attributes["db.query.text"]));
    expect(texts.some((text) => /^\s*select\b/i.test(text))).toBe(true);
    expect(texts.some((text) => /\binsert\s+into\b/i.test(text))).toBe(true);
    // Statements are sent with their parameters apart: no password, no session token in a span.
    const everything = JSON.stringify(spans);
    expect(everything).not.toContain(person.password);

    // Every line logged while the two requests ran names the trace.
    const requestIds = new Set(
      service.lines.filter((line) => line.req?.url?.startsWith("/api/auth")).map((line) => line.reqId),
    );
    const requestLines = service.lines.filter((line) => requestIds.has(line.reqId));
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    expect(requestLines.map((line) => line.trace_id)).toEqual(requestLines.map(() => traceId));
  });

  it("leaves probes out of the traces, and a query's secret values out of the spans", async () => {
    const traceId = randomBytes(16).toString("hex");
    const headers = { traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` };
    expect((await fetch(`${service.origin}/health`, { headers })).status).toBe(200);
    const ticket = "ticket-secret-value-in-the-query";
    await fetch(`${service.origin}/api/ticket?ticketId=${ticket}&appId=demo`, { headers });
    await expect
      .poll(() => receiver.spans.filter((span) => span.traceId === traceId).map((span) => span.name), {
        timeout: 20_000,
      })
      .toContain("GET /api/ticket");
    const spans = receiver.spans.filter((span) => span.traceId === traceId);
    expect(spans.map((span) => span.name)).not.toContain("GET /health");
    const ticketSpan = spans.find((span) => span.name === "GET /api/ticket");
    expect(ticketSpan?.attributes["url.query"]).toBe("ticketId=[redacted]&appId=demo");
    expect(JSON.stringify(spans)).not.toContain(ticket);
  });
});

describe("traces over OTLP/protobuf, the SDK's default", () => {
  it("sends protobuf to /v1/traces holding the request's trace id", async () => {
    const receiver = await startOtlpReceiver();
    const service = await startService({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    try {
      const traceId = randomBytes(16).toString("hex");
      await signIn(service.origin, traceId);
      // A protobuf ExportTraceServiceRequest carries each span's trace id as its 16 bytes.
      await expect
        .poll(() => receiver.binaryExports.some((each) => each.body.includes(Buffer.from(traceId, "hex"))), {
          timeout: 20_000,
        })
        .toBe(true);
      expect(receiver.binaryExports.map((each) => each.contentType)).toContain("application/x-protobuf");
    } finally {
      await service.stop();
      await receiver.close();
    }
  }, 90_000);
});

describe("when tracing is on", () => {
  it("is off by default and on when OpenTelemetry's environment names an endpoint or an exporter", () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: "console" })).toBe(true);
  });

  it("stays off when told so, whatever else is set", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(tracingWanted({ ...endpoint, OTEL_TRACES_EXPORTER: "none" })).toBe(false);
    expect(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: "true" })).toBe(false);
  });
});

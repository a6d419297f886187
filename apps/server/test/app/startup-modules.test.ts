import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productionEnvironment, productionNodeFlags } from "../../src/platform/production-process.ts";
import { aboveModelDatabase, createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { freePort } from "../support/listening.ts";

// Issue 41's idle memory: what serves only some requests (SCIM, SAML, passkeys, mail, the DSTU signatures of
// Diia and BankID, Google's OpenID client) is loaded by the first such request, not at start-up. An instance
// that none of those requests reach keeps that memory; a static import added back anywhere on the way from
// server.ts brings the package into every process again, which this test sees.
const loadedOnFirstUse = [
  "scimmy",
  "samlify",
  "xml-crypto",
  "@xmldom/xmldom",
  "libxml2-wasm",
  "@peculiar/x509",
  "@simplewebauthn/server",
  "nodemailer",
  "jkurwa",
  "gost89",
  // Google's OpenID client, here without Google configured.
  "openid-client",
];

/**
 * OpenTelemetry's SDK: loaded only when the environment asks for traces (platform/tracing/start.ts), never here.
 * (Its small API package, @opentelemetry/api, is loaded anyway: prom-client reads the active span for exemplars.)
 */
const loadedOnlyWithTracing = [
  "@opentelemetry/sdk-trace",
  "@opentelemetry/instrumentation-http",
  "@opentelemetry/exporter-trace-otlp-proto",
];

const childEntry = fileURLToPath(new URL("../support/startup-modules-child.ts", import.meta.url));

interface ChildReport {
  url?: string;
  scimToken?: string;
  loaded: string[];
}

/** The service started in a child process, and what it has loaded so far. */
class StartedService {
  readonly #child: ChildProcess;
  #stderr = "";

  constructor(env: Record<string, string>) {
    this.#child = fork(childEntry, [], {
      execArgv: [...productionNodeFlags],
      env: { PATH: process.env.PATH ?? "", ...productionEnvironment, ...env },
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    this.#child.stderr?.on("data", (chunk: Buffer) => (this.#stderr += chunk.toString()));
    // A send to a child that has just died fails here; the next report says why it died.
    this.#child.on("error", () => {});
  }

  get #running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** The child's next message, or an error with what it printed if it exits first. */
  #nextReport(): Promise<ChildReport> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: unknown) => {
        this.#child.off("exit", onExit);
        resolve(message as ChildReport);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        this.#child.off("message", onMessage);
        reject(new Error(`the service exited (${code ?? signal}): ${this.#stderr}`));
      };
      this.#child.once("message", onMessage);
      this.#child.once("exit", onExit);
    });
  }

  /** Where it listens and a SCIM token it made, once it has started. */
  async ready(): Promise<{ url: string; scimToken: string }> {
    const { url, scimToken } = await this.#nextReport();
    if (!url || !scimToken) throw new Error("the service did not say where it listens");
    return { url, scimToken };
  }

  async loadedPackages(): Promise<string[]> {
    const answer = this.#nextReport();
    this.#child.send("loaded");
    return (await answer).loaded;
  }

  async stop(): Promise<void> {
    if (!this.#running) return;
    const exited = new Promise((resolve) => this.#child.once("exit", resolve));
    if (this.#child.connected) this.#child.send("stop");
    const deadline = setTimeout(() => this.#child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(deadline);
  }
}

// The memory goal is measured on PostgreSQL when the run has one; on PGlite otherwise, which adds PGlite itself.
const kind = aboveModelDatabase;

describe(`what the service loads at start-up and on first use (${kind}, production)`, () => {
  let service: StartedService | undefined;
  let url = "";
  let scimToken = "";
  let database: TestDatabase | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "kpi-id-startup-modules-"));

  beforeAll(async () => {
    const port = await freePort();
    if (kind === "postgres") database = await createTestDatabase("postgres");
    service = new StartedService({
      NODE_ENV: "production",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOST: "127.0.0.1",
      PORT: String(port),
      SESSION_SECRET: "startup-modules-test-secret-0123456789-abcdefghijkl",
      DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? "",
      LOG_LEVEL: "warn",
      WEB_DIST_DIR: "/nonexistent-web-dist",
    });
    ({ url, scimToken } = await service.ready());
  });
  afterAll(async () => {
    await service?.stop();
    await database?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts without SCIM, SAML, passkey, mail or DSTU libraries; a refused SCIM request loads none", async () => {
    if (!service) throw new Error("not started");
    const atStart = await service.loadedPackages();
    // The recorder sees the packages every request needs, so an empty list below is not a blind one.
    expect(atStart).toEqual(expect.arrayContaining(["fastify", "oidc-provider", "kysely", "@node-rs/argon2"]));
    expect(atStart.filter((name) => loadedOnFirstUse.includes(name))).toEqual([]);
    expect(atStart.filter((name) => loadedOnlyWithTracing.includes(name))).toEqual([]);
    if (kind === "postgres") expect(atStart).not.toContain("@electric-sql/pglite");

    const refused = await fetch(`${url}/scim/v2/Users`, { headers: { authorization: "Bearer not-a-token" } });
    expect(refused.status).toBe(401);
    expect(await service.loadedPackages()).toEqual(atStart);
  });

  it("loads scimmy with the first SCIM request and samlify with the first SAML one, and both answer", async () => {
    if (!service) throw new Error("not started");
    const users = await fetch(`${url}/scim/v2/Users`, {
      headers: { authorization: `Bearer ${scimToken}`, accept: "application/scim+json" },
    });
    expect(users.status).toBe(200);
    expect(((await users.json()) as { totalResults: number }).totalResults).toBe(0);
    const afterScim = await service.loadedPackages();
    expect(afterScim).toContain("scimmy");
    expect(afterScim).not.toContain("samlify");

    const metadata = await fetch(`${url}/saml/metadata`);
    expect(metadata.status).toBe(200);
    expect(await metadata.text()).toContain("IDPSSODescriptor");
    expect(await service.loadedPackages()).toContain("samlify");
  });
});

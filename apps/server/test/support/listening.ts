import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import type { DatabaseKind } from "../../src/platform/db/index.ts";
import { createTestApp, type TestApp, type TestAppOptions } from "./app.ts";

// Ports handed out for a server that listens later, drawn below Linux's ephemeral range (32768-60999 unless
// the machine says otherwise). A port from listen(0) is free only until it is closed: the outgoing connections
// of the test workers running beside this one (fetches, PostgreSQL) take their local ports from that same
// range, and one of them taking the port before the app listens on it failed a whole file with EADDRINUSE.
// Below the range only another freePort, or a server started on a fixed port meanwhile, can take it.
function ephemeralRangeStart(): number {
  try {
    const start = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > 0 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

const belowEphemeral = Math.min(ephemeralRangeStart(), 32_768);
const lowestPort = Math.max(10_000, belowEphemeral - 12_768);
const portCount = belowEphemeral - lowestPort;

/** Binds a loopback port (0: any the system gives) and lets it go; the port it had, or undefined if taken. */
function bindAndRelease(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/** A free loopback port: an issuer URL must be known before the app that serves it is built. */
export async function freePort(): Promise<number> {
  // A machine whose ephemeral range starts below 10000 leaves no such ports: take what listen(0) gives.
  const attempts =
    portCount < 1_000 ? [0] : Array.from({ length: 50 }, () => lowestPort + Math.floor(Math.random() * portCount));
  for (const port of attempts) {
    const bound = await bindAndRelease(port);
    if (bound) return bound;
  }
  throw new Error(`no free loopback port between ${lowestPort} and ${lowestPort + portCount - 1}`);
}

export interface ListeningTestApp {
  test: TestApp;
  /** http://127.0.0.1:PORT, also the app's PUBLIC_URL. */
  origin: string;
  /** The OpenID Connect issuer, `${origin}/oidc`. */
  issuer: string;
}

/**
 * A test app listening on a free loopback port whose PUBLIC_URL is that address,
 * for clients (openid-client, fetch) that must reach it over real HTTP.
 */
export async function createListeningTestApp(
  kind: DatabaseKind,
  options: TestAppOptions & { env?: Record<string, string> } = {},
): Promise<ListeningTestApp> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const test = await createTestApp(kind, { ...options.env, PUBLIC_URL: origin, PORT: String(port) }, options);
  await test.app.listen({ host: "127.0.0.1", port });
  return { test, origin, issuer: `${origin}/oidc` };
}

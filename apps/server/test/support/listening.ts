import { createServer } from "node:net";
import type { DatabaseKind } from "../../src/platform/db/index.ts";
import { createTestApp, type TestApp, type TestAppOptions } from "./app.ts";

// Ports handed out for a server that listens later, drawn below Linux's ephemeral range (32768-60999). A
// port from listen(0) is free only until it is closed: the outgoing connections of the test workers running
// beside this one (fetches, PostgreSQL) take their local ports from that same range, and one of them taking
// the port before the app listens on it failed a whole file with EADDRINUSE. Below the range only another
// freePort can pick the same port, one chance in ten thousand for two calls in flight at once.
const lowestPort = 20_000;
const portCount = 12_000;

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A free loopback port: an issuer URL must be known before the app that serves it is built. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = lowestPort + Math.floor(Math.random() * portCount);
    if (await tryListen(port)) return port;
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

import { createServer } from "node:net";
import type { DatabaseKind } from "../../src/platform/db/index.ts";
import { createTestApp, type TestApp, type TestAppOptions } from "./app.ts";

/** A free loopback port: an issuer URL must be known before the app that serves it is built. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
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

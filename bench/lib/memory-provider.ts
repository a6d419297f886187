import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serveThroughServiceStack, testConfig } from "@kpi-id/server/testing";
import Provider from "oidc-provider";
import type { Client } from "./oidc-client.ts";

/**
 * How the provider is served: "alone" on a bare Node server, as the library's own callback; "service-stack" through
 * the service's HTTP stack (Fastify, security headers, metrics, mount.ts: serveThroughServiceStack), the floor of
 * what any answer of the service pays before the provider and its storage.
 */
type Serving = "alone" | "service-stack";

interface MemoryProviderOptions {
  serving?: Serving;
  /**
   * Database work before each token answer is sent (the library's own middleware hook, after its token endpoint has
   * answered in memory; Koa sends the answer once the whole chain has resolved): the floor of a refresh whose
   * rotation must be committed before the answer (design.md §7).
   */
  beforeEachToken?: () => Promise<void>;
}

/** The library's own callback on a bare Node server. */
async function serveAlone(provider: Provider) {
  const callback = provider.callback();
  const server = createServer((request, response) => {
    // The path under /oidc, as mount.ts hands it to the provider.
    Object.assign(request, { originalUrl: request.url });
    request.url = (request.url ?? "/").slice("/oidc".length) || "/";
    void callback(request, response);
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function serveThroughStack(provider: Provider) {
  const app = await serveThroughServiceStack(provider, testConfig({ PUBLIC_URL: "http://127.0.0.1" }));
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { port, close: () => app.close() };
}

/**
 * oidc-provider on its own: its built-in in-memory adapter, no database, one client and one account whose
 * claims are the service's own userinfo answer, mounted under /oidc as the service mounts it. Its userinfo and
 * its refresh with rotation are floors for the service's: the same library, the same Node, the same answers,
 * with nothing of KPI ID around them ("alone": no database, no security headers, no caches, no Fastify), or with
 * only the service's HTTP stack and the round trips `beforeEachToken` makes ("service-stack").
 */
export async function startMemoryProvider(
  claims: Record<string, unknown>,
  { serving = "alone", beforeEachToken }: MemoryProviderOptions = {},
) {
  const issuer = "http://127.0.0.1/oidc";
  const client: Client = { id: "bench-client", secret: "bench-secret-for-the-library-alone" };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: ["https://rp.example.edu/cb"],
        grant_types: ["authorization_code", "refresh_token"],
      },
    ],
    claims: { openid: ["sub"], profile: Object.keys(claims).filter((claim) => claim !== "sub") },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ ...claims, sub }) }),
    features: { devInteractions: { enabled: false } },
    // As the service does (protocols/oidc/provider.ts): every refresh rotates the token.
    rotateRefreshToken: true,
    issueRefreshToken: () => true,
  });
  if (beforeEachToken)
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.method === "POST" && ctx.path === "/token" && ctx.status === 200) await beforeEachToken();
    });
  const accountId = String(claims.sub ?? "bench");
  const grant = new provider.Grant({ accountId, clientId: client.id });
  grant.addOIDCScope("openid profile offline_access");
  const grantId = await grant.save();
  const registered = await provider.Client.find(client.id);
  if (!registered) throw new Error("the bench client is missing");
  const accessToken = await new provider.AccessToken({
    accountId,
    client: registered,
    grantId,
    gty: "authorization_code",
    scope: "openid profile",
  }).save();
  const newRefreshToken = () =>
    new provider.RefreshToken({
      accountId,
      client: registered,
      grantId,
      gty: "authorization_code",
      scope: "openid profile offline_access",
      authTime: Math.floor(Date.now() / 1000),
    }).save();
  const refreshToken = await newRefreshToken();
  const { port, close } = serving === "alone" ? await serveAlone(provider) : await serveThroughStack(provider);
  const origin = `http://127.0.0.1:${port}`;
  return {
    /** Where tokenRequest (oidc-client.ts) finds its token endpoint. */
    origin,
    client,
    userinfoUrl: `${origin}/oidc/me`,
    accessToken,
    refreshToken,
    /** Another refresh token of the same grant: a chain of its own for refreshes in flight side by side. */
    newRefreshToken,
    close,
  };
}

import { readFileSync } from "node:fs";
import { freePort, type PasswordHasher, serviceStack, type TestApp, testConfig } from "@kpi-id/server/testing";
import { sql } from "kysely";

/**
 * The floor of a whole OpenID Connect password login that the service's stack sets (issue 63's oidc-login-8): the
 * same addresses, redirects, cookies and bodies as the real flow, served by the service's HTTP stack (Fastify,
 * cookies, JSON, security headers, CSRF check, metrics: serviceStack), with the login's one argon2id verify and as
 * many statements as the real login sends (12, issue 41's count), each the cheapest round trip (`select $1`), and
 * nothing else: no provider, no signing, no session, no audit. passwordLoginCodeFlow drives it as it drives the
 * service, so the two sides differ only in what the service does.
 */
export async function startLoginSkeleton(
  test: TestApp,
  hasher: PasswordHasher,
  passwordHash: string,
  redirectUri: string,
  webIndex: string | undefined,
) {
  // Its own origin as PUBLIC_URL: the CSRF check compares a POST's Origin with it, as the service's does.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const app = await serviceStack(testConfig({ PUBLIC_URL: origin }));
  const roundTrips = (count: number) =>
    Array.from({ length: count }).reduce<Promise<unknown>>(
      (previous, _, index) => previous.then(() => sql`select ${String(index)}::text as step`.execute(test.app.db)),
      Promise.resolve(),
    );
  // As mount.ts's scope takes the token endpoint's form: the provider reads it itself (not parsed here), no CSRF rule.
  app.addContentTypeParser("application/x-www-form-urlencoded", (_request, _payload, done) => done(null));
  const serverToServer = { config: { csrf: false } };
  const page = webIndex === undefined ? undefined : readFileSync(webIndex, "utf8");
  const interaction = "skeleton-interaction";
  app.get("/oidc/auth", async (_request, reply) => {
    await roundTrips(1);
    reply.setCookie("kpi_id_continue", "skeleton", { path: "/", httpOnly: true, sameSite: "lax" });
    return reply.redirect(`/api/oidc/interaction/${interaction}?resume=1`, 303);
  });
  app.get("/api/oidc/interaction/:uid", async (_request, reply) => reply.redirect("/uk/", 303));
  app.get("/uk/", async (_request, reply) =>
    page === undefined ? reply.code(404).send() : reply.type("text/html").send(page),
  );
  app.post("/api/auth", async (request) => {
    const { password } = request.body as { password: string };
    await roundTrips(3);
    if (!(await hasher.verify(passwordHash, password))) throw new Error("the skeleton's password did not verify");
    await roundTrips(1);
    return { sessionId: "skeleton-grant" };
  });
  app.post("/api/auth/internal", async (_request, reply) => {
    await roundTrips(2);
    reply.setCookie("kpi_id_session", "skeleton", { path: "/", httpOnly: true, sameSite: "lax" });
    return { next: `/oidc/auth/${interaction}` };
  });
  app.get("/oidc/auth/:uid", async (_request, reply) => {
    await roundTrips(3);
    return reply.redirect(`${redirectUri}?code=skeleton-code&state=`, 303);
  });
  app.post("/oidc/token", serverToServer, async () => {
    await roundTrips(2);
    return { access_token: "skeleton", refresh_token: "skeleton", id_token: "skeleton", token_type: "Bearer" };
  });
  await app.listen({ host: "127.0.0.1", port });
  return { origin, close: () => app.close() };
}

import { readFileSync } from "node:fs";
import { freePort, type PasswordHasher, serviceStack, type TestApp, testConfig } from "@kpi-id/server/testing";
import { sql } from "kysely";

/**
 * The round trips each hop of the real login sends (apps/server/test/platform/db/statement-counts.test.ts lists
 * them): authorize 1; the password 4 (the person and the throttle before the verify, the second factor read while it
 * runs, the grant after: sign-in/password/password-signin.ts); the exchange 2; back to the interaction 3; the token
 * 2. The bench checks their sum against the statements it counts of a real login.
 */
const statementsPerHop = {
  authorize: 1,
  passwordBeforeVerify: 2,
  passwordBesideVerify: 1,
  passwordAfterVerify: 1,
  exchange: 2,
  resume: 3,
  token: 2,
};
export const skeletonStatements = Object.values(statementsPerHop).reduce((sum, count) => sum + count, 0);

export interface SkeletonOptions {
  /** The service's own hasher, verifying `passwordHash` once per login as the service does. */
  hasher: PasswordHasher;
  passwordHash: string;
  /** Where the last hop sends the browser with its code. */
  redirectUri: string;
  /** The built web app's index.html, served as the sign-in page; without it the page answers 404, as the service's. */
  webIndex: string | undefined;
}

/**
 * The floor of a whole OpenID Connect password login that the service's stack sets (issue 63's oidc-login-8): the
 * same addresses, redirects, cookies and bodies as the real flow, served by the service's HTTP stack (Fastify,
 * cookies, JSON, security headers, CSRF check, metrics: serviceStack), with the login's one argon2id verify and as
 * many statements as the real login sends, each the cheapest round trip (`select $1`), and nothing else: no
 * provider, no signing, no session, no audit. passwordLoginCodeFlow drives it as it drives the service, so the two
 * sides differ only in what the service does.
 */
export async function startLoginSkeleton(test: TestApp, options: SkeletonOptions) {
  // Its own origin as PUBLIC_URL: the CSRF check compares a POST's Origin with it, as the service's does.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const app = await serviceStack(testConfig({ PUBLIC_URL: origin }));
  const roundTrips = async (count: number) => {
    for (let step = 0; step < count; step++) await sql`select ${String(step)}::text as step`.execute(test.app.db);
  };
  // As mount.ts's scope takes the token endpoint's form: the provider reads it itself (not parsed here), no CSRF rule.
  app.addContentTypeParser("application/x-www-form-urlencoded", (_request, _payload, done) => done(null));
  const serverToServer = { config: { csrf: false } };
  const page = options.webIndex === undefined ? undefined : readFileSync(options.webIndex, "utf8");
  const interaction = "skeleton-interaction";
  app.get("/oidc/auth", async (_request, reply) => {
    await roundTrips(statementsPerHop.authorize);
    reply.setCookie("kpi_id_continue", "skeleton", { path: "/", httpOnly: true, sameSite: "lax" });
    return reply.redirect(`/api/oidc/interaction/${interaction}?resume=1`, 303);
  });
  app.get("/api/oidc/interaction/:uid", async (_request, reply) => reply.redirect("/uk/", 303));
  app.get("/uk/", async (_request, reply) =>
    page === undefined ? reply.code(404).send() : reply.type("text/html").send(page),
  );
  app.post("/api/auth", async (request) => {
    const { password } = request.body as { password: string };
    await roundTrips(statementsPerHop.passwordBeforeVerify);
    const [verified] = await Promise.all([
      options.hasher.verify(options.passwordHash, password),
      roundTrips(statementsPerHop.passwordBesideVerify),
    ]);
    if (!verified) throw new Error("the skeleton's password did not verify");
    await roundTrips(statementsPerHop.passwordAfterVerify);
    return { sessionId: "skeleton-grant" };
  });
  app.post("/api/auth/internal", async (_request, reply) => {
    await roundTrips(statementsPerHop.exchange);
    reply.setCookie("kpi_id_session", "skeleton", { path: "/", httpOnly: true, sameSite: "lax" });
    return { next: `/oidc/auth/${interaction}` };
  });
  app.get("/oidc/auth/:uid", async (_request, reply) => {
    await roundTrips(statementsPerHop.resume);
    return reply.redirect(`${options.redirectUri}?code=skeleton-code&state=`, 303);
  });
  app.post("/oidc/token", serverToServer, async () => {
    await roundTrips(statementsPerHop.token);
    return { access_token: "skeleton", refresh_token: "skeleton", id_token: "skeleton", token_type: "Bearer" };
  });
  await app.listen({ host: "127.0.0.1", port });
  return { origin, close: () => app.close() };
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleAccounts } from "../../../../../sandbox/src/google/accounts.ts";
import { type RunningGoogleStandIn, startGoogleStandIn } from "../../../../../sandbox/src/google/index.ts";
import { createApplication } from "../../../src/model/apps/service.ts";
import { findUserById } from "../../../src/model/users/queries.ts";
import { userClaims } from "../../../src/protocols/oidc/claims.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { answerAtGoogle, finishGoogleSignInAsPage, googleSettings, startGoogleSignIn } from "../../support/google.ts";

const googleAccount = googleAccounts[0];
const password = "a long passphrase, no rules";
// An integrator's state may hold anything URL-safe or not; it must come back byte for byte.
const state = "Zx9_-.~ a+b/c=d&e?f%25é";
const development = "http://localhost:8080/kpi-id/callback";
const production = "https://lib.example.edu/kpi-id/callback?from=kpi";

function callbackParams(location: unknown) {
  const url = new URL(String(location));
  return { base: `${url.origin}${url.pathname}`, params: url.searchParams };
}

/** Issue 19: the sign-in link's state and redirectUri, USER_ID, and the tax id only where it is released. */
describe.each(aboveModelDatabases)("an application's sign-in link and ticket (%s)", (kind) => {
  let standIn: RunningGoogleStandIn;
  let t: TestApp;
  let personId: string;
  let library: Awaited<ReturnType<typeof createApplication>>;
  let registry: Awaited<ReturnType<typeof createApplication>>;

  beforeAll(async () => {
    standIn = await startGoogleStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    t = await createTestApp(kind, googleSettings(standIn), { protocols: ["tickets"] });
    const person = await addPerson(
      t.app,
      {
        username: "o.kovalenko",
        fullName: googleAccount?.name ?? "Олена Коваленко",
        email: googleAccount?.email,
        taxId: "3012345678",
      },
      password,
    );
    personId = person.id;
    library = await createApplication(t.app.db, {
      name: "library",
      title: "Бібліотека",
      callbackUrl: development,
      extraCallbackUrls: [production],
    });
    registry = await createApplication(t.app.db, {
      name: "registry",
      title: "Реєстр",
      callbackUrl: "https://registry.example.edu/callback",
      releaseTaxId: true,
    });
    await grantAccess(t.app.db, personId, library.application.id);
    await grantAccess(t.app.db, personId, registry.application.id);
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });

  const open = (cookie: string, query: Record<string, string>) =>
    t.app.inject({ url: `/api/app-redirect?${new URLSearchParams(query)}`, headers: { cookie } });

  async function redeem(application: typeof library, ticketId: string) {
    const query = new URLSearchParams({ ticketId, appId: application.application.id, appSecret: application.secret });
    const answer = await t.app.inject({ url: `/api/ticket?${query}` });
    expect(answer.statusCode).toBe(200);
    return answer.json().data as Record<string, string>;
  }

  it("returns state unchanged after a password sign-in, with ticketId, to the first callback", async () => {
    const cookie = await signIn(t.app, "o.kovalenko", password);
    const redirect = await open(cookie, { appId: library.application.id, state });
    expect(redirect.statusCode).toBe(302);
    const { base, params } = callbackParams(redirect.headers.location);
    expect(base).toBe(development);
    expect(params.get("state")).toBe(state);
    expect(params.get("ticketId")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Without state the callback gets none (existing integrations see exactly what they saw).
    const plain = callbackParams((await open(cookie, { appId: library.application.id })).headers.location);
    expect([...plain.params.keys()]).toEqual(["ticketId"]);
  });

  it("keeps appId, state and redirectUri on the way to the sign-in page when nobody is signed in", async () => {
    const link = { appId: library.application.id, state, redirectUri: production };
    const redirect = await open("", link);
    expect(redirect.statusCode).toBe(302);
    const kept = new URL(String(redirect.headers.location), TEST_PUBLIC_URL);
    expect(kept.pathname).toBe("/uk/");
    expect(Object.fromEntries(kept.searchParams)).toEqual(link);
  });

  it("sends the ticket to the registered callback redirectUri names, and refuses any other", async () => {
    const cookie = await signIn(t.app, "o.kovalenko", password);
    const chosen = await open(cookie, { appId: library.application.id, redirectUri: production, state });
    const { params } = callbackParams(chosen.headers.location);
    expect(String(chosen.headers.location).startsWith(`${production}&ticketId=`)).toBe(true);
    expect(params.get("state")).toBe(state);

    const tickets = async () => (await t.app.db.selectFrom("tickets").select("id").execute()).length;
    const before = await tickets();
    for (const redirectUri of [
      "https://evil.example/kpi-id/callback",
      `${development}/../../steal`,
      `${development}x`,
      "http://localhost:8080/kpi-id/callback/",
      production.replace("?from=kpi", ""),
    ]) {
      const refused = await open(cookie, { appId: library.application.id, redirectUri });
      expect(refused.statusCode).toBe(302);
      // The apps page is told why and which address was tried, so the person sees a notice naming it (issue 60).
      const tried = new URLSearchParams({ appId: library.application.id, redirectUri });
      expect(refused.headers.location).toBe(`/uk/apps?${tried}&refused=redirectUri`);
    }
    expect(await tickets()).toBe(before);
    const reasons = await t.app.db
      .selectFrom("audit_events")
      .select("reason")
      .where("reason", "=", "app.redirect_uri_not_registered")
      .orderBy("audit_events.id")
      .execute();
    expect(reasons).toHaveLength(5);
  });

  it("tells the sign-in page before sign-in whether the application and its redirectUri are known", async () => {
    const check = async (query: Record<string, string>) =>
      (await t.app.inject({ url: `/api/app-link?${new URLSearchParams(query)}` })).json();
    // The sign-in page names the application and whether the university reviewed it (issue 60).
    const named = { title: library.application.title, stage: "reviewed" };
    expect(await check({ appId: library.application.id })).toMatchObject({
      known: true,
      redirectUriRegistered: true,
      ...named,
    });
    expect(await check({ appId: library.application.id, redirectUri: production })).toMatchObject({
      known: true,
      redirectUriRegistered: true,
    });
    expect(await check({ appId: library.application.id, redirectUri: "https://evil.example/" })).toMatchObject({
      known: true,
      redirectUriRegistered: false,
    });
    for (const appId of ["00000000-0000-4000-8000-000000000000", "not-an-id", ""]) {
      expect(await check({ appId })).toEqual({ known: false, redirectUriRegistered: false });
    }
  });

  it("gives USER_ID, the OpenID Connect sub, and the tax id only to the application allowed it", async () => {
    const cookie = await signIn(t.app, "o.kovalenko", password);
    const person = await findUserById(t.app.db, personId);
    if (!person) throw new Error("no person");
    const ticketOf = async (application: typeof library) =>
      callbackParams((await open(cookie, { appId: application.application.id })).headers.location).params.get(
        "ticketId",
      ) ?? "";

    const withheld = await redeem(library, await ticketOf(library));
    expect(withheld.USER_ID).toBe(personId);
    expect(withheld.USER_ID).toBe(userClaims(person).sub);
    expect(withheld.TAX_ID).toBe("");
    const released = await redeem(registry, await ticketOf(registry));
    expect(released.USER_ID).toBe(personId);
    expect(released.TAX_ID).toBe("3012345678");
  });

  it("carries state and redirectUri through a Google sign-in to the application", async () => {
    const link = { state, redirectUri: production };
    const started = await startGoogleSignIn(t.app, library.application.id, link);
    const answer = await answerAtGoogle(started.location, googleAccount?.sub ?? "");
    const finished = await finishGoogleSignInAsPage(t.app, answer, started.cookie);
    expect(finished.statusCode).toBe(302);
    const next = new URL(String(finished.headers.location), TEST_PUBLIC_URL);
    expect(next.pathname).toBe("/uk/apps");
    expect(Object.fromEntries(next.searchParams)).toEqual({ appId: library.application.id, ...link });

    // The apps page then opens /api/app-redirect with the same three, as the web app does.
    const session = finished.cookies.find((c) => c.name.endsWith("kpi_id_session") && c.value);
    const redirect = await open(`${session?.name}=${session?.value}`, Object.fromEntries(next.searchParams));
    const { params } = callbackParams(redirect.headers.location);
    expect(String(redirect.headers.location).startsWith(production)).toBe(true);
    expect(params.get("state")).toBe(state);
    expect((await redeem(library, params.get("ticketId") ?? "")).AUTH_METHOD).toBe("GOOGLE");
  });
});

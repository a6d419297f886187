import type { InternalAuthRequest, LoginResponse, TicketResponse } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient } from "../../support/oidc.ts";
import {
  type ClientCredentials,
  passwordLoginCodeFlow,
  signedInCodeFlowTokens,
  tokenRequest,
} from "../../support/oidc-code-flow.ts";

/**
 * Database statements per request on the hot paths (issue 20): every round trip to the database is paid
 * on every sign-in and every token, so the counts found after cutting the repeated reads are upper
 * bounds here, and a change that adds a statement to one of these paths fails until it is looked at.
 * Counts, not times: they are the same on a loaded machine and on a quiet one.
 */
const bounds = {
  passwordSignIn: 4,
  grantExchange: 2,
  ticketExchange: 2,
  user: 1,
  // The token and its grant in one statement (oidc/request-memory.ts reads the grant with the token).
  userinfo: 1,
  // The old token with its grant; then its use, the new refresh token and the access token as one durable write.
  refresh: 2,
  // Issue 41's goal is 12; docs/performance-history.md, eleventh pass, lists them before and after:
  //  1. the application, when this instance has not yet kept it in memory (12 when it has)
  //  2. GET /oidc/auth: the interaction (our route then reads nothing: the browser has no session)
  //  3.–8. the password sign-in: the person by username, the throttle, the second factor, the login grant with its
  //     audit row, the grant's use with the person, the session with its audit row
  //  9. the provider resuming (the sign-in's next): the KPI ID session with the person
  // 10. the interaction, with its grant, provider session and the person's access to the application
  // 11. one write: the interaction's removal, the provider session, the grant, the code and the audit row
  // 12. POST /oidc/token: the code with its grant and session (the person from memory, kept at 10)
  // 13. the code's use and the access token, one durable write
  oidcPasswordLogin: 13,
};

const password = "correct horse battery staple";
const redirectUri = "https://rp.example.edu/callback";
describe.each(databaseKinds)("statements per request on %s", (kind) => {
  let test: TestApp;
  let origin: string;
  let client: ClientCredentials;
  let people = 0;

  beforeAll(async () => {
    ({ test, origin } = await createListeningTestApp(kind, { protocols: ["oidc", "tickets"] }));
    const rp = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile", "email", "kpi", "offline_access"],
      firstParty: true,
    });
    client = { id: rp.application.id, secret: rp.secret };
  });
  afterAll(() => test?.close());

  /** A new person with access to the client (each test its own, so no throttle counter is shared). */
  async function newPerson(): Promise<string> {
    people += 1;
    const username = `counted${people}`;
    const person = await addPerson(test.app, { username, fullName: `Людина ${people}` }, password);
    await grantAccess(test.app.db, person.id, client.id);
    return username;
  }

  /** The statements `run` sends, waiting a moment after it for writes the answer did not wait for. */
  async function statements(run: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const stop = test.database.handle.onStatement((text) => seen.push(text));
    try {
      await run();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      stop();
    }
    if (process.env.SHOW_STATEMENTS) console.log(seen.join("\n---\n"));
    return seen;
  }

  const tokens = (username: string) =>
    signedInCodeFlowTokens(test.app, origin, client, { username, password }, redirectUri);

  it("signs in with a password (POST /api/auth) in a few statements", async () => {
    const username = await newPerson();
    let status = 0;
    const seen = await statements(async () => {
      const answer = await fetch(`${origin}/api/auth`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ username, password }),
      });
      status = answer.status;
    });
    expect(status).toBe(200);
    expect(seen.length).toBeLessThanOrEqual(bounds.passwordSignIn);
  });

  it("exchanges the grant for the session cookie (POST /api/auth/internal) in two statements", async () => {
    const username = await newPerson();
    const headers = { "content-type": "application/json", origin };
    const grant = await fetch(`${origin}/api/auth`, {
      method: "POST",
      headers,
      body: JSON.stringify({ username, password }),
    });
    const { sessionId } = (await grant.json()) as LoginResponse;
    let cookie: string | null = null;
    const seen = await statements(async () => {
      const answer = await fetch(`${origin}/api/auth/internal`, {
        method: "POST",
        headers,
        body: JSON.stringify({ sessionId } satisfies InternalAuthRequest),
      });
      cookie = answer.headers.get("set-cookie");
    });
    expect(cookie).toContain("kpi_id_session=");
    expect(seen.length).toBeLessThanOrEqual(bounds.grantExchange);
  });

  it("redeems a ticket (POST /api/ticket) in one statement, two when the application is not in memory", async () => {
    const username = await newPerson();
    const site = await addApplication(test.app);
    const person = await test.app.db
      .selectFrom("users")
      .select("id")
      .where("username", "=", username)
      .executeTakeFirstOrThrow();
    await grantAccess(test.app.db, person.id, site.application.id);
    const cookie = await signIn(test.app, username, password, { origin });
    const redirect = await fetch(`${origin}/api/app-redirect?appId=${site.application.id}`, {
      headers: { cookie },
      redirect: "manual",
    });
    const ticketId = new URL(redirect.headers.get("location") ?? "").searchParams.get("ticketId");
    let answer: Partial<TicketResponse> = {};
    const seen = await statements(async () => {
      const exchange = await fetch(`${origin}/api/ticket`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ticketId, appId: site.application.id, appSecret: site.secret }),
      });
      answer = (await exchange.json()) as TicketResponse;
    });
    expect(answer.data?.USER_ID).toBe(person.id);
    expect(seen.length).toBeLessThanOrEqual(bounds.ticketExchange);
  });

  it("answers GET /user in one statement", async () => {
    const username = await newPerson();
    const cookie = await signIn(test.app, username, password, { origin });
    let status = 0;
    const seen = await statements(async () => {
      status = (await fetch(`${origin}/user`, { headers: { cookie } })).status;
    });
    expect(status).toBe(200);
    expect(seen.length).toBeLessThanOrEqual(bounds.user);
  });

  it("answers userinfo and a refresh with rotation in a few statements each", async () => {
    const first = await tokens(await newPerson());
    let info = 0;
    const userinfo = await statements(async () => {
      info = (await fetch(`${origin}/oidc/me`, { headers: { authorization: `Bearer ${first.access_token}` } })).status;
    });
    expect(info).toBe(200);
    let rotated = "";
    const refresh = await statements(async () => {
      rotated = (
        await tokenRequest(origin, client, { grant_type: "refresh_token", refresh_token: first.refresh_token })
      ).refresh_token;
    });
    expect(rotated).not.toBe(first.refresh_token);
    expect(userinfo.length).toBeLessThanOrEqual(bounds.userinfo);
    expect(refresh.length).toBeLessThanOrEqual(bounds.refresh);
  });

  it("runs a whole OpenID Connect password login (authorize → sign-in → code → token) in a bounded number", async () => {
    const username = await newPerson();
    let idToken = "";
    const seen = await statements(async () => {
      const { tokens } = await passwordLoginCodeFlow(origin, client, { username, password }, redirectUri);
      idToken = tokens.id_token;
    });
    expect(idToken.split(".")).toHaveLength(3);
    expect(seen.length).toBeLessThanOrEqual(bounds.oidcPasswordLogin);
  });
});

import { randomBytes } from "node:crypto";
import { pkceChallenge, pkceVerifier } from "@kpi-id/server/testing";
import { Browser, call, HttpError } from "./browser.ts";
import { assumptions } from "./campus.ts";
import type { Recorder } from "./open-loop.ts";

// What the rush's people, applications, helpdesk and student register do, each request timed under the label
// the step tables print. A step that fails ends that person's morning (as a person who meets an error stops).

export interface Credentials {
  id: string;
  secret: string;
}

/** Everything the rush needs of the seeded campus (seed.ts). */
export interface RushCampus {
  origin: string;
  password: string;
  /** The next person signing in with a password alone. */
  nextPerson(): string;
  /** The next person with an authenticator app, and their code now. */
  nextWithSecondFactor(): { username: string; code(): Promise<string> };
  /** A session cookie of someone signed in on an earlier day (`name=value`). */
  nextEarlierSession(): string;
  ticketApplication: Credentials;
  oidcClient: Credentials & { redirectUri: string };
  casService: string;
  helpdeskCookie: string;
  scimToken: string;
  surnames: readonly string[];
  /** Told of every session a password sign-in made (`name=value`), when the run checks them afterwards. */
  onSignedIn?: (cookie: string) => void;
}

const basic = ({ id, secret }: Credentials) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;

async function signInWithPassword(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<boolean> {
  const withCode = Math.random() < assumptions.withSecondFactor;
  const person = withCode ? campus.nextWithSecondFactor() : { username: campus.nextPerson(), code: undefined };
  const label = withCode ? "sign-in: password + authenticator" : "sign-in: password";
  const done = await recorder.time(label, async () => {
    const auth = await browser.postJson("/api/auth", { username: person.username, password: campus.password });
    const grant = (await auth.json()) as { sessionId: string; secondFactor?: string };
    if (person.code) {
      if (grant.secondFactor !== "totp") throw new HttpError("no second factor asked of a person who has one");
      await (await browser.postJson("/api/auth/second-factor", { ...grant, code: await person.code() })).text();
    }
    await (await browser.postJson("/api/auth/internal", { sessionId: grant.sessionId })).text();
    const session = [...browser.cookies].find(([name]) => name.endsWith("kpi_id_session"));
    if (session) campus.onSignedIn?.(`${session[0]}=${session[1]}`);
    return true;
  });
  return done === true;
}

async function openWithTicket(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<boolean> {
  const application = campus.ticketApplication;
  const back = await recorder.time("ticket: app-redirect", () =>
    browser.leave(`/api/app-redirect?appId=${application.id}`),
  );
  const ticketId = back?.searchParams.get("ticketId");
  if (!back) return false;
  if (!ticketId) {
    recorder.fail("ticket: app-redirect", `no ticket in ${back.origin}${back.pathname}`);
    return false;
  }
  const exchanged = await recorder.time("ticket: exchange", async () => {
    const response = await call(
      `${campus.origin}/api/ticket`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ticketId, appId: application.id, appSecret: application.secret }),
      },
      [200],
    );
    return response.json();
  });
  return exchanged !== undefined;
}

async function tokenCall(campus: RushCampus, form: Record<string, string>): Promise<Record<string, string>> {
  const response = await call(
    `${campus.origin}/oidc/token`,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(campus.oidcClient) },
      body: new URLSearchParams(form),
    },
    [200],
  );
  return (await response.json()) as Record<string, string>;
}

async function userinfo(campus: RushCampus, recorder: Recorder, accessToken: string): Promise<boolean> {
  const answered = await recorder.time("oidc: userinfo", async () => {
    const init = { headers: { authorization: `Bearer ${accessToken}` } };
    return (await call(`${campus.origin}/oidc/me`, init, [200])).json();
  });
  return answered !== undefined;
}

async function openWithOidc(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<boolean> {
  const client = campus.oidcClient;
  const query = new URLSearchParams({
    client_id: client.id,
    response_type: "code",
    redirect_uri: client.redirectUri,
    scope: "openid profile offline_access",
    prompt: "consent",
    state: randomBytes(9).toString("base64url"),
    code_challenge: pkceChallenge,
    code_challenge_method: "S256",
  });
  const back = await recorder.time("oidc: authorize", () => browser.leave(`/oidc/auth?${query}`));
  if (!back) return false;
  const code = back.searchParams.get("code");
  if (!code) {
    recorder.fail("oidc: authorize", `no code: ${back.searchParams.get("error") ?? back.pathname}`);
    return false;
  }
  const form = {
    grant_type: "authorization_code",
    code,
    redirect_uri: client.redirectUri,
    code_verifier: pkceVerifier,
  };
  const tokens = await recorder.time("oidc: token", () => tokenCall(campus, form));
  if (!tokens?.access_token || !(await userinfo(campus, recorder, tokens.access_token))) return false;
  for (let refresh = 0; refresh < assumptions.refreshesPerOidcOpen; refresh++) {
    const refreshToken = tokens.refresh_token;
    if (!refreshToken) {
      recorder.fail("oidc: refresh", "no refresh token");
      return false;
    }
    const refreshed = await recorder.time("oidc: refresh", () =>
      tokenCall(campus, { grant_type: "refresh_token", refresh_token: refreshToken }),
    );
    if (!refreshed?.access_token || !(await userinfo(campus, recorder, refreshed.access_token))) return false;
  }
  return true;
}

async function openWithCas(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<boolean> {
  const service = campus.casService;
  const back = await recorder.time("cas: login", () => browser.leave(`/cas/login?${new URLSearchParams({ service })}`));
  if (!back) return false;
  const ticket = back.searchParams.get("ticket");
  if (!ticket) {
    recorder.fail("cas: login", `no service ticket: ${back.pathname}`);
    return false;
  }
  const validated = await recorder.time("cas: validate", async () => {
    const url = `${campus.origin}/cas/p3/serviceValidate?${new URLSearchParams({ service, ticket })}`;
    const text = await (await call(url, {}, [200])).text();
    if (!text.includes("cas:authenticationSuccess")) throw new HttpError(`validation failed: ${text.slice(0, 200)}`);
    return true;
  });
  return validated === true;
}

const openers = { ticket: openWithTicket, oidc: openWithOidc, cas: openWithCas };

function protocolOfNextOpen(): keyof typeof openers {
  let draw = Math.random();
  for (const [protocol, share] of Object.entries(assumptions.protocols) as [keyof typeof openers, number][]) {
    draw -= share;
    if (draw < 0) return protocol;
  }
  return "oidc";
}

/** One person arriving: signed in already or afresh with a password, then two or three applications. */
export async function arrival(campus: RushCampus, recorder: Recorder): Promise<void> {
  const browser = new Browser(campus.origin);
  if (Math.random() < assumptions.signingInAfresh) {
    if (!(await signInWithPassword(campus, browser, recorder))) return;
  } else {
    const [name = "", value = ""] = campus.nextEarlierSession().split("=");
    browser.cookies.set(name, value);
  }
  const count = pick(assumptions.applicationsEach);
  for (let index = 0; index < count; index++) {
    if (!(await openers[protocolOfNextOpen()](campus, browser, recorder))) return;
  }
}

/** One search by the helpdesk: a surname, as a person calling in gives theirs. */
export async function helpdeskSearch(campus: RushCampus, recorder: Recorder): Promise<void> {
  await recorder.time("console: people search", async () => {
    const url = `${campus.origin}/api/admin/people?${new URLSearchParams({ q: pick(campus.surnames) })}`;
    return (await call(url, { headers: { cookie: campus.helpdeskCookie } }, [200])).json();
  });
}

let scimCount = 0;

/** One of the day's changes from the student register: a new student. */
export async function scimChange(campus: RushCampus, recorder: Recorder): Promise<void> {
  scimCount += 1;
  const userName = `scim-${process.pid}-${Date.now().toString(36)}-${scimCount}`;
  await recorder.time("scim: create user", async () => {
    const body = {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName,
      name: { givenName: "Олена", familyName: pick(campus.surnames) },
      active: true,
    };
    const init = {
      method: "POST",
      headers: { authorization: `Bearer ${campus.scimToken}`, "content-type": "application/scim+json" },
      body: JSON.stringify(body),
    };
    return (await call(`${campus.origin}/scim/v2/Users`, init, [201])).json();
  });
}

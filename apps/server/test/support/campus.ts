import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { grantAccess } from "../../src/model/access/applications.ts";
import { createApplication, type NewApplicationInput } from "../../src/model/apps/service.ts";
import { createUser, type PersonInput } from "../../src/model/users/service.ts";
import { postJson } from "./app.ts";

/** A clock the test moves by hand, so expiries and throttles are tested without sleeping. */
export function manualClock(start = new Date("2026-03-01T09:00:00Z")) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
}

/** The real time, moved on by hand: for waits that the provider (on real time) must share. */
export function shiftedClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(seconds: number) {
      offset += seconds * 1000;
    },
  };
}

export async function addPerson(app: FastifyInstance, person: PersonInput, password: string) {
  return createUser(app.db, app.passwordHasher, person, password);
}

let applicationCount = 0;

export async function addApplication(
  app: FastifyInstance,
  callbackUrl = "https://app.example.edu/kpi-id/callback",
  settings: Pick<NewApplicationInput, "releaseTaxId" | "extraCallbackUrls"> = {},
) {
  applicationCount += 1;
  return createApplication(app.db, {
    name: `app-${applicationCount}-${Date.now().toString(36)}`,
    title: `Application ${applicationCount}`,
    description: "A connected campus site",
    callbackUrl,
    ...settings,
  });
}

export { grantAccess };

/** The `name=value` pair of the session cookie a response set, for the next request's Cookie header. */
export function sessionCookieFrom(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name.endsWith("kpi_id_session"));
  if (!cookie?.value) throw new Error(`no session cookie in ${response.statusCode} ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}

/** Signs in the way the web app does: credentials for a grant, the grant for a cookie. */
export async function signIn(app: FastifyInstance, username: string, password: string, headers = {}) {
  const auth = await postJson(app, "/api/auth", { username, password }, { headers });
  if (auth.statusCode !== 200) throw new Error(`sign-in failed: ${auth.statusCode} ${auth.body}`);
  const internal = await postJson(app, "/api/auth/internal", { sessionId: auth.json().sessionId }, { headers });
  return sessionCookieFrom(internal);
}

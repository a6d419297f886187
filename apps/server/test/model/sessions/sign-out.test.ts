import { casPaths } from "@kpi-id/contracts";
import type { LightMyRequestResponse } from "fastify";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceSignOut } from "../../../src/cli-service.ts";
import { formOf } from "../../protocols/saml/browse.ts";
import { TEST_SESSION_SECRET, type TestApp } from "../../support/app.ts";
import { signIn } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { client, confirmLogout } from "../../support/oidc.ts";
import {
  browse,
  cookieHeader,
  type FourApplications,
  fourApplications,
  password,
  postLogoutUri,
  type SignedIn,
  signedInEverywhere,
  siteCheck,
  spTold,
} from "./signed-in-everywhere.ts";

/**
 * One way of signing out: how it is taken, how the SAML SP hears of it (through the browser, which is sent through
 * it before `endsAt`; as the SP that asked, answered with its LogoutResponse; not at all, without a browser: KPI ID
 * speaks no SAML back channel).
 */
interface Way {
  signOut(apps: FourApplications, signedIn: SignedIn): Promise<LightMyRequestResponse | undefined>;
  saml: "front channel" | "answered" | "not told";
  endsAt?: (apps: FourApplications) => string;
  /** The way erases the person: ending their sessions again is refused (409 `admin.person_erased`). */
  erases?: boolean;
}

const json = (apps: FourApplications, cookie: string) => ({
  "content-type": "application/json",
  origin: apps.origin,
  cookie,
});

/** An operator's console request about the person. */
async function asOperator(apps: FourApplications, signedIn: SignedIn, path: string, body: unknown, status = 200) {
  const operator = await addOperator(apps.app, ["admin"]);
  const answer = await apps.app.inject({
    method: "POST",
    url: `/api/admin/people/${signedIn.person.id}/${path}`,
    headers: json(apps, operator.cookie),
    payload: JSON.stringify(body),
  });
  expect(answer.statusCode, answer.body).toBe(status);
  return undefined;
}

/** Every way of signing out the issue names (74, point 3), each in the browser signed in to all four applications. */
const ways: [string, Way][] = [
  [
    "KPI ID's own sign-out",
    {
      async signOut(apps, signedIn) {
        const cookie = cookieHeader(signedIn.browser);
        const answer = await apps.app.inject({ method: "POST", url: "/api/auth/logout", headers: json(apps, cookie) });
        expect(answer.statusCode).toBe(200);
        return browse(apps, answer.json().next ?? "/");
      },
      saml: "front channel",
      endsAt: () => "/uk/",
    },
  ],
  [
    "CAS /logout",
    {
      signOut: (apps, signedIn) =>
        browse(
          apps,
          `${casPaths.logout}?${new URLSearchParams({ service: apps.cas.url })}`,
          cookieHeader(signedIn.browser),
        ),
      saml: "front channel",
      endsAt: (apps) => apps.cas.url,
    },
  ],
  [
    "a SAML LogoutRequest",
    {
      signOut: async (apps, signedIn) =>
        browse(
          apps,
          await apps.sp.saml.getLogoutUrlAsync(signedIn.samlProfile, "sp-state", {}),
          cookieHeader(signedIn.browser),
        ),
      saml: "answered",
    },
  ],
  [
    "OpenID Connect end_session",
    {
      async signOut(apps, signedIn) {
        const endSession = client.buildEndSessionUrl(apps.config, { post_logout_redirect_uri: postLogoutUri });
        const asked = await signedIn.browser.request(endSession.href);
        const confirmed = await confirmLogout(signedIn.browser, `${apps.origin}/oidc`, asked);
        return browse(apps, confirmed.headers.get("location") ?? "");
      },
      saml: "front channel",
      endsAt: () => postLogoutUri,
    },
  ],
  [
    "a password change in another browser",
    {
      async signOut(apps, signedIn) {
        const other = await signIn(apps.app, signedIn.person.username, password, { origin: apps.origin });
        const changed = await apps.app.inject({
          method: "POST",
          url: "/api/account/password",
          headers: json(apps, other),
          payload: JSON.stringify({ currentPassword: password, newPassword: "a new passphrase for a stolen one" }),
        });
        expect(changed.statusCode, changed.body).toBe(200);
        return undefined;
      },
      saml: "not told",
    },
  ],
  [
    "an operator ending the person's sessions",
    { signOut: (apps, signedIn) => asOperator(apps, signedIn, "sessions/end", {}), saml: "not told" },
  ],
  [
    "an operator disabling the person",
    {
      signOut: (apps, signedIn) => asOperator(apps, signedIn, "status", { status: "disabled" }),
      saml: "not told",
    },
  ],
  [
    "the operator CLI disabling the person (kpi-id user disable)",
    {
      async signOut(apps, signedIn) {
        const run = await runCliOn(apps.app.database, ["user", "disable", "--username", signedIn.person.username], {
          // The service's environment: its keys are sealed with its SESSION_SECRET.
          env: { PUBLIC_URL: apps.origin, SESSION_SECRET: TEST_SESSION_SECRET },
          serviceSignOut,
        });
        expect(run.code, run.stderr).toBe(0);
        return undefined;
      },
      saml: "not told",
    },
  ],
  [
    "the operator CLI erasing the person (kpi-id user erase)",
    {
      async signOut(apps, signedIn) {
        const { username } = signedIn.person;
        const run = await runCliOn(
          apps.app.database,
          ["user", "erase", "--username", username, "--confirm", username],
          {
            env: { PUBLIC_URL: apps.origin, SESSION_SECRET: TEST_SESSION_SECRET },
            serviceSignOut,
          },
        );
        expect(run.code, run.stderr).toBe(0);
        return undefined;
      },
      saml: "not told",
      erases: true,
    },
  ],
];

describe("one sign-out: every way out reaches each application the browser signed in to, once", () => {
  let test: TestApp;
  let apps: FourApplications;
  let people = 0;

  beforeAll(async () => {
    const listening = await createListeningTestApp(aboveModelDatabase);
    test = listening.test;
    apps = await fourApplications(test.app, listening.origin, listening.issuer);
  });
  afterAll(async () => {
    apps?.close();
    await test?.close();
  });

  /** The logout tokens the OpenID Connect client got for the browser's session, the LogoutRequests the CAS service got for its ticket. */
  const told = (signedIn: SignedIn) => ({
    oidc: apps.backchannel.logoutTokens.filter((token) => decodeJwt(token).sid === signedIn.sid).length,
    cas: apps.cas.sessionIndexes.filter((ticket) => ticket === signedIn.ticket).length,
  });

  it.each(ways)("%s", async (_, way) => {
    people += 1;
    const signedIn = await signedInEverywhere(apps, `everywhere${people}`);
    expect(await siteCheck(apps, signedIn)).toBe(200);
    expect(told(signedIn)).toEqual({ oidc: 0, cas: 0 });

    const step = await way.signOut(apps, signedIn);
    expect(told(signedIn)).toEqual({ oidc: 1, cas: 1 });

    if (way.saml === "front channel") {
      const spHeard = await spTold(apps, apps.sp, step);
      expect(spHeard?.nameId).toBe(signedIn.samlProfile.nameID);
      expect(spHeard?.after?.statusCode).toBe(303);
      expect(spHeard?.after?.headers.location).toBe(way.endsAt?.(apps));
    } else if (way.saml === "answered") {
      const form = formOf(step?.body ?? "");
      expect(form.action).toBe(apps.sp.sloUrl);
      expect(form.SAMLRequest).toBe("");
      const { loggedOut } = await apps.sp.saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse });
      expect(loggedOut).toBe(true);
    } else expect(step).toBeUndefined();
    expect(await siteCheck(apps, signedIn)).toBe(401);
    const samlRecords = await test.app.db
      .selectFrom("saml_sessions")
      .select("session_id")
      .where("name_id", "=", signedIn.samlProfile.nameID)
      .execute();
    expect(samlRecords).toEqual([]);

    // Once: ending the person's sessions again tells nobody anything more.
    await asOperator(apps, signedIn, "sessions/end", {}, way.erases ? 409 : 200);
    expect(told(signedIn)).toEqual({ oidc: 1, cas: 1 });
  });
});

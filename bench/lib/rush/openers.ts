import { randomBytes } from "node:crypto";
import { pkceChallenge, pkceVerifier } from "@kpi-id/server/testing";
import { type Browser, call, HttpError } from "./browser.ts";
import { assumptions } from "./campus.ts";
import type { Recorder } from "./open-loop.ts";
import type { Credentials, RushCampus } from "./rush-campus.ts";

// Opening an application by the ticket, OpenID Connect (with a refresh) and CAS, each hop timed under the label the
// step tables print. Each answers false when a step failed (the failure is recorded; the person stops there).

const basic = ({ id, secret }: Credentials) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

export async function openWithTicket(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<boolean> {
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

export async function openWithOidc(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<boolean> {
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

export async function openWithCas(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<boolean> {
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

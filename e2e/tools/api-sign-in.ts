import type { DiiaAppLink, DiiaCheckRequest, InternalAuthResponse, LoginResponse } from "@kpi-id/contracts";
import { expect, type Page, test } from "@playwright/test";
import type { DiiaPhonePerson } from "../pages/diia-phone-page.ts";
import type { Language } from "../pages/login-page.ts";
import { noteSignIn } from "./sign-ins.ts";

export interface Credentials {
  username: string;
  password: string;
}

/** The worker's server, as the config gives it to every page (`use.baseURL`). */
function serverOrigin(): string {
  return new URL(String(test.info().project.use.baseURL)).origin;
}

/**
 * Signs in as the login screen's script does, without the screen: POST /api/auth answers a one-time grant and POST
 * /api/auth/internal trades it for the session cookie (Origin and JSON, as a browser sends them). The page's request
 * context shares its browser context's cookies and user agent, so the session is the page's, named by that browser.
 * The language is the one the login screen at /{language}/ would have chosen (its `i18next` cookie): the session
 * keeps it for the person's mail.
 * For the specs that need a session and do not test signing in; the password, keyboard, passkey and second-factor
 * specs, and the protocols' flows through the login page, sign in through the screen (LoginPage.signIn).
 * Answers where the screen would go next.
 */
export async function signInThroughApi(
  page: Page,
  language: Language,
  person: Credentials,
  origin = serverOrigin(),
): Promise<string> {
  const grant = await checkPassword(page, language, person, origin);
  if (grant.secondFactor) throw new Error(`${person.username} owes a second factor: sign in through the screen`);
  return exchangeGrant(page, origin, grant.sessionId);
}

/** Every API sign-in's first step: counted as one, with the language the login screen at /{language}/ would have set. */
async function beginApiSignIn(page: Page, language: Language, origin: string): Promise<void> {
  noteSignIn("api");
  await page.context().addCookies([{ name: "i18next", value: language, url: origin }]);
}

/** The password sign-ins' first steps, as the login screen takes them: counted, the language set, the password sent. */
async function checkPassword(
  page: Page,
  language: Language,
  person: Credentials,
  origin: string,
): Promise<LoginResponse> {
  await beginApiSignIn(page, language, origin);
  const checked = await page.request.post(`${origin}/api/auth`, {
    data: { username: person.username, password: person.password },
    headers: { origin },
  });
  expect(checked.status(), `POST /api/auth as ${person.username}: ${await checked.text()}`).toBe(200);
  return (await checked.json()) as LoginResponse;
}

/** The sign-in's last step, as the login screen takes it: the grant for the session cookie; answers where to go next. */
async function exchangeGrant(page: Page, origin: string, sessionId: string): Promise<string> {
  const exchanged = await page.request.post(`${origin}/api/auth/internal`, {
    data: { sessionId },
    headers: { origin },
  });
  expect(exchanged.status(), `POST /api/auth/internal: ${await exchanged.text()}`).toBe(200);
  return ((await exchanged.json()) as InternalAuthResponse).next;
}

/**
 * As signInThroughApi, for a person with an authenticator app: the password, then the app's next code at
 * `/api/auth/second-factor` (a strong sign-in: password and code), then the session cookie. `code` answers a code
 * the server has not seen yet (each time step is taken once).
 */
export async function signInWithCodeThroughApi(
  page: Page,
  language: Language,
  person: Credentials,
  code: () => Promise<string>,
  origin = serverOrigin(),
): Promise<string> {
  const grant = await checkPassword(page, language, person, origin);
  expect(grant.secondFactor, `${person.username} owes no second factor`).toBe("totp");
  const proved = await page.request.post(`${origin}/api/auth/second-factor`, {
    data: { sessionId: grant.sessionId, code: await code() },
    headers: { origin },
  });
  expect(proved.status(), `POST /api/auth/second-factor: ${await proved.text()}`).toBe(200);
  return exchangeGrant(page, origin, grant.sessionId);
}

/**
 * A Diia sign-in without the screens, for the specs whose test is what an operator does after it (the console's):
 * the calls the QR screen's script makes (GET /api/diia/app-link, which binds the request to this browser's cookie,
 * then GET /api/diia/check-request until it is finished), and between them the stand-in phone's own form, posted as
 * its consent page posts it, which signs as `person` and delivers Diia's callback. The QR screen, the phone's page and
 * their failures are diia.spec.ts's. Answers where the screen would go next.
 */
export async function signInWithDiiaThroughApi(
  page: Page,
  language: Language,
  person: DiiaPhonePerson,
  origin = serverOrigin(),
): Promise<string> {
  await beginApiSignIn(page, language, origin);
  const linked = await page.request.get(`${origin}/api/diia/app-link`);
  expect(linked.status(), `GET /api/diia/app-link: ${await linked.text()}`).toBe(200);
  const { deepLink, requestId } = (await linked.json()) as DiiaAppLink;
  const signed = await page.request.post(deepLink, { form: { person, action: "confirm" } });
  expect(await signed.text(), `the Diia phone's answer for ${person}`).toContain('data-outcome="sent"');
  let answer: DiiaCheckRequest = { status: "Processing" };
  await expect
    .poll(
      async () => {
        const checked = await page.request.get(
          `${origin}/api/diia/check-request?${new URLSearchParams({ requestId })}`,
        );
        answer = (await checked.json()) as DiiaCheckRequest;
        return answer.status;
      },
      { message: `GET /api/diia/check-request for ${person}`, intervals: [100, 250, 500] },
    )
    .toBe("Finished");
  if (!answer.sessionId) throw new Error(`the finished Diia sign-in of ${person} carries no grant`);
  return exchangeGrant(page, origin, answer.sessionId);
}

/** Signed in through the API and on the apps screen, where a password sign-in through the screen leaves a person. */
export async function signedInOnApps(
  page: Page,
  language: Language,
  person: Credentials,
  origin = serverOrigin(),
): Promise<void> {
  await signInThroughApi(page, language, person, origin);
  await page.goto(`${origin}/${language}/apps`);
  await page.getByRole("heading", { level: 1 }).waitFor();
}

/** A wrong password for `username` through the API, as a stranger's guess at the login screen (a 401). */
export async function wrongPasswordThroughApi(page: Page, username: string, origin = serverOrigin()): Promise<void> {
  const answer = await page.request.post(`${origin}/api/auth`, {
    data: { username, password: `not ${username}'s password` },
    headers: { origin },
  });
  expect(answer.status()).toBe(401);
}

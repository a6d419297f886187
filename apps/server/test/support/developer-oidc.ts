import { consentDetailsSchema } from "@kpi-id/contracts";
import { client, startSignIn, TestBrowser } from "./oidc.ts";

/**
 * A person signing in to a developer's OpenID Connect client in a test browser, up to its consent screen and past
 * it: `signInAs` follows the redirects to the consent screen, `allow` answers it and redeems the code.
 */
export function developerSignIns(originOf: () => string, redirectUri: string) {
  const post = (browser: TestBrowser, path: string, body: unknown) =>
    browser.request(path, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", origin: originOf() },
    });

  /** Follows the sign-in to the consent screen; answers its uid (or the application's URL when none was asked). */
  async function toConsent(browser: TestBrowser, url: string): Promise<{ uid?: string; leftTo?: URL }> {
    const origin = originOf();
    let next = new URL(url);
    for (let hop = 0; hop < 15; hop += 1) {
      const response = await browser.request(next.href);
      const location = response.headers.get("location");
      if (!location) throw new Error(`stopped at ${next.pathname} ${response.status}`);
      next = new URL(location, next);
      if (next.origin !== origin) return { leftTo: next };
      const uid = next.pathname.endsWith("/consent") ? next.searchParams.get("uid") : null;
      if (uid) return { uid };
    }
    throw new Error("too many redirects");
  }

  async function signInAs(cookie: string, config: client.Configuration, scope = "openid profile offline_access") {
    const browser = new TestBrowser(originOf());
    browser.setCookie(cookie);
    const start = await startSignIn(config, redirectUri, scope, { prompt: "consent" });
    const { uid } = await toConsent(browser, start.url.href);
    if (!uid) throw new Error("no consent screen");
    const details = consentDetailsSchema.parse(
      await (await browser.request(`/api/oidc/interaction/${uid}/details`)).json(),
    );
    return { browser, start, uid, details };
  }

  async function allow(signIn: Awaited<ReturnType<typeof signInAs>>, config: client.Configuration) {
    const answer = await post(signIn.browser, `/api/oidc/interaction/${signIn.uid}/consent`, { allow: true });
    const { leftTo } = await signIn.browser.follow((await answer.json()).redirectTo);
    if (!leftTo) throw new Error("did not return to the application");
    return client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: signIn.start.verifier,
      expectedState: signIn.start.state,
    });
  }

  return { post, signInAs, allow };
}

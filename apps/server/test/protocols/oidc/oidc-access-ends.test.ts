import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { client, startSignIn } from "../../support/oidc.ts";
import { oidcPeopleWithTokens } from "../../support/oidc-people.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "correct horse battery";

/**
 * Issue 13, defect 1: however a person's access to an application ends, OpenID Connect stops
 * for it at once: no code without a screen, no refresh, no userinfo with tokens already issued.
 */
describe.each(aboveModelDatabases)("OpenID Connect when access ends (%s)", (kind) => {
  const oidc = oidcPeopleWithTokens(kind, { usernamePrefix: "person", password, redirectUri });
  const { signedInWithTokens } = oidc;

  type Signed = Awaited<ReturnType<typeof oidc.signedInWithTokens>>;

  async function silentSignIn({ config, browser }: Signed) {
    const start = await startSignIn(config, redirectUri, "openid profile", { prompt: "none" });
    const { leftTo, response } = await browser.follow(start.url.href);
    return { leftTo, status: response.status };
  }

  /** The refresh grant answers invalid_grant, userinfo 401 invalid_token. */
  async function expectTokensRefused({ config, tokens, userId }: Signed) {
    await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    await expect(client.fetchUserInfo(config, tokens.access_token, userId)).rejects.toMatchObject({ status: 401 });
  }

  function cli(args: string[]) {
    return runCliOn(oidc.test.database.handle, args, { env: { PUBLIC_URL: oidc.origin } });
  }

  it("a silent sign-in (prompt=none) works while access lasts and writes the same audit row as a screen", async () => {
    const signed = await signedInWithTokens();
    const { leftTo } = await silentSignIn(signed);
    expect(leftTo?.searchParams.get("code")).toBeTruthy();
    const rows = await oidc.test.app.db
      .selectFrom("audit_events")
      .select(["result", "auth_method", "user_id", "application_id", "reason"])
      .where("event_type", "=", "oidc_sign_in")
      .where("application_id", "=", signed.application.id)
      .orderBy("audit_events.id")
      .execute();
    // One for the first sign-in (through the interaction), one for the silent one.
    const row = {
      result: "success",
      auth_method: "PASSWORD",
      user_id: signed.userId,
      application_id: signed.application.id,
      reason: null,
    };
    expect(rows).toEqual([row, row]);
  });

  it("`user revoke`: prompt=none gets access_denied, refresh and userinfo are refused, introspection says inactive", async () => {
    const signed = await signedInWithTokens();
    const revoked = await cli(["user", "revoke", "--username", signed.username, "--app", signed.application.name]);
    expect(revoked.code).toBe(0);

    const { leftTo } = await silentSignIn(signed);
    expect(leftTo?.searchParams.get("error")).toBe("access_denied");
    expect(leftTo?.searchParams.get("code")).toBeNull();
    const refusal = await oidc.test.app.db
      .selectFrom("audit_events")
      .select(["result", "user_id"])
      .where("event_type", "=", "oidc_sign_in")
      .where("application_id", "=", signed.application.id)
      .where("result", "=", "failure")
      .orderBy("audit_events.id")
      .execute();
    expect(refusal).toEqual([{ result: "failure", user_id: signed.userId }]);

    await expectTokensRefused(signed);
    expect((await client.tokenIntrospection(signed.config, signed.tokens.access_token)).active).toBe(false);
    // The grant and everything issued under it are gone, not only refused.
    const left = await oidc.test.app.db
      .selectFrom("oidc_payloads")
      .select("type")
      .where("type", "in", ["Grant", "AccessToken", "RefreshToken"])
      .where(sql<string>`payload->>'accountId'`, "=", signed.userId)
      .execute();
    expect(left).toEqual([]);
  });

  it("`user disable`: no silent sign-in, no refresh, no userinfo", async () => {
    const signed = await signedInWithTokens();
    expect((await cli(["user", "disable", "--username", signed.username])).code).toBe(0);
    const { leftTo } = await silentSignIn(signed);
    expect(leftTo?.searchParams.get("error")).toBe("login_required");
    await expectTokensRefused(signed);
  });

  it("`app update --disable-oidc`: the application is no longer a client, and its tokens are gone", async () => {
    const signed = await signedInWithTokens();
    expect((await cli(["app", "update", "--app", signed.application.name, "--disable-oidc"])).code).toBe(0);
    const { leftTo, status } = await silentSignIn(signed);
    // An unknown client gets the provider's error page, never a redirect.
    expect(leftTo).toBeUndefined();
    expect(status).toBe(400);
    const { config, tokens } = signed;
    await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toMatchObject({
      status: 401,
      cause: [{ parameters: { error: "invalid_client" } }],
    });
    await expect(client.fetchUserInfo(config, tokens.access_token, signed.userId)).rejects.toMatchObject({
      status: 401,
    });
    const tokensLeft = await oidc.test.app.db
      .selectFrom("oidc_payloads")
      .select("id")
      .where("type", "in", ["Grant", "AccessToken", "RefreshToken"])
      .where(sql<string>`payload->>'clientId'`, "=", signed.application.id)
      .execute();
    expect(tokensLeft).toEqual([]);
  });

  it("access ended without revoking the grants (a rule that no longer matches) still stops refresh and userinfo", async () => {
    const signed = await signedInWithTokens();
    // What a rule change does: no revoke command, the person simply no longer qualifies.
    await oidc.test.app.db.deleteFrom("user_applications").where("user_id", "=", signed.userId).execute();
    await expectTokensRefused(signed);
    expect((await client.tokenIntrospection(signed.config, signed.tokens.access_token)).active).toBe(false);
    const { leftTo } = await silentSignIn(signed);
    expect(leftTo?.searchParams.get("error")).toBe("access_denied");
  });
});

import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../src/platform/db/migrate.ts";
import { storedOidcId } from "../../../src/protocols/oidc/adapter.ts";
import type { TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { client, newPersonSignedInToApplication } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";

/** Issue 35 point 3: what a copy of the database holds of OpenID Connect tokens works nowhere. */
describe.each(aboveModelDatabases)("OpenID Connect tokens at rest (%s)", (kind) => {
  let test: TestApp;
  let listening: { app: TestApp["app"]; origin: string; issuer: string };

  beforeAll(async () => {
    const started = await createListeningTestApp(kind, { protocols: ["oidc"] });
    test = started.test;
    listening = { app: started.test.app, origin: started.origin, issuer: started.issuer };
  });
  afterAll(() => test?.close());

  /** Every row of the table as text, every column: what a backup, a dump or the WAL would show. */
  async function tableAsText(): Promise<string> {
    const rows = await test.app.db.selectFrom("oidc_payloads").selectAll().execute();
    return JSON.stringify(rows);
  }

  it("keeps no access token, refresh token or code, and they all still work", async () => {
    const signed = await newPersonSignedInToApplication(
      listening,
      { username: "at.rest", fullName: "Олена Коваленко", password: "a long walk in podil" },
      redirectUri,
    );
    const { access_token: access, refresh_token: refresh } = signed.tokens;
    if (!refresh) throw new Error("no refresh token");
    const copy = await tableAsText();
    expect(copy).not.toContain(access);
    expect(copy).not.toContain(refresh);
    expect(copy).toContain(storedOidcId("RefreshToken", refresh));

    // A token taken from a copy would be its hash: the provider does not take it.
    const stolen = await client
      .refreshTokenGrant(signed.config, storedOidcId("RefreshToken", refresh))
      .catch((error: unknown) => error);
    expect(stolen).toBeInstanceOf(Error);

    const info = await client.fetchUserInfo(signed.config, access, client.skipSubjectCheck);
    expect(info.name).toBe("Олена Коваленко");
    const refreshed = await client.refreshTokenGrant(signed.config, refresh);
    expect(refreshed.access_token).toEqual(expect.any(String));
    const after = await tableAsText();
    expect(after).not.toContain(refreshed.access_token);
    expect(after).not.toContain(refreshed.refresh_token ?? "no rotation");
  });

  it("the migration rewrites a token stored in clear by the previous release, which then still works", async () => {
    const signed = await newPersonSignedInToApplication(
      listening,
      { username: "before.upgrade", fullName: "Ірина Шевченко", password: "a long walk in podil" },
      redirectUri,
    );
    const refresh = signed.tokens.refresh_token ?? "";
    // The row as the previous release wrote it: the token itself as the key, and in the payload.
    await test.app.db
      .updateTable("oidc_payloads")
      .set({
        id: refresh,
        payload: sql`jsonb_set(payload, '{jti}', to_jsonb(${refresh}::text))`,
      })
      .where("type", "=", "RefreshToken")
      .where("id", "=", storedOidcId("RefreshToken", refresh))
      .execute();
    expect(await tableAsText()).toContain(refresh);
    await sql`delete from schema_migrations where version = 416`.execute(test.app.db);
    expect(await migrate(test.app.database)).toEqual(["0416_oidc_hashed_token_ids"]);
    expect(await tableAsText()).not.toContain(refresh);
    const refreshed = await client.refreshTokenGrant(signed.config, refresh);
    expect(refreshed.access_token).toEqual(expect.any(String));
  });
});

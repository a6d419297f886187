import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteExpiredOidcPayloads } from "../../../src/model/oidc/payloads.ts";
import { storedOidcId } from "../../../src/protocols/oidc/adapter.ts";
import type { TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { client, signInToApplication } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "cache test passphrase";

/**
 * What psql, the CLI or another instance changes in the tables the OpenID Connect caches read (oidc-caches.test.ts)
 * reaches this instance through PostgreSQL's announcements (migrations 0310 and 0470), and it drops what it kept.
 */
describe.runIf(databaseKinds.includes("postgres"))("OpenID Connect caches beside psql", () => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let psql: pg.Client;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp("postgres", { protocols: ["oidc"] }));
    psql = new pg.Client({ connectionString: test.database.url });
    await psql.connect();
  });
  afterAll(async () => {
    await psql?.end();
    await test?.close();
  });

  /** A person signed in to a new application, with userinfo answered from this instance's memory. */
  async function cachedToken(username: string) {
    const person = await addPerson(test.app, { username, fullName: "Марія Гнатюк" }, password);
    const cookie = await signIn(test.app, username, password, { origin });
    const signed = await signInToApplication({ app: test.app, origin, issuer }, { id: person.id, cookie }, redirectUri);
    const status = () =>
      client.fetchUserInfo(signed.config, signed.tokens.access_token, person.id).then(
        (claims) => claims.name,
        (error: { status?: number }) => error.status,
      );
    /** How many statements userinfo sent: none while answered from memory. */
    const statements = async () => {
      let sent = 0;
      const stop = test.app.database.onStatement(() => {
        sent += 1;
      });
      await status().finally(stop);
      return sent;
    };
    await expect.poll(statements).toBe(0);
    const storedId = storedOidcId("AccessToken", signed.tokens.access_token);
    const { rows } = await psql.query<{ grant_id: string }>(
      "select grant_id from oidc_payloads where type = 'AccessToken' and id = $1",
      [storedId],
    );
    return { status, statements, person, signed, storedId, grantId: rows[0]?.grant_id ?? "" };
  }

  it("drops what psql or the CLI changed: a person's name, their status, an application's OpenID Connect", async () => {
    // Answered from memory first (no statement), so the changes below must drop it.
    const { status, person, signed } = await cachedToken("cached.psql");
    await psql.query("update users set full_name = 'Марія Коваль' where id = $1", [person.id]);
    await expect.poll(status).toBe("Марія Коваль");
    await psql.query("update users set status = 'disabled' where id = $1", [person.id]);
    await expect.poll(status).toBe(401);
    await psql.query("update users set status = 'active' where id = $1", [person.id]);
    await expect.poll(status).toBe("Марія Коваль");
    await psql.query("delete from user_applications where user_id = $1", [person.id]);
    await expect.poll(status).toBe(401);
    await psql.query("insert into user_applications (user_id, application_id) values ($1, $2)", [
      person.id,
      signed.application.id,
    ]);
    await expect.poll(status).toBe("Марія Коваль");
    await psql.query("update applications set oidc_enabled = false where id = $1", [signed.application.id]);
    await expect.poll(status).toBe(401);
  });

  it("refuses an access token another instance or psql removed, or whose grant it removed", async () => {
    const token = await cachedToken("cached.token");
    await psql.query("delete from oidc_payloads where type = 'AccessToken' and id = $1", [token.storedId]);
    await expect.poll(token.status).toBe(401);

    const grant = await cachedToken("cached.grant");
    expect(grant.grantId).not.toBe("");
    await psql.query("delete from oidc_payloads where type = 'Grant' and id = $1", [grant.grantId]);
    await expect.poll(grant.status).toBe(401);

    // A grant changed in place (its scopes narrowed, say): the token is read again with it.
    const changed = await cachedToken("cached.changed");
    await psql.query("update oidc_payloads set payload = payload where type = 'Grant' and id = $1", [changed.grantId]);
    await expect.poll(changed.statements).toBeGreaterThan(0);
    expect(await changed.status()).toBe("Марія Гнатюк");
  });

  it("drops every access token when psql removes over a hundred grants, or empties the table", async () => {
    const many = await cachedToken("cached.many");
    await psql.query(`insert into oidc_payloads (type, id, payload, expires_at)
      select 'Grant', 'hand-made-' || n, '{}', now() + interval '1 hour' from generate_series(1, 101) n`);
    await psql.query("delete from oidc_payloads where id like 'hand-made-%'");
    await expect.poll(many.statements).toBeGreaterThan(0);
    await psql.query("truncate oidc_payloads");
    await expect.poll(many.status).toBe(401);
  });

  it("announces a live grant's change, not the sweeping of expired rows (which would drop every cache)", async () => {
    const live = await cachedToken("cached.sweep");
    const heard: string[] = [];
    const listener = new pg.Client({ connectionString: test.database.url });
    await listener.connect();
    try {
      listener.on("notification", ({ payload }) => {
        if (payload?.startsWith("grant:") || payload === "all" || payload === "probe") heard.push(payload);
      });
      await listener.query("listen kpi_id_cache");
      await psql.query(`insert into oidc_payloads (type, id, payload, grant_id, expires_at)
        select 'AccessToken', 'expired-' || n, '{}', 'expired-grant-' || n, now() - interval '1 minute'
        from generate_series(1, 150) n`);
      expect(await deleteExpiredOidcPayloads(test.app.db)).toBeGreaterThanOrEqual(150);
      // Notifications arrive in commit order: once the probe is heard, the sweep's would have been.
      await psql.query("select pg_notify('kpi_id_cache', 'probe')");
      await expect.poll(() => heard).toEqual(["probe"]);
      await psql.query("delete from oidc_payloads where type = 'AccessToken' and id = $1", [live.storedId]);
      await expect.poll(() => heard).toEqual(["probe", `grant:${live.grantId}`]);
      await expect.poll(live.status).toBe(401);
    } finally {
      await listener.end();
    }
  });
});

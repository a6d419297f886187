import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setApplicationSecretHash } from "../src/model/apps/queries.ts";
import { hashTokenHex } from "../src/platform/crypto/tokens.ts";
import type { TestApp } from "./support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "./support/campus.ts";
import { databaseKinds } from "./support/databases.ts";
import { createListeningTestApp } from "./support/listening.ts";
import { client, newPersonSignedInToApplication, signInToApplication } from "./support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "cache test passphrase";

/** How many statements `action` sent to the database, with what it answered. */
async function withStatements<T>(app: FastifyInstance, action: () => Promise<T>) {
  let statements = 0;
  const stop = app.database.onStatement(() => {
    statements += 1;
  });
  try {
    return { result: await action(), statements };
  } finally {
    stop();
  }
}

/**
 * Userinfo and the token endpoint ask for the application and the person at every use of a token: the
 * instance keeps both in memory (apps/cache.ts, oidc/account-cache.ts) and drops them on any change to them.
 */
describe.each(databaseKinds)("OpenID Connect from the instance's memory on %s", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let people = 0;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind));
  });
  afterAll(() => test?.close());

  async function signedInWithTokens() {
    people += 1;
    const person = { username: `cached${people}`, fullName: "Олена Коваленко", password };
    return newPersonSignedInToApplication({ app: test.app, origin, issuer }, person, redirectUri);
  }

  type Signed = Awaited<ReturnType<typeof signedInWithTokens>>;

  const userinfo = ({ config, tokens, userId }: Signed) =>
    withStatements(test.app, () => client.fetchUserInfo(config, tokens.access_token, userId));

  /**
   * Asked until answered with the application and the person from memory (once this instance's own writes
   * were heard back): one statement, the access token read with its grant (oidc/request-memory.ts).
   */
  async function userinfoFromMemory(signed: Signed) {
    await expect.poll(async () => (await userinfo(signed)).statements).toBe(1);
  }

  it("answers userinfo asked again with the token and its grant only, and the same claims as from the database", async () => {
    const signed = await signedInWithTokens();
    await userinfoFromMemory(signed);
    const cached = await userinfo(signed);
    // As after a change that touches everything (an access rule, a unit): both are read again.
    test.app.applicationCache.changed({ kind: "all" });
    test.app.accountCache.changed({ kind: "all" });
    const read = await userinfo(signed);
    expect(read.statements).toBe(3);
    expect(cached.statements).toBe(1);
    expect(cached.result).toEqual(read.result);
    expect(cached.result.name).toBe("Олена Коваленко");
  });

  /** Userinfo's claimed name, or its HTTP status when refused, with how many statements it sent. */
  const answer = async (signed: Signed) => {
    const { result, statements } = await withStatements(test.app, () =>
      client.fetchUserInfo(signed.config, signed.tokens.access_token, signed.userId).then(
        (claims) => claims.name,
        (error: { status?: number }) => error.status,
      ),
    );
    return { result, statements };
  };

  /**
   * The answer once it comes from memory again: `statements` of them, the token read with its grant, whether
   * the person is answered or refused. A change this instance made is first read from the database, so only
   * the answer from memory shows that the old entry was dropped.
   */
  async function fromMemoryAgain(signed: Signed, statements = 1) {
    await expect.poll(async () => (await answer(signed)).statements).toBe(statements);
    return (await answer(signed)).result;
  }

  it("follows what this instance changes: the person's name, their access, the application's OpenID Connect", async () => {
    const signed = await signedInWithTokens();
    expect(await fromMemoryAgain(signed)).toBe("Олена Коваленко");
    await test.app.db.updateTable("users").set({ full_name: "Олена Шевчук" }).where("id", "=", signed.userId).execute();
    expect((await answer(signed)).result).toBe("Олена Шевчук");
    expect(await fromMemoryAgain(signed)).toBe("Олена Шевчук");

    await test.app.db.deleteFrom("user_applications").where("user_id", "=", signed.userId).execute();
    expect((await answer(signed)).result).toBe(401);
    expect(await fromMemoryAgain(signed, 1)).toBe(401);

    const other = await signedInWithTokens();
    expect(await fromMemoryAgain(other)).toBe("Олена Коваленко");
    await test.app.db
      .updateTable("applications")
      .set({ oidc_enabled: false })
      .where("id", "=", other.application.id)
      .execute();
    expect((await answer(other)).result).toBe(401);
    expect(await fromMemoryAgain(other, 1)).toBe(401);
  });

  it("keeps a person's access per application: revoked for one, the other still answers", async () => {
    people += 1;
    const username = `cached${people}`;
    const person = await addPerson(test.app, { username, fullName: "Тарас Гнатюк" }, password);
    const cookie = await signIn(test.app, username, password, { origin });
    const listening = { app: test.app, origin, issuer };
    const first = await signInToApplication(listening, { id: person.id, cookie }, redirectUri);
    const second = await signInToApplication(listening, { id: person.id, cookie }, redirectUri);
    expect([await fromMemoryAgain(first), await fromMemoryAgain(second)]).toEqual(["Тарас Гнатюк", "Тарас Гнатюк"]);
    await test.app.db
      .deleteFrom("user_applications")
      .where("user_id", "=", person.id)
      .where("application_id", "=", second.application.id)
      .execute();
    expect(await fromMemoryAgain(second, 1)).toBe(401);
    expect(await fromMemoryAgain(first)).toBe("Тарас Гнатюк");
  });

  it("refuses an application's old secret at the ticket exchange as soon as it is replaced", async () => {
    people += 1;
    const person = await addPerson(test.app, { username: `cached${people}`, fullName: "Іван Франко" }, password);
    const { application, secret } = await addApplication(test.app);
    await grantAccess(test.app.db, person.id, application.id);
    const cookie = await signIn(test.app, `cached${people}`, password, { origin });
    /**
     * The exchange's status and statements: a refusal with the application from memory writes its audit row and
     * the owners' integration-health note (one statement each), and reads nothing.
     */
    const exchange = async (appSecret: string) => {
      const redirect = await test.app.inject({ url: `/api/app-redirect?appId=${application.id}`, headers: { cookie } });
      const ticketId = new URL(String(redirect.headers.location)).searchParams.get("ticketId") ?? "";
      const query = new URLSearchParams({ ticketId, appId: application.id, appSecret });
      const { result, statements } = await withStatements(test.app, () =>
        test.app.inject({ url: `/api/ticket?${query}` }),
      );
      return { status: result.statusCode, statements };
    };
    expect((await exchange(secret)).status).toBe(200);
    expect((await exchange(secret)).status).toBe(200);
    await setApplicationSecretHash(test.app.db, application.id, hashTokenHex("the replacement secret"));
    expect((await exchange(secret)).status).toBe(401);
    await expect.poll(async () => (await exchange("a wrong secret")).statements).toBe(2);
    expect(await exchange(secret)).toEqual({ status: 401, statements: 2 });
    expect((await exchange("the replacement secret")).status).toBe(200);
  });
});

describe.runIf(databaseKinds.includes("postgres"))("OpenID Connect caches beside psql", () => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let psql: pg.Client;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp("postgres"));
    psql = new pg.Client({ connectionString: test.database.url });
    await psql.connect();
  });
  afterAll(async () => {
    await psql?.end();
    await test?.close();
  });

  it("drops what psql or the CLI changed: a person's name, their status, an application's OpenID Connect", async () => {
    const person = await addPerson(test.app, { username: "cached.psql", fullName: "Марія Гнатюк" }, password);
    const cookie = await signIn(test.app, "cached.psql", password, { origin });
    const signed = await signInToApplication({ app: test.app, origin, issuer }, { id: person.id, cookie }, redirectUri);
    const userinfo = () => client.fetchUserInfo(signed.config, signed.tokens.access_token, person.id);
    const status = () =>
      userinfo().then(
        (claims) => claims.name,
        (error: { status?: number }) => error.status,
      );
    // Answered from memory first (one statement: the token with its grant), so the changes below must drop it.
    await expect
      .poll(async () => {
        let statements = 0;
        const stop = test.app.database.onStatement(() => {
          statements += 1;
        });
        await userinfo().finally(stop);
        return statements;
      })
      .toBe(1);
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
});

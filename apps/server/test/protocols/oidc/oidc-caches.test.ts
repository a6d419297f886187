import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setApplicationSecretHash } from "../../../src/model/apps/queries.ts";
import { revokeOidcGrants } from "../../../src/model/oidc/grants.ts";
import type { CacheChange } from "../../../src/platform/cache/feed-cache.ts";
import { hashTokenHex } from "../../../src/platform/crypto/tokens.ts";
import type { TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { client, newPersonSignedInToApplication, signInToApplication } from "../../support/oidc.ts";

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
 * Userinfo and the token endpoint ask for the application and the person at every use of a token, and userinfo
 * for the access token and its grant: the instance keeps them in memory (apps/cache.ts, oidc/account-cache.ts,
 * oidc/token-cache.ts) and drops them on any change to them.
 */
describe.each(aboveModelDatabases)("OpenID Connect from the instance's memory on %s", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let people = 0;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc", "tickets"] }));
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
   * Asked until answered with the token, its grant, the application and the person from memory (once this
   * instance's own writes were heard back): no statement.
   */
  async function userinfoFromMemory(signed: Signed) {
    await expect.poll(async () => (await userinfo(signed)).statements).toBe(0);
  }

  it("answers userinfo asked again without a statement, and the same claims as from the database", async () => {
    const signed = await signedInWithTokens();
    await userinfoFromMemory(signed);
    const cached = await userinfo(signed);
    // As after a change that touches everything (an access rule, a unit): all are read again, the token with its
    // grant in one statement (oidc/request-memory.ts).
    test.app.applicationCache.changed({ kind: "all" });
    test.app.accountCache.changed({ kind: "all" });
    test.app.accessTokenCache.changed({ kind: "all" });
    const read = await userinfo(signed);
    expect(read.statements).toBe(3);
    expect(cached.statements).toBe(0);
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
   * The answer once it comes from memory again (no statement), whether the person is answered or refused. A
   * change this instance made is first read from the database, so only the answer from memory shows that the old
   * entry was dropped.
   */
  async function fromMemoryAgain(signed: Signed) {
    await expect.poll(async () => (await answer(signed)).statements).toBe(0);
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
    expect(await fromMemoryAgain(signed)).toBe(401);

    const other = await signedInWithTokens();
    expect(await fromMemoryAgain(other)).toBe("Олена Коваленко");
    await test.app.db
      .updateTable("applications")
      .set({ oidc_enabled: false })
      .where("id", "=", other.application.id)
      .execute();
    expect((await answer(other)).result).toBe(401);
    expect(await fromMemoryAgain(other)).toBe(401);
  });

  /**
   * Runs `action` while what the change channel tells the token cache waits (as it does on its way from
   * PostgreSQL, usually a millisecond), then delivers it in order: only the instance's own bookkeeping can
   * refuse a token at once.
   */
  async function announcementsOnTheirWay<T>(action: () => Promise<T>): Promise<T> {
    const cache = test.app.accessTokenCache;
    const held: (() => void)[] = [];
    const changed = cache.changed.bind(cache);
    const markHeard = cache.markHeard.bind(cache);
    cache.changed = (change: CacheChange) => void held.push(() => changed(change));
    cache.markHeard = (mark: number) => void held.push(() => markHeard(mark));
    try {
      return await action();
    } finally {
      cache.changed = changed;
      cache.markHeard = markHeard;
      for (const deliver of held) deliver();
    }
  }

  it("refuses an access token at once once this instance revoked it or ended its grant, and keeps nothing of it", async () => {
    // Signed in first: each new application announces 'all', which would drop what is kept.
    const revoked = await signedInWithTokens();
    const ended = await signedInWithTokens();
    const kept = await signedInWithTokens();
    for (const signed of [revoked, ended, kept]) expect(await fromMemoryAgain(signed)).toBe("Олена Коваленко");

    // The application revokes its token (RFC 7009): the next call, asked straight after, is refused.
    await announcementsOnTheirWay(async () => {
      await client.tokenRevocation(revoked.config, revoked.tokens.access_token);
      expect(await answer(revoked)).toEqual({ result: 401, statements: 1 });
    });
    expect(await answer(revoked)).toEqual({ result: 401, statements: 1 });

    // The person's grant ends (the account page's disconnect, a sign-out): the person and their access stay.
    await announcementsOnTheirWay(async () => {
      await revokeOidcGrants(test.app.db, { userId: ended.userId, clientId: ended.application.id });
      expect(await answer(ended)).toEqual({ result: 401, statements: 1 });
    });
    expect(await revokeOidcGrants(test.app.db, { userId: revoked.userId })).toBeGreaterThan(0);

    // Another person's token was touched by none of these: once this instance's own writes are heard back, it is
    // still answered from memory.
    await expect.poll(() => test.app.accessTokenCache.awaitsMark).toBe(false);
    expect(await answer(kept)).toEqual({ result: "Олена Коваленко", statements: 0 });
  });

  it("keeps answering other tokens from memory while this instance's own token writes travel, and drops its own at once", async () => {
    const rotated = await signedInWithTokens();
    const kept = await signedInWithTokens();
    for (const signed of [rotated, kept]) expect(await fromMemoryAgain(signed)).toBe("Олена Коваленко");
    await announcementsOnTheirWay(async () => {
      // A refresh with rotation here: the adapter says what its write changed itself, so nothing waits for the
      // channel (before, every write of the adapter held the whole cache back until heard).
      const refreshed = {
        ...rotated,
        tokens: await client.refreshTokenGrant(rotated.config, rotated.tokens.refresh_token ?? ""),
      };
      expect(test.app.accessTokenCache.awaitsMark).toBe(false);
      expect(await answer(kept)).toEqual({ result: "Олена Коваленко", statements: 0 });
      expect((await answer(refreshed)).result).toBe("Олена Коваленко");
      expect(await answer(refreshed)).toEqual({ result: "Олена Коваленко", statements: 0 });
      // A token revoked (RFC 7009) ends its grant: that token and the grant's other one are refused at once, from
      // the adapter's own word; another person's token is still answered from memory.
      await client.tokenRevocation(rotated.config, rotated.tokens.access_token);
      expect(await answer(rotated)).toEqual({ result: 401, statements: 1 });
      expect(await answer(refreshed)).toEqual({ result: 401, statements: 1 });
      expect(await answer(kept)).toEqual({ result: "Олена Коваленко", statements: 0 });
    });
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
    expect(await fromMemoryAgain(second)).toBe(401);
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

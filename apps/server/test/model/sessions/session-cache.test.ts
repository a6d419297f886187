import type { CurrentUser } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { cacheChannel } from "../../../src/platform/cache/feed.ts";
import { openDatabase } from "../../../src/platform/db/index.ts";
import { createTestApp, postJson, type TestApp, testConfig } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, manualClock, signIn } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";

const password = "cache test passphrase";

/** GET /user with the cookie, and how many statements the request sent to the database. */
async function userWithStatements(app: FastifyInstance, cookie: string) {
  let statements = 0;
  const stop = app.database.onStatement(() => {
    statements += 1;
  });
  try {
    const response = await app.inject({ url: "/user", headers: { cookie } });
    return { status: response.statusCode, body: response.json<CurrentUser>(), statements };
  } finally {
    stop();
  }
}

/**
 * After a write to what a cached answer holds (a sign-in is one), the instance serves nothing from memory until
 * it has heard its own change back on the channel, a moment later: a repeat is answered from memory once it has.
 */
async function answeredFromMemory(app: FastifyInstance, cookie: string) {
  await expect.poll(async () => (await userWithStatements(app, cookie)).statements).toBe(0);
  return userWithStatements(app, cookie);
}

describe.each(databaseKinds)("GET /user from the instance's memory on %s", (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
  });
  afterAll(() => t.close());

  async function signedInPerson(username: string) {
    const person = await addPerson(t.app, { username, fullName: "Оксана Мельник" }, password);
    return { person, cookie: await signIn(t.app, username, password) };
  }

  it("answers a session asked again without reading the database, with the same answer", async () => {
    const { cookie } = await signedInPerson("cache.again");
    const first = await userWithStatements(t.app, cookie);
    const again = await answeredFromMemory(t.app, cookie);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(first.statements).toBeGreaterThan(0);
    expect(again.body).toEqual(first.body);
  });

  it("answers 401 at once after the person signs out", async () => {
    const { cookie } = await signedInPerson("cache.signout");
    expect((await answeredFromMemory(t.app, cookie)).status).toBe(200);
    expect((await postJson(t.app, "/api/auth/logout", {}, { headers: { cookie } })).statusCode).toBe(200);
    expect((await userWithStatements(t.app, cookie)).status).toBe(401);
  });

  it("follows a change this instance writes at once: new application, new name, disabled person", async () => {
    const { person, cookie } = await signedInPerson("cache.changes");
    expect((await answeredFromMemory(t.app, cookie)).body.applications).toEqual([]);
    const application = await addApplication(t.app);
    await grantAccess(t.app.db, person.id, application.application.id);
    expect((await userWithStatements(t.app, cookie)).body.applications.map((app) => app.id)).toEqual([
      application.application.id,
    ]);
    await t.app.db.updateTable("users").set({ full_name: "Оксана Коваль" }).where("id", "=", person.id).execute();
    expect((await userWithStatements(t.app, cookie)).body.fullName).toBe("Оксана Коваль");
    await t.app.db.updateTable("users").set({ status: "disabled" }).where("id", "=", person.id).execute();
    expect((await userWithStatements(t.app, cookie)).status).toBe(401);
  });

  it("reads every request when SESSION_CACHE_ENTRIES is 0", async () => {
    const uncached = await createTestApp(kind, { SESSION_CACHE_ENTRIES: "0" }, { protocols: [] });
    try {
      await addPerson(uncached.app, { username: "cache.off", fullName: "Петро Бойко" }, password);
      const cookie = await signIn(uncached.app, "cache.off", password);
      expect(uncached.app.sessionCache.isHearing).toBe(false);
      for (let i = 0; i < 3; i += 1)
        expect((await userWithStatements(uncached.app, cookie)).statements).toBeGreaterThan(0);
      expect(uncached.app.sessionCache.size).toBe(0);
    } finally {
      await uncached.close();
    }
  });
});

describe.each(databaseKinds)("what PostgreSQL announces to every instance on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
  });
  afterAll(() => t.close());

  it("names the session or person a change touches, everything for rules, and nothing for a session's use", async () => {
    const person = await addPerson(t.app, { username: "cache.announced", fullName: "Тарас Ковальчук" }, password);
    await signIn(t.app, "cache.announced", password);
    const application = (await addApplication(t.app)).application;
    const session = await t.app.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", person.id)
      .executeTakeFirstOrThrow();
    const heard: string[] = [];
    const subscription = t.app.database.listen(cacheChannel, {
      message: (payload) => {
        if (!/^(mark|beat):/.test(payload)) heard.push(payload);
      },
      listening: () => {},
    });
    await subscription.ready;
    try {
      const db = t.app.db;
      const steps: [string, () => Promise<unknown>][] = [
        [
          "",
          () =>
            sql`update sessions set last_seen_at = last_seen_at + interval '1 minute', idle_expires_at = idle_expires_at + interval '1 minute' where id = ${session.id}`.execute(
              db,
            ),
        ],
        [
          `session:${session.id}`,
          () => sql`update sessions set amr = '{pwd,mfa}' where id = ${session.id}`.execute(db),
        ],
        [
          `session:${session.id}`,
          () =>
            sql`update sessions set absolute_expires_at = absolute_expires_at - interval '1 hour' where id = ${session.id}`.execute(
              db,
            ),
        ],
        [
          `person:${person.id}`,
          () => sql`update users set full_name = 'Тарас Коваль' where id = ${person.id}`.execute(db),
        ],
        [
          "",
          () =>
            sql`update users set full_name = 'Nobody' where id = '00000000-0000-4000-8000-000000000000'`.execute(db),
        ],
        [`person:${person.id}`, () => grantAccess(db, person.id, application.id)],
        [
          `person:${person.id}`,
          () =>
            sql`insert into access_exclusions (user_id, application_id) values (${person.id}, ${application.id})`.execute(
              db,
            ),
        ],
        [
          `person:${person.id}`,
          () =>
            sql`insert into student_records (user_id, student_id, status, source) values (${person.id}, 'KV-0001', 'studying', 'cli')`.execute(
              db,
            ),
        ],
        [
          "all",
          () =>
            sql`insert into access_rules (application_id, affiliation) values (${application.id}, 'student')`.execute(
              db,
            ),
        ],
        [`session:${session.id}`, () => sql`delete from sessions where id = ${session.id}`.execute(db)],
      ];
      const expected: string[] = [];
      for (const [announced, step] of steps) {
        await step();
        if (announced) expected.push(announced);
        // Each step's announcement (or its absence) is heard before the next step runs.
        await expect.poll(() => heard.length).toBe(expected.length);
      }
      expect(heard).toEqual(expected);
    } finally {
      await subscription.close();
    }
  });
});

describe.each(databaseKinds)("the cached session's lifetime on %s", (kind) => {
  let t: TestApp;
  const clock = manualClock();

  beforeAll(async () => {
    t = await createTestApp(kind, { SESSION_IDLE_TIMEOUT_SECONDS: "300" }, { protocols: [], clock: clock.now });
  });
  afterAll(() => t.close());

  it("still notes the session's use once a minute, and ends an idle session on time", async () => {
    await addPerson(t.app, { username: "cache.idle", fullName: "Ірина Шевчук" }, password);
    const cookie = await signIn(t.app, "cache.idle", password);
    await answeredFromMemory(t.app, cookie);
    clock.advance(61);
    expect((await userWithStatements(t.app, cookie)).statements).toBeGreaterThan(0);
    const seen = await t.app.db.selectFrom("sessions").select("last_seen_at").executeTakeFirstOrThrow();
    expect(seen.last_seen_at.getTime()).toBe(clock.now().getTime());
    await answeredFromMemory(t.app, cookie);
    clock.advance(301);
    expect((await userWithStatements(t.app, cookie)).status).toBe(401);
  });
});

describe.runIf(databaseKinds.includes("postgres"))("two instances on one PostgreSQL database", () => {
  let first: TestApp;
  let second: FastifyInstance;
  let psql: pg.Client;
  let cookie = "";
  let personId = "";
  let applicationId = "";

  beforeAll(async () => {
    first = await createTestApp("postgres", {}, { protocols: [] });
    const url = first.database.url ?? "";
    second = await buildApp({ config: testConfig(), database: await openDatabase({ url, dataDir: "unused" }) });
    await second.ready();
    psql = new pg.Client({ connectionString: url });
    await psql.connect();
    personId = (await addPerson(first.app, { username: "cache.cluster", fullName: "Марія Гнатюк" }, password)).id;
    applicationId = (await addApplication(first.app)).application.id;
  });
  afterAll(async () => {
    await psql.end();
    await second.close();
    await first.close();
  });

  /** The first instance's answer; it hears another's change a moment after its commit. */
  const answerOnFirst = async () => {
    const { status, body } = await userWithStatements(first.app, cookie);
    return status === 200 ? body : status;
  };

  it("drops what the other instance changed: an application granted, then the session ended there", async () => {
    cookie = await signIn(first.app, "cache.cluster", password);
    expect((await answeredFromMemory(first.app, cookie)).body.applications).toEqual([]);
    await grantAccess(second.db, personId, applicationId);
    await expect.poll(async () => ((await answerOnFirst()) as CurrentUser).applications?.length).toBe(1);
    await answeredFromMemory(first.app, cookie);
    expect((await postJson(second, "/api/auth/logout", {}, { headers: { cookie } })).statusCode).toBe(200);
    await expect.poll(answerOnFirst).toBe(401);
  });

  it("drops what another client (psql, the CLI) changed: a person disabled, a session's end brought forward", async () => {
    cookie = await signIn(first.app, "cache.cluster", password);
    await answeredFromMemory(first.app, cookie);
    await psql.query("update users set status = 'disabled' where id = $1", [personId]);
    await expect.poll(answerOnFirst).toBe(401);
    await psql.query("update users set status = 'active' where id = $1", [personId]);
    cookie = await signIn(first.app, "cache.cluster", password);
    await answeredFromMemory(first.app, cookie);
    await psql.query("update sessions set absolute_expires_at = now() - interval '1 second' where user_id = $1", [
      personId,
    ]);
    await expect.poll(answerOnFirst).toBe(401);
  });

  it("reads every request from the database while its listening connection is lost, and listens again", async () => {
    cookie = await signIn(first.app, "cache.cluster", password);
    await answeredFromMemory(first.app, cookie);
    await psql.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'kpi-id change listener' and datname = current_database()",
    );
    await expect.poll(() => first.app.sessionCache.isHearing).toBe(false);
    expect((await userWithStatements(first.app, cookie)).statements).toBeGreaterThan(0);
    await expect.poll(() => first.app.sessionCache.isHearing, { timeout: 10_000 }).toBe(true);
    await answeredFromMemory(first.app, cookie);
  });
});

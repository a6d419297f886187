import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanUpExpired } from "../src/maintenance/cleanup.ts";
import { createTestApp, postJson, type TestApp } from "./support/app.ts";
import { addPerson, manualClock } from "./support/campus.ts";
import { databaseKinds } from "./support/databases.ts";

describe.each(databaseKinds)("background clean-up on %s", (kind) => {
  let t: TestApp;
  const clock = manualClock();

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now });
    await addPerson(t.app, { username: "cleaned", fullName: "Прибрана Особа" }, "cleaned passphrase");
  });
  afterAll(() => t.close());

  it("runs on one instance at a time: while another holds the advisory lock it skips, then it cleans", async () => {
    await postJson(t.app, "/api/auth", { username: "cleaned", password: "cleaned passphrase" });
    clock.advance(3600);
    // Another "instance" holds the lock inside its transaction; the clean-up must not wait for it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const other = t.app.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${0x4b504944})`.execute(trx);
      locked();
      await held;
    });
    await isLocked;
    // PGlite has one connection: the holder's transaction would queue our query, so only PostgreSQL shows the skip.
    if (kind === "postgres") expect(await cleanUpExpired(t.app.db, clock.now())).toBeUndefined();
    release();
    await other;
    const counts = await cleanUpExpired(t.app.db, clock.now());
    expect(counts).toMatchObject({ loginGrants: 1, diiaRequests: 0, oidcPayloads: 0 });
    expect(await cleanUpExpired(t.app.db, clock.now())).toMatchObject({ loginGrants: 0 });
  });
});

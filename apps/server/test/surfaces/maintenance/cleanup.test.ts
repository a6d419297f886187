import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanUpExpired } from "../../../src/model/housekeeping/clean-up.ts";
import { recordAuditEvent } from "../../../src/platform/audit/record.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

describe.each(aboveModelDatabases)("background clean-up on %s", (kind) => {
  let t: TestApp;
  const clock = manualClock();

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["oidc"], clock: clock.now });
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

  it("deletes audit rows past AUDIT_RETENTION_DAYS, keeps younger ones, and keeps everything at 0", async () => {
    const daysAgo = (days: number) => new Date(clock.now().getTime() - days * 24 * 60 * 60 * 1000);
    for (const [days, reason] of [
      [500, "retention-old"],
      [401, "retention-old"],
      [399, "retention-young"],
      [1, "retention-young"],
    ] as const) {
      await recordAuditEvent(t.app.db, { type: "logout", result: "success", reason, occurredAt: daysAgo(days) });
    }
    const left = async (reason: string) =>
      (await t.app.db.selectFrom("audit_events").select("id").where("reason", "=", reason).execute()).length;

    expect(await cleanUpExpired(t.app.db, clock.now(), { auditRetentionDays: 0 })).toMatchObject({ auditEvents: 0 });
    expect(await left("retention-old")).toBe(2);

    expect(await cleanUpExpired(t.app.db, clock.now(), { auditRetentionDays: 400 })).toMatchObject({ auditEvents: 2 });
    expect(await left("retention-old")).toBe(0);
    expect(await left("retention-young")).toBe(2);
  });
});

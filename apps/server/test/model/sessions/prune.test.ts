import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneExpired } from "../../../src/model/sessions/prune.ts";
import { deleteExpiredTickets } from "../../../src/model/tickets/cleanup.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, manualClock, signIn } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";

describe.each(databaseKinds)("pruning expired credentials on %s", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  const password = "prunable passphrase";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: ["tickets"] });
  });
  afterAll(() => t.close());

  const count = async (table: "sessions" | "login_grants" | "tickets" | "throttle_counters") =>
    Number(
      (
        await t.app.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("removes what has expired and keeps a live session working", async () => {
    const person = await addPerson(t.app, { username: "prunable", fullName: "Тимчасова" }, password);
    const { application } = await addApplication(t.app);
    await grantAccess(t.app.db, person.id, application.id);
    const old = await signIn(t.app, "prunable", password);
    await t.app.inject({ url: `/api/app-redirect?appId=${application.id}`, headers: { cookie: old } });
    await postJson(t.app, "/api/auth", { username: "prunable", password });
    await postJson(t.app, "/api/auth", { username: "someone-else", password: "wrong" });
    for (const table of ["sessions", "login_grants", "tickets", "throttle_counters"] as const) {
      expect(await count(table), table).toBeGreaterThan(0);
    }

    clock.advance(t.config.sessions.absoluteTimeoutSeconds);
    const live = await signIn(t.app, "prunable", password);
    const pruned = await pruneExpired(t.app.db, clock.now());
    expect(pruned).toEqual({ sessions: 1, loginGrants: 2, throttleCounters: 2 });
    // The tickets are model/tickets' own (a protocol's), pruned beside the sessions by the clean-up.
    expect(await deleteExpiredTickets(t.app.db, clock.now())).toBe(1);
    expect(await count("tickets")).toBe(0);
    expect((await t.app.inject({ url: "/user", headers: { cookie: live } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: "/user", headers: { cookie: old } })).statusCode).toBe(401);
  });
});

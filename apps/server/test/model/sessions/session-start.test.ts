import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSession } from "../../../src/model/sessions/load.ts";
import { type SessionStart, startSession } from "../../../src/model/sessions/sign-in-statement.ts";
import { findUserById } from "../../../src/model/users/queries.ts";
import { auditRow } from "../../../src/platform/audit/record.ts";
import type { User } from "../../../src/platform/db/schema.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";

const password = "a long passphrase, no rules";
const origin = { ip: "192.0.2.7", userAgent: "Firefox/140.0 (a test)" };

// The model's side of a sign-in takes plain values (issue 58): no request, the caller's address, user agent
// and clock as values; everything it writes lands in one statement.
describe.each(databaseKinds)("starting a session from plain values (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
  });
  afterAll(() => t.close());

  async function person(id: string): Promise<User> {
    const read = await findUserById(t.app.db, id);
    if (!read) throw new Error(`no person ${id}`);
    return read;
  }

  function start(who: User, now: Date, previousToken?: string): SessionStart {
    return {
      person: who,
      session: { userId: who.id, authMethod: "PASSWORD", ...origin },
      previousToken,
      language: "en",
      auditRow: auditRow({
        type: "session_start",
        result: "success",
        authMethod: "PASSWORD",
        userId: who.id,
        ...origin,
        occurredAt: now,
      }),
      waitForDisk: true,
      timeouts: t.config.sessions,
      now,
    };
  }

  it("starts the session, notes the person's first sign-in and language, and writes the audit row", async () => {
    const created = await addPerson(t.app, { username: "first.timer", fullName: "Перша Спроба" }, password);
    const now = new Date("2026-03-02T08:00:00Z");
    const started = await startSession(t.app.db, start(await person(created.id), now));

    expect(started.firstSignIn).toBe(true);
    const session = await loadSession(t.app.db, started.token, t.config.sessions, now);
    expect(session?.id).toBe(started.sessionId);
    expect(session?.userId).toBe(created.id);
    const noted = await person(created.id);
    expect(noted.language).toBe("en");
    expect(noted.first_signed_in_at?.toISOString()).toBe(now.toISOString());
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "result", "ip", "user_agent"])
      .where("user_id", "=", created.id)
      .orderBy("audit_events.id")
      .execute();
    expect(rows).toEqual([
      { event_type: "session_start", result: "success", ip: origin.ip, user_agent: origin.userAgent },
    ]);
  });

  it("ends the session whose token the browser came with, and keeps the first sign-in's time", async () => {
    const created = await addPerson(t.app, { username: "returning.one", fullName: "Та, що вертається" }, password);
    const firstTime = new Date("2026-03-02T08:00:00Z");
    const first = await startSession(t.app.db, start(await person(created.id), firstTime));
    const later = new Date("2026-03-02T09:00:00Z");
    const second = await startSession(t.app.db, start(await person(created.id), later, first.token));

    expect(second.firstSignIn).toBe(false);
    expect(second.token).not.toBe(first.token);
    expect(await loadSession(t.app.db, first.token, t.config.sessions, later)).toBeUndefined();
    expect((await loadSession(t.app.db, second.token, t.config.sessions, later))?.id).toBe(second.sessionId);
    expect((await person(created.id)).first_signed_in_at?.toISOString()).toBe(firstTime.toISOString());
  });
});

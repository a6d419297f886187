import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock, signIn } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";

const student = { username: "o.kovalenko", fullName: "Олена Коваленко", studentId: "KV-2431" };
const password = "a long passphrase, no rules";

// How long a password sign-in's session lives: rotation at sign-in, idle and absolute limits.
describe.each(databaseKinds)("the lifetime of a session on %s", (kind) => {
  let t: TestApp;
  const clock = manualClock();

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: [] });
    await addPerson(t.app, student, password);
  });
  afterAll(() => t.close());

  it("gives a fresh token at every sign-in and drops the session the browser came with", async () => {
    const before = await signIn(t.app, student.username, password);
    const after = await signIn(t.app, student.username, password, { cookie: before });
    expect(after).not.toBe(before);
    expect((await t.app.inject({ url: "/user", headers: { cookie: before } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/user", headers: { cookie: after } })).statusCode).toBe(200);
  });

  it("ends a session after the idle timeout, and keeps an active one alive until the absolute limit", async () => {
    const { idleTimeoutSeconds, absoluteTimeoutSeconds } = t.config.sessions;
    const idle = await signIn(t.app, student.username, password);
    const active = await signIn(t.app, student.username, password);
    let elapsed = 0;
    while (elapsed + idleTimeoutSeconds / 2 < absoluteTimeoutSeconds) {
      clock.advance(idleTimeoutSeconds / 2);
      elapsed += idleTimeoutSeconds / 2;
      expect((await t.app.inject({ url: "/user", headers: { cookie: active } })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ url: "/user", headers: { cookie: idle } })).statusCode).toBe(401);
    clock.advance(idleTimeoutSeconds / 2);
    expect((await t.app.inject({ url: "/user", headers: { cookie: active } })).statusCode).toBe(401);
  });
});

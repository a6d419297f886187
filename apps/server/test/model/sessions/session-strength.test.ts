import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSession } from "../../../src/model/sessions/load.ts";
import { createSession } from "../../../src/model/sessions/store.ts";
import {
  isMultiFactor,
  passkeyStrength,
  passwordAndCode,
  requireStrongSession,
  sessionAmr,
} from "../../../src/model/sessions/strength.ts";
import { hasCode } from "../../../src/platform/errors.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";

const hour = 3600;

describe.each(databaseKinds)("the strength of a session (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: [] });
    userId = (await addPerson(t.app, { username: "strong", fullName: "Сильна Людина" }, "a long passphrase")).id;
  });
  afterAll(() => t.close());

  async function startSession(authMethod: "PASSWORD" | "DIIA" | "GOOGLE", amr?: readonly string[]) {
    const { token } = await createSession(t.app.db, { userId, authMethod, amr }, t.config.sessions, clock.now());
    const session = await loadSession(t.app.db, token, t.config.sessions, clock.now());
    if (!session) throw new Error("the new session did not load");
    return { token, session };
  }

  const stepUpRefusal = (check: () => void) => {
    try {
      check();
    } catch (error) {
      return hasCode(error, "auth.step_up_required") ? error.status : error;
    }
    return "allowed";
  };

  it("a password alone is one factor: 403 auth.step_up_required where a strong session is needed", async () => {
    const { session } = await startSession("PASSWORD");
    expect(sessionAmr(session)).toEqual(["pwd"]);
    expect(isMultiFactor(session)).toBe(false);
    expect(stepUpRefusal(() => requireStrongSession(session, hour, clock.now()))).toBe(403);
  });

  it("Google is one factor; Diia is strong on its own", async () => {
    const google = (await startSession("GOOGLE")).session;
    expect(isMultiFactor(google)).toBe(false);
    const diia = (await startSession("DIIA")).session;
    expect(sessionAmr(diia)).toContain("mfa");
    expect(sessionAmr(diia)).toContain("diia");
    expect(stepUpRefusal(() => requireStrongSession(diia, hour, clock.now()))).toBe("allowed");
  });

  it("a password with a code, or a passkey, is multi-factor, and stays strong for the age asked only", async () => {
    const { session } = await startSession("PASSWORD", passwordAndCode);
    expect(sessionAmr(session)).toEqual(["pwd", "otp", "mfa"]);
    expect(sessionAmr((await startSession("PASSWORD", passkeyStrength(true))).session)).toEqual(["hwk", "user", "mfa"]);
    expect(stepUpRefusal(() => requireStrongSession(session, hour, clock.now()))).toBe("allowed");
    clock.advance(hour + 1);
    expect(stepUpRefusal(() => requireStrongSession(session, hour, clock.now()))).toBe(403);
  });

  it("a session's strong proof is its sign-in's, dated when it started", async () => {
    const started = clock.now().getTime();
    const { session: weak } = await startSession("PASSWORD");
    expect(weak.strongAt).toBeNull();
    const { session: strong } = await startSession("PASSWORD", passwordAndCode);
    expect(strong.strongAt?.getTime()).toBe(started);
    expect(strong.createdAt.getTime()).toBe(started);
  });
});

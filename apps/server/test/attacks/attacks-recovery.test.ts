import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../sandbox/src/mail/index.ts";
import { throttlePolicy } from "../../src/platform/throttle/policy.ts";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { addPersonWithVerifiedEmail, startTestMail } from "../support/mail.ts";

/** Issue 16: attacks on "Forgot password?": guessing links, bombing a mailbox, taking over with a link. */
describe.each(aboveModelDatabases)("recovery attacks (%s)", (kind) => {
  let test: TestApp;
  let mail: RunningMailStandIn;

  beforeAll(async () => {
    mail = await startTestMail();
    test = await createTestApp(kind, { SMTP_URL: mail.smtpUrl, TRUST_PROXY: "true" });
    await addPersonWithVerifiedEmail(
      test.app,
      { username: "v.victim", fullName: "Віктор Жертва", email: "viktor@kpi.ua" },
      "a walk along the dnipro",
    );
  });
  afterAll(async () => {
    await test?.close();
    await mail?.close();
  });

  it("guessed reset tokens (random, empty-looking, oversized) are refused with one code, never a 500", async () => {
    const guesses = [
      ...Array.from({ length: 100 }, () => randomBytes(32).toString("base64url")),
      "a",
      "0".repeat(43),
      "%00",
    ];
    const statuses = new Map<number, number>();
    for (const token of guesses) {
      const answer = await postJson(test.app, "/api/recovery/reset", { token, newPassword: "lanterns over podil" });
      statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
      expect(answer.json().code).toBe("recovery.link_invalid");
    }
    const oversized = await postJson(test.app, "/api/recovery/reset", { token: "x".repeat(129), newPassword: "x" });
    expect(oversized.statusCode).toBe(400);
    console.log(`attacks: ${guesses.length} guessed reset tokens → ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect([...statuses.keys()]).toEqual([400]);
  });

  it("bombing one mailbox from many addresses sends at most the per-address allowance of links", async () => {
    const before = mail.inbox.messages.length;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const answer = await postJson(
        test.app,
        "/api/recovery/email",
        { email: i % 2 ? "VIKTOR@kpi.ua" : " viktor@kpi.ua " },
        { headers: { "x-forwarded-for": `10.99.0.${i + 1}` } },
      );
      statuses.push(answer.statusCode);
    }
    const allowed = statuses.filter((status) => status === 200).length;
    console.log(`attacks: 30 reset requests for one mailbox from 30 addresses → ${allowed} accepted`);
    expect(allowed).toBe(throttlePolicy.recoveryMail.freeFailures + 1);
    await mail.inbox.waitFor((message) => message.to.includes("viktor@kpi.ua"), before);
    // Every accepted request sends at most one link; the rest wait.
    const links = () => mail.inbox.to("viktor@kpi.ua").length;
    expect(links()).toBeLessThanOrEqual(allowed);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../sandbox/src/diia/index.ts";
import { demoPeople } from "../../src/surfaces/seed/demo-data.ts";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { addPerson, sessionCookieFrom } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { askForDeepLink, person, pollDiia, postSignedCallback, startTestDiia } from "../support/diia.ts";

const victim = demoPeople[0] ?? { username: "student", fullName: "", taxId: "" };

describe.each(aboveModelDatabases)("Diia attacks on %s", (kind) => {
  let t: TestApp;
  let diia: RunningDiiaStandIn;

  beforeAll(async () => {
    diia = await startTestDiia();
    t = await createTestApp(kind, diia.env);
    await addPerson(
      t.app,
      { username: victim.username, fullName: victim.fullName, taxId: victim.taxId },
      "a passphrase",
    );
  });
  afterAll(async () => {
    await t.close();
    await diia.close();
  });

  it("a leaked request id (a log line, a screenshot of the page): the attacker polls it from their own browser and gets nothing", async () => {
    const victimsBrowser = await askForDeepLink(t.app, "", "198.51.100.7");
    // The attacker has a binding of their own (they asked for a deep link too) and none at all.
    const attackersBrowser = (await askForDeepLink(t.app, "", "203.0.113.66")).cookie;
    const attackerPolls = async () =>
      Promise.all(["", attackersBrowser].map((cookie) => pollDiia(t.app, victimsBrowser.requestId, cookie)));

    const before = await attackerPolls();
    // The victim confirms on the phone; the attacker keeps polling, racing the victim's browser.
    expect((await postSignedCallback(t.app, victimsBrowser.requestId, person(diia, victim.username))).statusCode).toBe(
      200,
    );
    const after = await attackerPolls();
    const attackerAnswers = [...before, ...after];
    console.log(
      `attacks: leaked Diia request id, ${attackerAnswers.length} polls without the asking browser's cookie → ` +
        JSON.stringify(attackerAnswers.map((answer) => answer.statusCode)),
    );
    for (const answer of attackerAnswers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json().code).toBe("diia.request_not_found");
      expect(answer.body).not.toContain("sessionId");
    }
    // The grant waited for the victim's browser, and signs the victim in there.
    const polled = await pollDiia(t.app, victimsBrowser.requestId, victimsBrowser.cookie);
    const grant = polled.json().sessionId as string;
    expect(grant).toEqual(expect.any(String));
    const session = sessionCookieFrom(await postJson(t.app, "/api/auth/internal", { sessionId: grant }));
    const me = await t.app.inject({ url: "/user", headers: { cookie: session } });
    expect(me.json().fullName).toBe(victim.fullName);
  });

  it("a leaked request id of an integration's cookie-less server-side sign-in: polled from elsewhere, it gives nothing", async () => {
    // The integration's server: plain HTTP, no cookie jar, no Origin or Sec-Fetch-* headers.
    const integration = "192.0.2.40";
    const asked = await t.app.inject({ url: "/api/diia/app-link", remoteAddress: integration });
    const { requestId } = asked.json() as { requestId: string };
    await postSignedCallback(t.app, requestId, person(diia, victim.username));
    const attackerCookie = (await askForDeepLink(t.app, "", "203.0.113.66")).cookie;
    const attempts = [
      { remoteAddress: "203.0.113.66", headers: {} },
      { remoteAddress: "203.0.113.66", headers: { cookie: attackerCookie } },
      // The integration's address with a cookie: a cookie must be the asking browser's, and this one is not.
      { remoteAddress: integration, headers: { cookie: attackerCookie } },
    ];
    const answers = await Promise.all(
      attempts.map((attempt) => t.app.inject({ url: `/api/diia/check-request?requestId=${requestId}`, ...attempt })),
    );
    console.log(`attacks: leaked server-side Diia request id → ${JSON.stringify(answers.map((a) => a.statusCode))}`);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.body).not.toContain("sessionId");
    }
    const own = await t.app.inject({
      url: `/api/diia/check-request?requestId=${requestId}`,
      remoteAddress: integration,
    });
    expect(own.json()).toEqual({ status: "Finished", sessionId: expect.any(String) });
  });
});

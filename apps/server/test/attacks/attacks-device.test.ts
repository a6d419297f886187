import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { throttlePolicy } from "../../src/platform/throttle/policy.ts";
import type { TestApp } from "../support/app.ts";
import { addPerson, grantAccess } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { type DeviceClient, DevicePage, deviceOf, idTokenSubject, TestBrowser } from "../support/device.ts";
import { createListeningTestApp } from "../support/listening.ts";
import { addOidcClient } from "../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "correct horse battery";

/** Attacks on the device authorization grant (RFC 8628 §5): guessing codes, other people's sessions, replays. */
describe.each(aboveModelDatabases)("attacks on the device sign-in (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let deviceClient: DeviceClient;
  const people: Record<string, string> = {};

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind));
    const device = await addOidcClient(test.app, { redirectUris: [redirectUri], deviceFlow: true });
    deviceClient = { id: device.application.id, secret: device.secret };
    for (const username of ["g.guess", "v.victim", "o.other"]) {
      const person = await addPerson(test.app, { username, fullName: username, email: `${username}@kpi.ua` }, password);
      people[username] = person.id;
      await grantAccess(test.app.db, person.id, deviceClient.id);
    }
  });
  afterAll(() => test?.close());

  async function pageOf(username: string) {
    const browser = new TestBrowser(origin);
    await browser.signIn(username, password);
    return new DevicePage(browser);
  }

  it("slows a person guessing user codes down, without a lock, and leaves other people's codes alone", async () => {
    const guesser = await pageOf("g.guess");
    const { body: real } = await deviceOf(issuer, deviceClient).askForCode();
    const free = throttlePolicy.deviceCodePerson.freeFailures;
    for (let guess = 0; guess < free + 1; guess += 1) {
      const wrong = await guesser.lookUp(`9999-00${String(guess).padStart(2, "0")}`);
      expect(wrong.body.code).toBe("device.code_not_found");
    }
    // Now even the right code waits: a guesser cannot tell a hit from a wait.
    const held = await guesser.lookUp(real.user_code);
    expect(held.status).toBe(429);
    expect(held.body.code).toBe("device.too_many_attempts");
    const form = await guesser.form();
    const waited = await guesser.post({ xsrf: form.body.xsrf, user_code: real.user_code });
    expect(Number(waited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(waited.headers.get("retry-after"))).toBeLessThanOrEqual(
      throttlePolicy.deviceCodePerson.maxDelaySeconds,
    );
    expect(throttlePolicy.deviceCodePerson).not.toHaveProperty("lock");
    // Someone else, from the same address, is not held by the guesser's failures.
    const owner = await pageOf("v.victim");
    expect((await owner.lookUp(real.user_code)).status).toBe(200);
  });

  it("refuses a person who is not signed in, before any code is looked up", async () => {
    const { body: real } = await deviceOf(issuer, deviceClient).askForCode();
    const stranger = new DevicePage(new TestBrowser(origin));
    const response = await stranger.post({ user_code: real.user_code });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe("auth.not_authenticated");
  });

  it("keeps a code one person allowed from being answered by another person's session", async () => {
    const device = deviceOf(issuer, deviceClient);
    const { body: code } = await device.askForCode();
    const victim = await pageOf("v.victim");
    const other = await pageOf("o.other");
    const looked = await victim.lookUp(code.user_code);
    // The victim's form token is no good in another browser.
    const stolen = await other.post({ xsrf: looked.body.xsrf, user_code: code.user_code, confirm: "yes" }, "text/html");
    expect(new URL(stolen.headers.get("location") ?? "", origin).searchParams.get("error")).toBe("device.form_expired");
    expect((await victim.answer(code.user_code, "confirm")).searchParams.get("result")).toBe("allowed");
    // Once allowed, the other person can neither allow it again nor deny it.
    expect((await other.lookUp(code.user_code)).body.code).toBe("device.code_used");
    const tokens = await device.poll(code.device_code);
    expect(idTokenSubject(tokens.body.id_token)).toBe(people["v.victim"]);
  });

  it("gives tokens for a device code once: the second exchange is invalid_grant", async () => {
    const device = deviceOf(issuer, deviceClient);
    const { body: code } = await device.askForCode();
    await (await pageOf("v.victim")).answer(code.user_code, "confirm");
    expect((await device.poll(code.device_code)).status).toBe(200);
    const again = await device.poll(code.device_code);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
  });

  it("refuses an application without the opt-in both a code and another application's device code", async () => {
    const web = await addOidcClient(test.app, { redirectUris: [redirectUri] });
    const webDevice = deviceOf(issuer, { id: web.application.id, secret: web.secret });
    expect((await webDevice.askForCode()).status).toBe(400);
    const { body: code } = await deviceOf(issuer, deviceClient).askForCode();
    await (await pageOf("v.victim")).answer(code.user_code, "confirm");
    const borrowed = await webDevice.poll(code.device_code);
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.access_token).toBeUndefined();
    // oidc-provider refuses the grant type itself for a client not registered with it (invalid_request).
    expect(borrowed.body.error).toBe("invalid_request");
  });

  it("answers a cross-site post of the confirm form (no form token) with the page's error, and the code stays unanswered", async () => {
    const device = deviceOf(issuer, deviceClient);
    const { body: code } = await device.askForCode();
    const victim = await pageOf("v.victim");
    await victim.form();
    const forged = await victim.browser.request("/oidc/device", {
      method: "POST",
      headers: {
        accept: "text/html",
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site",
      },
      body: new URLSearchParams({ user_code: code.user_code, confirm: "yes" }),
    });
    expect(forged.status).toBe(303);
    expect(new URL(forged.headers.get("location") ?? "", origin).searchParams.get("error")).toBe("device.form_expired");
    expect((await device.poll(code.device_code)).body.error).toBe("authorization_pending");
    expect((await victim.lookUp(code.user_code)).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetworkPassword } from "../../src/model/wifi/passwords.ts";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { addPerson, manualClock, signIn } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { papAuthenticate, radiusCall, testRadiusSecret } from "../support/radius.ts";

/**
 * Attacks on Wi-Fi (issue 61): FreeRADIUS's endpoint without its secret, guessing network passwords from a
 * stranger's device (the owner's known device still gets in), one person's device password used under another
 * name, a post-auth that names someone else's password, and the account page's limits.
 */
describe.each(aboveModelDatabases)("attacks on Wi-Fi passwords (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  const owner = { username: "owner", password: "owner's long passphrase" };
  let ownerId = "";
  let ownerWifi = { id: "", password: "", device: "" };
  const ownerPhone = "AA-BB-CC-00-00-01";
  const stranger = "DE-AD-BE-EF-00-01";

  beforeAll(async () => {
    t = await createTestApp(kind, { RADIUS_REST_SECRET: testRadiusSecret }, { clock: clock.now });
    ownerId = (await addPerson(t.app, { username: owner.username, fullName: "Owner" }, owner.password)).id;
    await addPerson(t.app, { username: "other", fullName: "Other" }, "other's long passphrase");
    ownerWifi = await createNetworkPassword(t.app.db, t.config.sessionSecrets, ownerId, "Phone", clock.now());
  });
  afterAll(() => t.close());

  const pap = (userName: string, password: string, station: string) =>
    papAuthenticate(t.app, userName, password, station);
  const postAuth = (userName: string, passwordId: string, station: string) =>
    radiusCall(t.app, "postAuth", {
      "User-Name": userName,
      "KPI-ID-Network-Password": passwordId,
      "Calling-Station-Id": station,
    });

  it("answers nobody without RADIUS_REST_SECRET: missing, wrong or longer secrets are refused alike", async () => {
    const attributes = { "User-Name": "owner@kpi.ua", "User-Password": ownerWifi.password };
    for (const secret of [null, "", "wrong", `${testRadiusSecret}x`, testRadiusSecret.slice(0, -1)]) {
      const response = await radiusCall(t.app, "authenticate", attributes, { secret });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe("radius.unauthorized");
    }
    const off = await createTestApp(kind);
    try {
      const response = await radiusCall(off.app, "authenticate", attributes);
      expect(response.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it("the owner's phone, known from an earlier sign-in, still gets in while a stranger's guesses hold the name", async () => {
    expect((await pap("owner@kpi.ua", ownerWifi.password, ownerPhone)).statusCode).toBe(200);
    expect((await postAuth("owner@kpi.ua", ownerWifi.id, ownerPhone)).statusCode).toBe(200);
    for (let guess = 0; guess < 12; guess++) {
      expect((await pap("owner@kpi.ua", `guess-${guess}`, stranger)).statusCode).toBe(401);
    }
    // Even the right password waits from a new device now; the owner's known phone is counted apart.
    expect((await pap("owner@kpi.ua", ownerWifi.password, "02-00-00-00-00-99")).statusCode).toBe(401);
    expect((await pap("owner@kpi.ua", ownerWifi.password, ownerPhone)).statusCode).toBe(200);
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select("reason")
      .where("event_type", "=", "wifi_sign_in")
      .where("result", "=", "failure")
      .orderBy("audit_events.id")
      .execute();
    expect(rows.map((row) => row.reason)).toContain("throttled");
    clock.advance(60 * 60 + 16 * 60);
  });

  it("a device password answers only under its owner's name, and only in our realm", async () => {
    expect((await pap("other@kpi.ua", ownerWifi.password, ownerPhone)).statusCode).toBe(401);
    expect((await pap(`other+${ownerWifi.device}@kpi.ua`, ownerWifi.password, ownerPhone)).statusCode).toBe(401);
    expect((await pap("owner@other.example", ownerWifi.password, ownerPhone)).statusCode).toBe(401);
    const peap = await radiusCall(t.app, "authorize", { "User-Name": `other+${ownerWifi.device}@kpi.ua` });
    expect(peap.statusCode).toBe(401);
    expect(peap.body).not.toContain("NT-Password");
  });

  it("post-auth cannot record, nor get answers for, another person's password", async () => {
    const response = await postAuth("other@kpi.ua", ownerWifi.id, ownerPhone);
    expect(response.statusCode).toBe(403);
  });

  it("the account page: a stale sign-in cannot create, another person's password cannot be revoked, ten at most", async () => {
    const cookie = await signIn(t.app, owner.username, owner.password);
    clock.advance(t.config.reauthMaxAgeSeconds + 1);
    const stale = await postJson(t.app, "/api/account/wifi", { name: "Late" }, { headers: { cookie } });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe("auth.reauth_required");

    const otherCookie = await signIn(t.app, "other", "other's long passphrase");
    const foreign = await postJson(t.app, `/api/account/wifi/${ownerWifi.id}/revoke`, undefined, {
      headers: { cookie: otherCookie },
    });
    expect(foreign.statusCode).toBe(404);

    const fresh = await signIn(t.app, owner.username, owner.password);
    const made = [];
    for (let n = 1; n < 10; n++) {
      made.push(await postJson(t.app, "/api/account/wifi", { name: `Device ${n}` }, { headers: { cookie: fresh } }));
    }
    expect(made.every((response) => response.statusCode === 200)).toBe(true);
    const eleventh = await postJson(t.app, "/api/account/wifi", { name: "One more" }, { headers: { cookie: fresh } });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json().code).toBe("wifi.limit_reached");
    // The list never carries a secret.
    const list = await t.app.inject({ method: "GET", url: "/api/account/wifi", headers: { cookie: fresh } });
    expect(list.body).not.toContain(ownerWifi.password);
    expect(list.body).not.toMatch(/hash/i);
  });
});

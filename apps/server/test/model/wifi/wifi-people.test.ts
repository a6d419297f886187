import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetworkPassword } from "../../../src/model/wifi/passwords.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { addOperator } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";
import { papAuthenticate, radiusCall, testRadiusSecret } from "../../support/radius.ts";

/**
 * Who may use Wi-Fi (issue 61): an operator's "Wi-Fi off" and a disabled person are refused at the next
 * authentication; the sign-in throttle's lock, which strangers' guesses put on a name, never stops the owner's Wi-Fi.
 */
describe.each(databaseKinds)("whose Wi-Fi works (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  const passphrase = "a person's long passphrase";
  // Each person's own phone: one device refused for several names would be held by the per-device throttle.
  const phones = new Map<string, string>();
  const phoneOf = (username: string) => {
    if (!phones.has(username)) phones.set(username, `AA-BB-CC-00-00-${String(phones.size + 10)}`);
    return phones.get(username) ?? "";
  };

  beforeAll(async () => {
    t = await createTestApp(
      kind,
      { RADIUS_REST_SECRET: testRadiusSecret },
      { clock: clock.now, protocols: ["radius"] },
    );
  });
  afterAll(() => t.close());

  async function personWithWifi(username: string) {
    const person = await addPerson(t.app, { username, fullName: username }, passphrase);
    const wifi = await createNetworkPassword(t.app.db, t.config.sessionSecrets, person.id, "Phone", clock.now());
    return { person, wifi };
  }
  const pap = (username: string, password: string, station = phoneOf(username)) =>
    papAuthenticate(t.app, `${username}@kpi.ua`, password, station);
  const lastRefusal = async (userId: string) =>
    (
      await t.app.db
        .selectFrom("audit_events")
        .select("reason")
        .where("event_type", "=", "wifi_sign_in")
        .where("user_id", "=", userId)
        .where("result", "=", "failure")
        .orderBy("id", "desc")
        .executeTakeFirst()
    )?.reason;

  it("the console's Wi-Fi off refuses every password of the person (wifi_off); on lets them in again", async () => {
    const { person, wifi } = await personWithWifi("switched");
    const helpdesk = await addOperator(t.app, ["helpdesk"]);
    const console = (action: "off" | "on") =>
      postJson(t.app, `/api/admin/people/${person.id}/wifi/${action}`, {}, { headers: { cookie: helpdesk.cookie } });
    expect((await pap("switched", wifi.password)).statusCode).toBe(200);

    expect((await console("off")).statusCode).toBe(200);
    expect((await pap("switched", wifi.password)).statusCode).toBe(401);
    expect(await lastRefusal(person.id)).toBe("wifi_off");
    const peap = await radiusCall(t.app, "authorize", { "User-Name": `switched+${wifi.device}@kpi.ua` });
    expect(peap.statusCode).toBe(401);
    expect(peap.body).not.toContain("NT-Password");
    // A device that passed the inner check just before is not recorded nor answered a VLAN either.
    const late = await radiusCall(t.app, "postAuth", {
      "User-Name": "switched@kpi.ua",
      "KPI-ID-Network-Password": wifi.id,
    });
    expect(late.statusCode).toBe(403);
    const page = await t.app.inject({
      url: `/api/admin/people/${person.id}/wifi`,
      headers: { cookie: helpdesk.cookie },
    });
    expect(page.json()).toMatchObject({ wifiOff: true });

    expect((await console("on")).statusCode).toBe(200);
    expect((await pap("switched", wifi.password)).statusCode).toBe(200);
  });

  it("a person disabled by an operator is refused at once (person_disabled), and again once enabled", async () => {
    const { person, wifi } = await personWithWifi("disabled.one");
    expect((await pap("disabled.one", wifi.password)).statusCode).toBe(200);
    expect((await runCliOn(t.database.handle, ["user", "disable", "--username", "disabled.one"])).code).toBe(0);
    expect((await pap("disabled.one", wifi.password)).statusCode).toBe(401);
    expect(await lastRefusal(person.id)).toBe("person_disabled");
    expect((await runCliOn(t.database.handle, ["user", "enable", "--username", "disabled.one"])).code).toBe(0);
    expect((await pap("disabled.one", wifi.password)).statusCode).toBe(200);
  });

  it("a stranger's guesses at the KPI ID password lock its sign-in, but not the owner's Wi-Fi", async () => {
    const { person, wifi } = await personWithWifi("guessed.at");
    for (let guess = 0; guess < 12; guess++) {
      await postJson(
        t.app,
        "/api/auth",
        { username: "guessed.at", password: `guess ${guess}` },
        {
          remoteAddress: "203.0.113.66",
        },
      );
    }
    // The sign-in is locked for browsers that never signed in to the account, the right password too...
    const locked = await postJson(
      t.app,
      "/api/auth",
      { username: "guessed.at", password: passphrase },
      {
        remoteAddress: "198.51.100.7",
      },
    );
    expect(locked.statusCode).toBe(429);
    const lock = await t.app.db
      .selectFrom("throttle_counters")
      .select("blocked_until")
      .where("blocked_until", ">", clock.now())
      .execute();
    expect(lock.length).toBeGreaterThan(0);
    // ...while the network password still works, from the owner's phone and from a device never seen before.
    expect((await pap("guessed.at", wifi.password)).statusCode).toBe(200);
    expect((await pap("guessed.at", wifi.password, "02-00-00-00-00-42")).statusCode).toBe(200);
    expect(await lastRefusal(person.id)).toBeUndefined();
  });
});

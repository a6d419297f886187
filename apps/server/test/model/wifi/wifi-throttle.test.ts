import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetworkPassword } from "../../../src/model/wifi/passwords.ts";
import { throttlePolicy } from "../../../src/platform/throttle/policy.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { papAuthenticate, radiusCall, testRadiusSecret } from "../../support/radius.ts";

/**
 * Wi-Fi's throttle settles a success the way a sign-in does (issue 61): an accepted sign-in (post-auth) starts the
 * owner's own counters (the name, or the known device) again from zero, so the owner's earlier typos are not held
 * against them for an hour, while a stranger's guesses from another device still never lock the known device out.
 */
describe.each(databaseKinds)("Wi-Fi throttle after a success (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let wifi = { id: "", password: "", device: "" };
  const phone = "AA-BB-CC-00-07-01";
  const laptop = "AA-BB-CC-00-07-02";
  const stranger = "DE-AD-BE-EF-07-01";

  beforeAll(async () => {
    t = await createTestApp(
      kind,
      { RADIUS_REST_SECRET: testRadiusSecret },
      { clock: clock.now, protocols: ["radius"] },
    );
    const person = await addPerson(t.app, { username: "typist", fullName: "Typist" }, "typist's long passphrase");
    wifi = await createNetworkPassword(t.app.db, t.config.sessionSecrets, person.id, "Phone", clock.now());
  });
  afterAll(() => t.close());

  const pap = async (password: string, station: string) =>
    (await papAuthenticate(t.app, "typist@kpi.ua", password, station)).statusCode;
  const signIn = async (station: string) => {
    expect(await pap(wifi.password, station)).toBe(200);
    const accepted = await radiusCall(t.app, "postAuth", {
      "User-Name": "typist@kpi.ua",
      "KPI-ID-Network-Password": wifi.id,
      "Calling-Station-Id": station,
    });
    expect(accepted.statusCode).toBe(200);
  };
  const reasons = async () =>
    (
      await t.app.db
        .selectFrom("audit_events")
        .select("reason")
        .where("event_type", "=", "wifi_sign_in")
        .where("result", "=", "failure")
        .orderBy("audit_events.id")
        .execute()
    ).map((row) => row.reason);

  it("a new device: the owner's typos before a success are forgotten, not held for an hour", async () => {
    // The free failures of the name's rule, then the right password, twice over: never a wait (the clock stands).
    const typos = throttlePolicy.account.freeFailures;
    for (let n = 0; n < typos; n++) expect(await pap(`typo-${n}`, laptop)).toBe(401);
    await signIn(laptop);
    // The laptop is known now (counted by itself); a second laptop is not, and its typos count on the name again.
    const second = "AA-BB-CC-00-07-03";
    for (let n = 0; n < typos; n++) expect(await pap(`again-${n}`, second)).toBe(401);
    await signIn(second);
    expect(await reasons()).not.toContain("throttled");
  });

  it("a known device: a success clears its own count, so the owner can mistype again without waiting", async () => {
    await signIn(phone);
    const typos = throttlePolicy.device.freeFailures;
    for (let round = 0; round < 3; round++) {
      for (let n = 0; n < typos; n++) expect(await pap(`typo-${round}-${n}`, phone)).toBe(401);
      await signIn(phone);
    }
    expect(await reasons()).not.toContain("throttled");
  });

  it("a stranger's guesses hold the name for other devices, never the owner's phone, and the phone's success frees nobody else", async () => {
    const lock = throttlePolicy.account.lock.afterFailures;
    for (let guess = 0; guess < lock + 2; guess++) expect(await pap(`guess-${guess}`, stranger)).toBe(401);
    expect(await reasons()).toContain("throttled");
    // The owner's known phone: typos, then the right password, all while the name is held.
    for (let n = 0; n < throttlePolicy.device.freeFailures; n++) expect(await pap(`mine-${n}`, phone)).toBe(401);
    await signIn(phone);
    // The phone's success settled the phone's count only: the name stays held for the stranger, right password or not.
    expect(await pap(wifi.password, stranger)).toBe(401);
    expect(await pap(wifi.password, "02-00-00-00-07-99")).toBe(401);
  });
});

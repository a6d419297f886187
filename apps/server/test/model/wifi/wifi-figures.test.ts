import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetworkPassword } from "../../../src/model/wifi/passwords.ts";
import { turnWifiOff } from "../../../src/model/wifi/people.ts";
import { wifiFigures } from "../../../src/model/wifi/stats.ts";
import { recordAuditEvent } from "../../../src/platform/audit/record.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { papAuthenticate, radiusCall, testRadiusSecret } from "../../support/radius.ts";

const dayMs = 24 * 60 * 60 * 1000;

/** What operators see of Wi-Fi (issue 61, point 4): sign-ins per day, refusals by reason, and the metric. */
describe.each(databaseKinds)("operators' Wi-Fi figures (%s)", (kind) => {
  let t: TestApp;
  // Mid-day, so "two days ago" and "today" are whole UTC days apart whatever runs first.
  const clock = manualClock(new Date("2026-03-10T12:00:00Z"));
  const wifi = { id: "", password: "" };

  beforeAll(async () => {
    t = await createTestApp(
      kind,
      { RADIUS_REST_SECRET: testRadiusSecret },
      { clock: clock.now, protocols: ["radius"] },
    );
    const counted = await addPerson(t.app, { username: "counted", fullName: "Counted" }, "counted passphrase");
    Object.assign(
      wifi,
      await createNetworkPassword(t.app.db, t.config.sessionSecrets, counted.id, "Phone", clock.now()),
    );
    const off = await addPerson(t.app, { username: "switched.off", fullName: "Off" }, "switched-off passphrase");
    await createNetworkPassword(t.app.db, t.config.sessionSecrets, off.id, "Phone", clock.now());
    await turnWifiOff(t.app.db, off.id, undefined, clock.now());
  });
  afterAll(() => t.close());

  const pap = (userName: string, password: string, station: string) =>
    papAuthenticate(t.app, userName, password, station);
  const accepted = () =>
    radiusCall(t.app, "postAuth", {
      "User-Name": "counted@kpi.ua",
      "KPI-ID-Network-Password": wifi.id,
      "Calling-Station-Id": "AA-BB-CC-00-03-01",
    });
  /** The requests of one day: 2 accepted, 3 wrong passwords, 1 turned off, 1 unknown person, 1 other realm. */
  async function oneDay() {
    for (let n = 0; n < 2; n++) {
      expect((await pap("counted@kpi.ua", wifi.password, "AA-BB-CC-00-03-01")).statusCode).toBe(200);
      expect((await accepted()).statusCode).toBe(200);
    }
    for (let n = 0; n < 3; n++) {
      expect((await pap("counted@kpi.ua", `wrong ${n}`, `AA-BB-CC-00-04-0${n}`)).statusCode).toBe(401);
    }
    expect((await pap("switched.off@kpi.ua", "whatever", "AA-BB-CC-00-05-01")).statusCode).toBe(401);
    expect((await pap("nobody@kpi.ua", "whatever", "AA-BB-CC-00-05-02")).statusCode).toBe(401);
    expect((await pap("visitor@other.example", "whatever", "AA-BB-CC-00-05-03")).statusCode).toBe(401);
  }

  it("counts sign-ins per UTC day and refusals by reason, over the last 14 days only", async () => {
    // An old row, outside the window: never counted.
    await recordAuditEvent(t.app.db, {
      type: "wifi_sign_in",
      result: "failure",
      reason: "wrong_password",
      occurredAt: new Date(clock.now().getTime() - 20 * dayMs),
    });
    clock.advance(-2 * 86_400);
    await oneDay();
    clock.advance(2 * 86_400);
    await oneDay();
    await accepted();

    const figures = await wifiFigures(t.app.db, clock.now());
    expect(figures.days).toEqual([
      { day: "2026-03-08", accepted: 2, refused: 6 },
      { day: "2026-03-10", accepted: 3, refused: 6 },
    ]);
    expect(figures.failures).toEqual([
      { reason: "wrong_password", count: 6 },
      expect.objectContaining({ count: 2 }),
      expect.objectContaining({ count: 2 }),
      expect.objectContaining({ count: 2 }),
    ]);
    expect(figures.failures.map((each) => each.reason).sort()).toEqual([
      "other_realm",
      "unknown_person",
      "wifi_off",
      "wrong_password",
    ]);
    // A shorter window: only today.
    expect((await wifiFigures(t.app.db, clock.now(), 1)).days).toEqual([
      { day: "2026-03-10", accepted: 3, refused: 6 },
    ]);
  });

  it("counts the same decisions in kpi_id_wifi_authentications_total, by result and reason", async () => {
    const metrics = (await t.app.inject({ url: "/metrics" })).body;
    const count = (labels: string) => {
      const line = metrics.split("\n").find((each) => each.startsWith(`kpi_id_wifi_authentications_total{${labels}}`));
      return Number(line?.split(" ").at(-1));
    };
    // The old row above was written by hand, not answered: the metric counts only the endpoint's decisions.
    expect(count('result="success",reason=""')).toBe(5);
    expect(count('result="failure",reason="wrong_password"')).toBe(6);
    expect(count('result="failure",reason="wifi_off"')).toBe(2);
    expect(count('result="failure",reason="unknown_person"')).toBe(2);
    expect(count('result="failure",reason="other_realm"')).toBe(2);
  });
});

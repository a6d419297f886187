import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanUpExpired } from "../../../src/model/housekeeping/clean-up.ts";
import { createNetworkPassword } from "../../../src/model/wifi/passwords.ts";
import { wifiSessionIdleHours } from "../../../src/model/wifi/sessions.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { radiusCall, testRadiusSecret } from "../../support/radius.ts";

/**
 * Wi-Fi sessions from accounting (issue 73): found by the Class the post-auth answer gave, kept by interim updates,
 * ended by Stop, by the controller's restart (Accounting-On), and forgotten after hours without accounting.
 */
describe.each(databaseKinds)("Wi-Fi sessions from accounting (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let userId = "";
  let passwordId = "";

  beforeAll(async () => {
    t = await createTestApp(
      kind,
      { RADIUS_REST_SECRET: testRadiusSecret },
      { clock: clock.now, protocols: ["radius"] },
    );
    userId = (await addPerson(t.app, { username: "roamer", fullName: "Roamer" }, "roamer's long passphrase")).id;
    passwordId = (await createNetworkPassword(t.app.db, t.config.sessionSecrets, userId, "Phone", clock.now())).id;
  });
  afterAll(() => t.close());

  /** An accepted sign-in's Class, as FreeRADIUS's rest module sends an octets attribute back (0x-hex). */
  async function signedInClass(): Promise<string> {
    const answer = await radiusCall(t.app, "postAuth", {
      "User-Name": "roamer@kpi.ua",
      "KPI-ID-Network-Password": passwordId,
    });
    expect(answer.statusCode).toBe(200);
    return `0x${Buffer.from(answer.json()["reply:Class"]).toString("hex")}`;
  }
  const accounting = (status: string, session: string, sessionClass = "", controller = "wlc-1") =>
    radiusCall(t.app, "accounting", {
      "Acct-Status-Type": status,
      "Acct-Session-Id": session,
      "Operator-NAS-Identifier": `0x${Buffer.from(controller).toString("hex")}`,
      ...(sessionClass ? { Class: sessionClass } : {}),
    });
  const sessions = async () =>
    (await t.app.db.selectFrom("wifi_sessions").select("acct_session_id").where("user_id", "=", userId).execute())
      .map((row) => row.acct_session_id)
      .sort();

  it("needs FreeRADIUS's secret like every RADIUS call", async () => {
    const response = await radiusCall(t.app, "accounting", { "Acct-Status-Type": "Start" }, { secret: "wrong" });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("radius.unauthorized");
  });

  it("starts a session from our Class only; a Class with a wrong tag is acknowledged and dropped", async () => {
    const sessionClass = await signedInClass();
    expect((await accounting("Start", "s-1", sessionClass)).statusCode).toBe(204);
    const forged = `0x${Buffer.from("kpi-id:1.AAAAAAAAAAAAAAAAAAAAAA").toString("hex")}`;
    expect((await accounting("Start", "s-forged", forged)).statusCode).toBe(204);
    expect(await sessions()).toEqual(["s-1"]);
    expect((await accounting("Stop", "s-1")).statusCode).toBe(204);
    expect(await sessions()).toEqual([]);
  });

  it("keeps a session its interim updates report, forgets one that went quiet", async () => {
    await accounting("Start", "s-busy", await signedInClass());
    await accounting("Start", "s-quiet", await signedInClass());
    clock.advance((wifiSessionIdleHours - 1) * 3600);
    await accounting("Interim-Update", "s-busy");
    clock.advance(2 * 3600);
    expect(await cleanUpExpired(t.app.db, clock.now())).toMatchObject({ wifiSessions: 1 });
    expect(await sessions()).toEqual(["s-busy"]);
  });

  it("ends every session of a controller that restarted (Accounting-On)", async () => {
    await accounting("Start", "s-other", await signedInClass(), "wlc-2");
    expect(
      (
        await radiusCall(t.app, "accounting", {
          "Acct-Status-Type": "Accounting-On",
          "Operator-NAS-Identifier": "wlc-1",
        })
      ).statusCode,
    ).toBe(204);
    expect(await sessions()).toEqual(["s-other"]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanUpExpired } from "../../../src/model/housekeeping/clean-up.ts";
import { createNetworkPassword, listNetworkPasswords } from "../../../src/model/wifi/passwords.ts";
import { usesKeptPerPassword } from "../../../src/model/wifi/uses.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { radiusCall, testRadiusSecret } from "../../support/radius.ts";

const dayMs = 24 * 60 * 60 * 1000;

/**
 * How long a Wi-Fi use (when, which access point, the device's hashed MAC) is kept (docs/eduroam.md, "What is
 * logged"): as long as the sign-in history, and only the latest few of each password.
 */
describe.each(databaseKinds)("Wi-Fi uses are not kept for ever (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let userId = "";

  beforeAll(async () => {
    t = await createTestApp(
      kind,
      { RADIUS_REST_SECRET: testRadiusSecret },
      { clock: clock.now, protocols: ["radius"] },
    );
    userId = (await addPerson(t.app, { username: "walker", fullName: "Walker" }, "walker's long passphrase")).id;
  });
  afterAll(() => t.close());

  const signInAt = (passwordId: string, accessPoint: string) =>
    radiusCall(t.app, "postAuth", {
      "User-Name": "walker@kpi.ua",
      "KPI-ID-Network-Password": passwordId,
      "Called-Station-Id": accessPoint,
      "Calling-Station-Id": "AA-BB-CC-00-02-01",
    });
  const usesOf = async (passwordId: string) =>
    (
      await t.app.db
        .selectFrom("wifi_uses")
        .select(["access_point", "used_at"])
        .where("password_id", "=", passwordId)
        .orderBy("used_at", "desc")
        .execute()
    ).map((row) => row.access_point);

  it("keeps the latest uses of each password, and the page still shows the five newest", async () => {
    const phone = await createNetworkPassword(t.app.db, t.config.sessionSecrets, userId, "Phone", clock.now());
    const laptop = await createNetworkPassword(t.app.db, t.config.sessionSecrets, userId, "Laptop", clock.now());
    for (let n = 1; n <= usesKeptPerPassword + 5; n++) {
      clock.advance(60);
      expect((await signInAt(phone.id, `AP-${n}`)).statusCode).toBe(200);
    }
    expect((await signInAt(laptop.id, "AP-library")).statusCode).toBe(200);
    const kept = await usesOf(phone.id);
    expect(kept).toHaveLength(usesKeptPerPassword);
    expect(kept[0]).toBe(`AP-${usesKeptPerPassword + 5}`);
    expect(kept.at(-1)).toBe("AP-6");
    // Another password's uses are its own: the cap of one never takes them.
    expect(await usesOf(laptop.id)).toEqual(["AP-library"]);
    const [listed] = (await listNetworkPasswords(t.app.db, userId)).filter((each) => each.id === phone.id);
    expect(listed?.uses.map((use) => use.accessPoint)).toEqual(["AP-25", "AP-24", "AP-23", "AP-22", "AP-21"]);
  });

  it("deletes uses older than SIGN_IN_HISTORY_RETENTION_DAYS in the clean-up, else AUDIT_RETENTION_DAYS", async () => {
    const tablet = await createNetworkPassword(t.app.db, t.config.sessionSecrets, userId, "Tablet", clock.now());
    for (const days of [2000, 800, 400, 300, 1]) {
      await t.app.db
        .insertInto("wifi_uses")
        .values({
          password_id: tablet.id,
          user_id: userId,
          used_at: new Date(clock.now().getTime() - days * dayMs),
          method: "pap",
          access_point: `AP-${days}-days-ago`,
        })
        .execute();
    }
    // Both 0: kept.
    expect(await cleanUpExpired(t.app.db, clock.now())).toMatchObject({ wifiUses: 0 });
    // The sign-in history's 0 leaves them to the audit log's retention, as it does the wifi_sign_in rows.
    const audit = await cleanUpExpired(t.app.db, clock.now(), { auditRetentionDays: 1095 });
    expect(audit).toMatchObject({ wifiUses: 1 });
    const history = await cleanUpExpired(t.app.db, clock.now(), {
      auditRetentionDays: 1095,
      signInHistoryRetentionDays: 365,
    });
    expect(history).toMatchObject({ wifiUses: 2 });
    expect(await usesOf(tablet.id)).toEqual(["AP-1-days-ago", "AP-300-days-ago"]);
    // The recent uses of the other passwords stay.
    const phone = (await listNetworkPasswords(t.app.db, userId)).find((each) => each.name === "Phone");
    expect(phone?.uses).toHaveLength(5);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetworkPassword } from "../../../src/model/wifi/passwords.ts";
import { turnWifiOff } from "../../../src/model/wifi/people.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";
import { radiusCall, testRadiusSecret } from "../../support/radius.ts";

/**
 * Erasing a person (model/privacy/erase.ts) takes their network passwords, every use of them and the operator's
 * switch (when and by whom their Wi-Fi was turned off); Wi-Fi stops.
 */
describe.each(databaseKinds)("erasing a person with Wi-Fi passwords (%s)", (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, { RADIUS_REST_SECRET: testRadiusSecret }, { protocols: ["radius"] });
  });
  afterAll(() => t.close());

  it("deletes the passwords, uses and Wi-Fi switch, counts them in the answer, and the endpoint refuses every identity", async () => {
    const person = await addPerson(t.app, { username: "leaving", fullName: "Leaving" }, "leaving passphrase");
    const kept = await addPerson(t.app, { username: "staying", fullName: "Staying" }, "staying passphrase");
    const phone = await createNetworkPassword(t.app.db, t.config.sessionSecrets, person.id, "Phone", new Date());
    const laptop = await createNetworkPassword(t.app.db, t.config.sessionSecrets, person.id, "Laptop", new Date());
    const other = await createNetworkPassword(t.app.db, t.config.sessionSecrets, kept.id, "Phone", new Date());
    const station = { "Calling-Station-Id": "AA-BB-CC-00-06-01", "Called-Station-Id": "AP-LIBRARY:eduroam" };
    for (const [username, password] of [
      ["leaving", phone],
      ["leaving", laptop],
      ["staying", other],
    ] as const) {
      const pap = await radiusCall(t.app, "authenticate", {
        ...station,
        "User-Name": `${username}@kpi.ua`,
        "User-Password": password.password,
      });
      expect(pap.statusCode).toBe(200);
      const used = await radiusCall(t.app, "postAuth", {
        ...station,
        "User-Name": `${username}@kpi.ua`,
        "KPI-ID-Network-Password": password.id,
      });
      expect(used.statusCode).toBe(200);
    }
    const rowsOf = async (userId: string) => ({
      passwords: (await t.app.db.selectFrom("wifi_passwords").select("id").where("user_id", "=", userId).execute())
        .length,
      uses: (await t.app.db.selectFrom("wifi_uses").select("id").where("user_id", "=", userId).execute()).length,
      switches: (await t.app.db.selectFrom("wifi_blocks").select("blocked_at").where("user_id", "=", userId).execute())
        .length,
    });
    const admin = await addOperator(t.app, ["admin"]);
    // An operator turned both people's Wi-Fi off after they had used it.
    await turnWifiOff(t.app.db, person.id, admin.person.id, new Date());
    await turnWifiOff(t.app.db, kept.id, admin.person.id, new Date());
    expect(await rowsOf(person.id)).toEqual({ passwords: 2, uses: 2, switches: 1 });

    const erased = await t.app.inject({
      method: "POST",
      url: `/api/admin/people/${person.id}/erase`,
      headers: { cookie: admin.cookie, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: JSON.stringify({ username: "leaving" }),
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().erased).toMatchObject({ networkPasswords: 2 });
    expect(await rowsOf(person.id)).toEqual({ passwords: 0, uses: 0, switches: 0 });
    // Someone else's Wi-Fi is untouched.
    expect(await rowsOf(kept.id)).toEqual({ passwords: 1, uses: 1, switches: 1 });

    // Under the old name, with either password, by TTLS or PEAP, and under the stub's name: refused.
    for (const password of [phone, laptop]) {
      for (const userName of ["leaving@kpi.ua", `leaving+${password.device}@kpi.ua`, `erased-${person.id}@kpi.ua`]) {
        const pap = await radiusCall(t.app, "authenticate", {
          ...station,
          "User-Name": userName,
          "User-Password": password.password,
        });
        expect(pap.statusCode, userName).toBe(401);
      }
      const peap = await radiusCall(t.app, "authorize", { "User-Name": `leaving+${password.device}@kpi.ua` });
      expect(peap.statusCode).toBe(401);
      const late = await radiusCall(t.app, "postAuth", {
        ...station,
        "User-Name": "leaving@kpi.ua",
        "KPI-ID-Network-Password": password.id,
      });
      expect(late.statusCode).toBe(403);
    }
  });
});

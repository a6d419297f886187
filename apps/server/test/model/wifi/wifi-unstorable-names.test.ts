import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetworkPassword } from "../../../src/model/wifi/passwords.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { papAuthenticate, radiusCall, testRadiusSecret, wifiRefusalReasons } from "../../support/radius.ts";

/**
 * Issue 73, point 5: a User-Name holding U+0000 (which PostgreSQL's text cannot hold) reached a text comparison and
 * answered 500, unrecorded and unthrottled. It is the protocol's own refusal now, recorded and counted like any
 * failed attempt; U+0000 in the other attributes KPI ID reads is read as absent.
 */
describe.each(databaseKinds)("Wi-Fi names holding U+0000 (%s)", (kind) => {
  let t: TestApp;
  let olena = { id: "", password: "", passwordId: "" };
  const stranger = "DE-AD-BE-EF-00-07";

  beforeAll(async () => {
    t = await createTestApp(kind, { RADIUS_REST_SECRET: testRadiusSecret }, { protocols: ["radius"] });
    const person = await addPerson(t.app, { username: "olena", fullName: "Olena" }, "olena's long passphrase");
    const wifi = await createNetworkPassword(t.app.db, t.config.sessionSecrets, person.id, "Phone", new Date());
    olena = { id: person.id, password: wifi.password, passwordId: wifi.id };
  });
  afterAll(() => t.close());

  const refusals = () => wifiRefusalReasons(t.app);

  it("refuses such a name in every call as RADIUS refuses (401, 403, 204), each refusal recorded", async () => {
    const name = "olena\u0000@kpi.ua";
    expect((await papAuthenticate(t.app, name, olena.password, stranger)).statusCode).toBe(401);
    expect((await radiusCall(t.app, "authorize", { "User-Name": "olena\u0000+abc@kpi.ua" })).statusCode).toBe(401);
    const postAuth = await radiusCall(t.app, "postAuth", { "User-Name": name, "KPI-ID-Network-Password": "x" });
    expect(postAuth.statusCode).toBe(403);
    const rejected = await radiusCall(t.app, "postAuth", { "User-Name": name }, { query: "?result=Reject" });
    expect(rejected.statusCode).toBe(204);
    // A refused MSCHAPv2 answer is counted as a wrong password whatever the name (FreeRADIUS checked it).
    expect(await refusals()).toEqual(["unknown_person", "unknown_person", "unknown_person", "wrong_password"]);
  });

  it("counts such names against the device like any wrong guess: it waits, even with a real password", async () => {
    for (let guess = 0; guess < 10; guess++) {
      expect((await papAuthenticate(t.app, `guess${guess}\u0000@kpi.ua`, "x", stranger)).statusCode).toBe(401);
    }
    expect((await papAuthenticate(t.app, "olena@kpi.ua", olena.password, stranger)).statusCode).toBe(401);
    expect(await refusals()).toContain("throttled");
  });

  it("reads U+0000 in the access point's attributes or the password's id as absent, never a 500", async () => {
    const accepted = await radiusCall(t.app, "postAuth", {
      "User-Name": "olena@kpi.ua",
      "KPI-ID-Network-Password": olena.passwordId,
      "Called-Station-Id": "AA-BB\u0000:eduroam",
      "NAS-Identifier": "ap\u0000",
      "Operator-Name": "1kpi\u0000.ua",
      "Chargeable-User-Identity": "\u0000",
    });
    expect(accepted.statusCode).toBe(200);
    const use = await t.app.db
      .selectFrom("wifi_uses")
      .select(["access_point", "nas_identifier"])
      .where("password_id", "=", olena.passwordId)
      .executeTakeFirstOrThrow();
    expect(use).toEqual({ access_point: null, nas_identifier: null });
    const forged = { "User-Name": "olena@kpi.ua", "KPI-ID-Network-Password": `${olena.passwordId}\u0000` };
    expect((await radiusCall(t.app, "postAuth", forged)).statusCode).toBe(403);
  });
});

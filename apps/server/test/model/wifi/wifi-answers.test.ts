import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetworkPassword } from "../../../src/model/wifi/passwords.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { radiusCall, testRadiusSecret } from "../../support/radius.ts";

/** What the network is told about an accepted person (issue 61, point 3): the VLAN of their affiliation and a CUI. */
describe.each(databaseKinds)("Wi-Fi answers to the network (%s)", (kind) => {
  let t: TestApp;
  const people: Record<string, { id: string; passwordId: string }> = {};

  beforeAll(async () => {
    t = await createTestApp(
      kind,
      {
        RADIUS_REST_SECRET: testRadiusSecret,
        WIFI_VLAN_STUDENTS: "110",
        WIFI_VLAN_STAFF: "staff-vlan",
      },
      { protocols: ["radius"] },
    );
    for (const username of ["student", "teacher", "visitor"]) {
      const person = await addPerson(t.app, { username, fullName: username }, `${username} long passphrase`);
      const password = await createNetworkPassword(t.app.db, t.config.sessionSecrets, person.id, "Phone", new Date());
      people[username] = { id: person.id, passwordId: password.id };
    }
    await t.app.db
      .insertInto("student_records")
      .values({ user_id: people.student?.id ?? "", student_id: "KV-1", status: "studying", source: "csv" })
      .execute();
    await t.app.db
      .insertInto("employee_positions")
      .values({ user_id: people.teacher?.id ?? "", employee_id: "E-1", status: "active", source: "csv" })
      .execute();
  });
  afterAll(() => t.close());

  const accepted = (username: string, extra: Record<string, string> = {}) =>
    radiusCall(t.app, "postAuth", {
      "User-Name": `${username}@kpi.ua`,
      "KPI-ID-Network-Password": people[username]?.passwordId ?? "",
      "Called-Station-Id": "AA-BB-CC-DD-EE-02:eduroam",
      ...extra,
    });

  it("answers the VLAN of the person's affiliation, and none for a group without one", async () => {
    const student = (await accepted("student")).json();
    expect(student).toMatchObject({
      "reply:Tunnel-Type": "VLAN",
      "reply:Tunnel-Medium-Type": "IEEE-802",
      "reply:Tunnel-Private-Group-Id": "110",
    });
    expect((await accepted("teacher")).json()["reply:Tunnel-Private-Group-Id"]).toBe("staff-vlan");
    // No VLAN attributes; only the session's Class (returned in accounting, issue 73).
    expect((await accepted("visitor")).json()).toEqual({
      "reply:Class": expect.stringMatching(/^kpi-id:\d+\.[\w-]{22}$/),
    });
  });

  it("answers a Chargeable-User-Identity only when asked, stable per operator, different between operators", async () => {
    expect((await accepted("student")).json()["reply:Chargeable-User-Identity"]).toBeUndefined();
    const ask = { "Chargeable-User-Identity": "0x00" };
    const here = (await accepted("student", ask)).json()["reply:Chargeable-User-Identity"];
    const again = (await accepted("student", ask)).json()["reply:Chargeable-User-Identity"];
    const elsewhere = (await accepted("student", { ...ask, "Operator-Name": "1other.example" })).json()[
      "reply:Chargeable-User-Identity"
    ];
    const someoneElse = (await accepted("teacher", ask)).json()["reply:Chargeable-User-Identity"];
    expect(here).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(again).toBe(here);
    expect(elsewhere).not.toBe(here);
    expect(someoneElse).not.toBe(here);
    expect(here).not.toContain("student");
  });
});

import type { WifiPassword } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetworkPassword } from "../../../src/model/wifi/passwords.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { radiusCall, testRadiusSecret } from "../../support/radius.ts";

interface WifiList {
  username: string;
  wifiOff: boolean;
  passwords: WifiPassword[];
}

/** `kpi-id wifi list|revoke|off|on|stats`: what an operator without the console does (docs/eduroam.md, "Operators"). */
describe.each(aboveModelDatabases)("kpi-id wifi on %s", (kind) => {
  let t: TestApp;
  let userId = "";
  const made: { id: string; password: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { RADIUS_REST_SECRET: testRadiusSecret }, { protocols: ["radius"] });
    userId = (await addPerson(t.app, { username: "roaming", fullName: "Роумінг" }, "roaming passphrase")).id;
    for (const name of ["Телефон", "Laptop", "Tablet"]) {
      made.push(await createNetworkPassword(t.app.db, t.config.sessionSecrets, userId, name, new Date()));
    }
  });
  afterAll(() => t.close());

  const cli = (args: string[]) => runCliOn(t.database.handle, args);
  /** One device's sign-in as FreeRADIUS makes it: the password, then (accepted) post-auth records the use. */
  const pap = async (password: string) => {
    const station = { "User-Name": "roaming@kpi.ua", "Calling-Station-Id": "AA-BB-CC-00-01-01" };
    const answer = await radiusCall(t.app, "authenticate", { ...station, "User-Password": password });
    if (answer.statusCode !== 200) return answer;
    const passwordId = answer.json()["request:KPI-ID-Network-Password"];
    return radiusCall(t.app, "postAuth", { ...station, "KPI-ID-Network-Password": passwordId });
  };
  const listed = async () => {
    const run = await cli(["wifi", "list", "--username", "roaming", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    return run.json<WifiList>();
  };
  const audited = async (type: string) =>
    (
      await t.app.db
        .selectFrom("audit_events")
        .select("reason")
        .where("event_type", "=", type)
        .where("user_id", "=", userId)
        .execute()
    ).length;

  it("lists the person's devices with their identities, never a password", async () => {
    const list = await listed();
    expect(list.wifiOff).toBe(false);
    expect(list.passwords.map((each) => each.name).sort()).toEqual(["Laptop", "Tablet", "Телефон"]);
    expect(list.passwords[0]?.identity).toMatch(/^roaming\+[a-z2-9]{6}@kpi\.ua$/);
    const text = await cli(["wifi", "list", "--username", "roaming"]);
    expect(text.stdout).toContain("Телефон");
    for (const { password } of made) {
      expect(text.stdout).not.toContain(password);
      expect(JSON.stringify(list)).not.toContain(password);
    }
    const nobody = await cli(["wifi", "list", "--username", "nobody"]);
    expect(nobody.code).not.toBe(0);
    expect(nobody.stderr).toContain("no user 'nobody'");
  });

  it("off refuses the person's passwords at the endpoint, on lets them in again; both audited", async () => {
    const [first] = made;
    expect((await pap(first?.password ?? "")).statusCode).toBe(200);
    expect((await cli(["wifi", "off", "--username", "roaming"])).code).toBe(0);
    expect((await listed()).wifiOff).toBe(true);
    expect((await pap(first?.password ?? "")).statusCode).toBe(401);
    expect(await audited("wifi_turned_off")).toBe(1);
    expect((await cli(["wifi", "on", "--username", "roaming"])).code).toBe(0);
    expect((await listed()).wifiOff).toBe(false);
    expect((await pap(first?.password ?? "")).statusCode).toBe(200);
    expect(await audited("wifi_turned_on")).toBe(1);
  });

  it("revokes one password by id, then all of them; a revoked password stops at once", async () => {
    const [first, second] = made;
    const one = await cli(["wifi", "revoke", "--username", "roaming", "--id", first?.id ?? "", "--json"]);
    expect(one.json()).toEqual({ username: "roaming", revoked: 1 });
    expect((await pap(first?.password ?? "")).statusCode).toBe(401);
    expect((await pap(second?.password ?? "")).statusCode).toBe(200);
    const all = await cli(["wifi", "revoke", "--username", "roaming", "--all", "--json"]);
    expect(all.json()).toEqual({ username: "roaming", revoked: 2 });
    expect((await listed()).passwords).toEqual([]);
    expect((await pap(second?.password ?? "")).statusCode).toBe(401);
    expect(await audited("wifi_password_revoked")).toBe(2);
  });

  it("stats counts the sign-ins and refusals of the last days", async () => {
    const run = await cli(["wifi", "stats", "--json"]);
    expect(run.code).toBe(0);
    const figures = run.json<{ failures: { reason: string; count: number }[] }>();
    // The refusals above: one while Wi-Fi was off, then each revoked password once.
    expect(figures.failures).toEqual(
      expect.arrayContaining([
        { reason: "wifi_off", count: 1 },
        { reason: "wrong_password", count: 2 },
      ]),
    );
  });
});

import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { checkSealedValues } from "../../../src/model/housekeeping/reseal.ts";
import { type CreatedNetworkPassword, createNetworkPassword } from "../../../src/model/wifi/passwords.ts";
import { ntHash } from "../../../src/model/wifi/secrets.ts";
import { testConfig } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../support/databases.ts";
import { papAuthenticate, radiusCall, testRadiusSecret } from "../../support/radius.ts";

const oldKey = "old-session-key-0123456789-abcdefghijklmnopqrstuv";
const newKey = "new-session-key-9876543210-zyxwvutsrqponmlkjihgfe";
const phone = "AA-BB-CC-00-00-61";

/**
 * Network passwords through a SESSION_SECRET rotation (docs/operations.md, "Rotating SESSION_SECRET"): the new key
 * put first, `secrets reseal`, the old key removed. Every password made before keeps working for TTLS/PAP and
 * PEAP-MSCHAPv2, the doctor names what still needs the old key, and the person's phone stays a known device.
 */
describe.each(databaseKinds)("Wi-Fi passwords across a SESSION_SECRET rotation (%s)", (kind) => {
  const clock = manualClock();
  let database: TestDatabase;
  const instances: FastifyInstance[] = [];
  let pinnedSalt = "";
  let personId = "";
  const made: Record<"phone" | "laptop" | "tablet", CreatedNetworkPassword> = {} as never;

  /** One instance with this SESSION_SECRET on the shared database; the pairwise salt pinned once there are two keys. */
  async function instance(sessionSecret: string): Promise<FastifyInstance> {
    const salt: Record<string, string> = pinnedSalt === "" ? {} : { SAML_PAIRWISE_SALT: pinnedSalt };
    const config = testConfig({ SESSION_SECRET: sessionSecret, RADIUS_REST_SECRET: testRadiusSecret, ...salt });
    const app = await buildApp({ config, database: { ...database.handle, close: async () => {} }, clock: clock.now });
    await app.ready();
    instances.push(app);
    return app;
  }
  const env = (sessionSecret: string) => ({ SESSION_SECRET: sessionSecret, SAML_PAIRWISE_SALT: pinnedSalt });
  const pap = (app: FastifyInstance, password: string, station: string) =>
    papAuthenticate(app, "roamer@kpi.ua", password, station);
  const keysCheck = async (sessionSecret: string) => {
    const run = await runCliOn(database.handle, ["doctor", "--json"], { env: env(sessionSecret) });
    const { checks } = run.json<{ checks: { check: string; status: string; message: string }[] }>();
    return checks.find((each) => each.check === "keys");
  };
  const olderKeyCount = async (app: FastifyInstance) =>
    (await checkSealedValues(app.db, app.config.sessionSecrets)).olderKey.wifiPasswords;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const before = await instance(oldKey);
    // What `secrets pairwise-salt` prints with only the old key: step 1 of the rotation pins it.
    pinnedSalt = before.config.saml.pairwiseSalt;
    personId = (await addPerson(before, { username: "roamer", fullName: "Роумер" }, "roamer's long passphrase")).id;
    for (const name of ["phone", "laptop", "tablet"] as const) {
      made[name] = await createNetworkPassword(before.db, before.config.sessionSecrets, personId, name, clock.now());
    }
    // The phone signs in once before the rotation: from then on it is a known device for the throttle.
    const first = await pap(before, made.phone.password, phone);
    expect(first.statusCode).toBe(200);
    const post = await radiusCall(before, "postAuth", {
      "User-Name": "roamer@kpi.ua",
      "KPI-ID-Network-Password": made.phone.id,
      "Calling-Station-Id": phone,
    });
    expect(post.statusCode).toBe(200);
    clock.advance(60);
  });
  afterAll(async () => {
    for (const app of instances) await app.close();
    await database.dispose();
  });

  it("with the new key first, the doctor counts the Wi-Fi passwords still under the old key and warns", async () => {
    const rotated = await instance(`${newKey},${oldKey}`);
    expect(await olderKeyCount(rotated)).toBe(3);
    expect(await keysCheck(`${newKey},${oldKey}`)).toMatchObject({
      status: "warn",
      message: expect.stringContaining("3 Wi-Fi network passwords still sealed or keyed with an older key"),
    });
  });

  it("a TTLS/PAP sign-in with a password under the old key makes it again under the new key", async () => {
    const rotated = instances.at(-1) as FastifyInstance;
    expect((await pap(rotated, made.tablet.password, "AA-BB-CC-00-00-62")).statusCode).toBe(200);
    expect(await olderKeyCount(rotated)).toBe(2);
  });

  it("secrets reseal makes the rest again under the new key; then the doctor finds none", async () => {
    const rotated = instances.at(-1) as FastifyInstance;
    const stored = await rotated.db.selectFrom("wifi_passwords").select(["id", "secret_hash"]).execute();
    const run = await runCliOn(database.handle, ["secrets", "reseal", "--json"], { env: env(`${newKey},${oldKey}`) });
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ resealed: { wifiPasswords: 2 }, unreadable: { wifiPasswords: 0 } });
    expect(await olderKeyCount(rotated)).toBe(0);
    expect((await keysCheck(`${newKey},${oldKey}`))?.status).toBe("ok");
    // The hashes changed, the passwords did not.
    const resealed = await rotated.db.selectFrom("wifi_passwords").select(["id", "secret_hash"]).execute();
    const changed = resealed.filter(
      (row) => stored.find((each) => each.id === row.id)?.secret_hash !== row.secret_hash,
    );
    expect(changed.map((row) => row.id).sort()).toEqual([made.phone.id, made.laptop.id].sort());
  });

  it("with the old key removed, every older password still works for TTLS/PAP and PEAP-MSCHAPv2", async () => {
    const newOnly = await instance(newKey);
    for (const name of ["phone", "laptop", "tablet"] as const) {
      expect((await pap(newOnly, made[name].password, phone)).statusCode).toBe(200);
      const peap = await radiusCall(newOnly, "authorize", { "User-Name": `roamer+${made[name].device}@kpi.ua` });
      expect(peap.statusCode).toBe(200);
      expect(peap.json()["control:NT-Password"]).toEqual({ value: `0x${ntHash(made[name].password)}`, do_xlat: false });
    }
    expect((await pap(newOnly, "k3m9x-pq7ra-wrong-guess1", phone)).statusCode).toBe(401);
    expect((await keysCheck(newKey))?.status).toBe("ok");
  });

  it("the phone known before the rotation is still known: a stranger's guesses do not lock its owner out", async () => {
    const newOnly = instances.at(-1) as FastifyInstance;
    clock.advance(60 * 60 + 16 * 60);
    for (let guess = 0; guess < 12; guess++) {
      expect((await pap(newOnly, `guess-${guess}`, "DE-AD-BE-EF-00-61")).statusCode).toBe(401);
    }
    // A new device now waits, even with the right password; the phone, known from before the rotation, does not.
    expect((await pap(newOnly, made.laptop.password, "02-00-00-00-00-61")).statusCode).toBe(401);
    expect((await pap(newOnly, made.phone.password, phone)).statusCode).toBe(200);
  });

  it("reseal with a key that opens none of them names the Wi-Fi passwords it cannot read", async () => {
    const run = await runCliOn(database.handle, ["secrets", "reseal", "--json"], {
      env: env("a-third-session-key-0123456789-abcdefghijklmn"),
    });
    expect(run.code).toBe(1);
    expect(run.json()).toMatchObject({ unreadable: { wifiPasswords: 3 } });
  });
});

import { createHmac, hkdfSync } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { createNetworkPassword } from "../../../src/model/wifi/passwords.ts";
import { networkPasswordHash, ntHash } from "../../../src/model/wifi/secrets.ts";
import { testConfig } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../support/databases.ts";
import { papAuthenticate, testRadiusSecret } from "../../support/radius.ts";

const sessionSecret = "first-form-session-key-0123456789-abcdefghijklmn";

/** The PAP hash as the first Wi-Fi commit of 0.4.0 wrote it: HMAC of the password itself, not of its NT hash. */
function firstFormHash(password: string): string {
  const key = Buffer.from(hkdfSync("sha256", sessionSecret, "kpi-id wifi", "network-password-hash", 32));
  return createHmac("sha256", key).update(password, "utf8").digest("base64url");
}

/** A network password stored in the first form keeps working for TTLS/PAP, and its first use stores today's form. */
describe.each(databaseKinds)("Wi-Fi passwords stored in the first form (%s)", (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const config = testConfig({ SESSION_SECRET: sessionSecret, RADIUS_REST_SECRET: testRadiusSecret });
    app = await buildApp({ config, database: database.handle });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  it("is accepted once and then kept as HMAC of the NT hash", async () => {
    const person = await addPerson(app, { username: "early", fullName: "Рання Пташка" }, "early's long passphrase");
    const made = await createNetworkPassword(app.db, app.config.sessionSecrets, person.id, "phone", new Date());
    await app.db
      .updateTable("wifi_passwords")
      .set({ secret_hash: firstFormHash(made.password) })
      .where("id", "=", made.id)
      .execute();
    const pap = (password: string) => papAuthenticate(app, "early@kpi.ua", password, "AA-BB-CC-00-00-71");
    expect((await pap("k3m9x-pq7ra-wrong-guess1")).statusCode).toBe(401);
    expect((await pap(made.password)).statusCode).toBe(200);
    const stored = await app.db
      .selectFrom("wifi_passwords")
      .select("secret_hash")
      .where("id", "=", made.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_hash).toBe(networkPasswordHash(sessionSecret, ntHash(made.password)));
    expect((await pap(made.password)).statusCode).toBe(200);
  });
});

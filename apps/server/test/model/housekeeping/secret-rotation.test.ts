import type { FastifyInstance } from "fastify";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { checkSealedValues } from "../../../src/model/housekeeping/reseal.ts";
import { testConfig } from "../../support/app.ts";
import { type TestBrowserJar, testBrowser } from "../../support/browser.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";

const password = "a long passphrase kept through rotations";
const oldKey = "old-session-key-0123456789-abcdefghijklmnopqrstuv";
const newKey = "new-session-key-9876543210-zyxwvutsrqponmlkjihgfe";
// Pinned before the ring grows, as the configuration asks (SAML pairwise ids stay).
const pairwiseSalt = "pinned-pairwise-salt-0123456789-abcdefghij";

describe.each(aboveModelDatabases)("rotating SESSION_SECRET as a key ring (%s)", (kind) => {
  const clock = manualClock();
  let database: TestDatabase;
  const instances: FastifyInstance[] = [];
  let totpSecret: string;
  let remembered: Map<string, string>;

  /** One instance of the service with this SESSION_SECRET, on the shared database (closed with it). */
  async function instance(sessionSecret: string): Promise<FastifyInstance> {
    const config = testConfig({ SESSION_SECRET: sessionSecret, SAML_PAIRWISE_SALT: pairwiseSalt });
    const app = await buildApp({ config, database: { ...database.handle, close: async () => {} }, clock: clock.now });
    await app.ready();
    instances.push(app);
    return app;
  }

  /** The same browser (its cookies) against another instance. */
  const carry = (app: FastifyInstance, cookies: Map<string, string>) => {
    const browser = testBrowser(app, "198.51.100.40");
    for (const [name, value] of cookies) browser.jar.set(name, value);
    return browser;
  };
  const codeNow = () => generate({ secret: totpSecret, epoch: Math.floor(clock.now().getTime() / 1000) });
  const signedIn = async (browser: TestBrowserJar) => (await browser.get("/api/user")).statusCode === 200;
  /** `secrets reseal` is audited: its rows, oldest first. */
  const resealRows = () =>
    (instances[0] as FastifyInstance).db
      .selectFrom("audit_events")
      .select(["result", "reason", "details"])
      .where("event_type", "=", "secrets_resealed")
      .orderBy("id")
      .execute();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const before = await instance(oldKey);
    await addPerson(before, { username: "rotating", fullName: "Ротаційна Людина" }, password);
    const browser = testBrowser(before, "198.51.100.40");
    const first = await browser.post("/api/auth", { username: "rotating", password });
    expect((await browser.post("/api/auth/internal", { sessionId: first.json().sessionId })).statusCode).toBe(200);
    totpSecret = (await browser.post("/api/account/totp", {})).json().secret;
    expect((await browser.post("/api/account/totp/confirm", { code: await codeNow() })).statusCode).toBe(200);
    clock.advance(30);
    // A sign-in with the code that remembers this browser: a cookie signed with the old key.
    const second = await browser.post("/api/auth", { username: "rotating", password });
    const { sessionId } = second.json();
    await browser.post("/api/auth/second-factor", { sessionId, code: await codeNow(), rememberBrowser: true });
    expect((await browser.post("/api/auth/internal", { sessionId })).statusCode).toBe(200);
    clock.advance(30);
    remembered = new Map(browser.jar);
  });
  afterAll(async () => {
    for (const app of instances) await app.close();
    await database.dispose();
  });

  it("with the new key first and the old one after it, nothing changes for the person", async () => {
    const rotated = await instance(`${newKey},${oldKey}`);
    const browser = carry(rotated, remembered);
    expect(await signedIn(browser)).toBe(true);
    // The remembered browser (signed with the old key) still skips the code.
    const again = await browser.post("/api/auth", { username: "rotating", password });
    expect(again.json().secondFactor).toBeUndefined();
    // Another browser is asked for the code, and the secret sealed with the old key still checks it.
    const other = testBrowser(rotated, "198.51.100.41");
    const asked = await other.post("/api/auth", { username: "rotating", password });
    expect(asked.json().secondFactor).toBe("totp");
    const code = await other.post("/api/auth/second-factor", {
      sessionId: asked.json().sessionId,
      code: await codeNow(),
    });
    expect(code.statusCode).toBe(200);
    clock.advance(30);
    // The OpenID Connect signing keys sealed with the old key are published.
    const jwks = await rotated.inject({ url: "/oidc/jwks" });
    expect(jwks.statusCode).toBe(200);
    expect(jwks.json().keys.length).toBeGreaterThan(0);
  });

  it("reseal puts every sealed value under the new key, after which the old key can go", async () => {
    const rotated = instances.at(-1) as FastifyInstance;
    const before = await checkSealedValues(rotated.db, rotated.config.sessionSecrets);
    expect(before.olderKey.totpFactors).toBe(1);
    expect(before.olderKey.oidcSigningKeys).toBeGreaterThan(0);
    const run = await runCliOn(database.handle, ["secrets", "reseal", "--json"], {
      env: { SESSION_SECRET: `${newKey},${oldKey}`, SAML_PAIRWISE_SALT: pairwiseSalt },
    });
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ resealed: { totpFactors: 1 }, unreadable: { totpFactors: 0 } });
    const after = await checkSealedValues(rotated.db, rotated.config.sessionSecrets);
    expect(after.olderKey).toEqual({ totpFactors: 0, oidcSigningKeys: 0, samlSigningKeys: 0, wifiPasswords: 0 });
    expect(await resealRows()).toEqual([
      {
        result: "success",
        reason: "cli",
        details: expect.objectContaining({ resealed: expect.objectContaining({ totpFactors: 1 }), keys: 2 }),
      },
    ]);
  });

  it("with the old key removed: the session stays, the remembered browser is asked for its code again, cleanly", async () => {
    const newOnly = await instance(newKey);
    const browser = carry(newOnly, remembered);
    // The session is a random token stored hashed, not signed: no key of the ring matters to it.
    expect(await signedIn(browser)).toBe(true);
    const again = await browser.post("/api/auth", { username: "rotating", password });
    expect(again.statusCode).toBe(200);
    expect(again.json().secondFactor).toBe("totp");
    const code = await browser.post("/api/auth/second-factor", {
      sessionId: again.json().sessionId,
      code: await codeNow(),
    });
    expect(code.statusCode).toBe(200);
    expect((await newOnly.inject({ url: "/oidc/jwks" })).statusCode).toBe(200);
  });

  it("an instance without the key the secrets were sealed with cannot read them, and reseal says so", async () => {
    const run = await runCliOn(database.handle, ["secrets", "reseal", "--json"], {
      env: { SESSION_SECRET: "a-third-session-key-0123456789-abcdefghijklmn" },
    });
    expect(run.code).toBe(1);
    expect(run.json()).toMatchObject({ unreadable: { totpFactors: 1 } });
    expect(run.stderr).toContain("put back the key they were sealed with");
    expect((await resealRows()).map((row) => row.result)).toEqual(["success", "failure"]);
  });
});

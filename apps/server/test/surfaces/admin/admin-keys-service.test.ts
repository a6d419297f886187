import "reflect-metadata";
import { webcrypto } from "node:crypto";
import type { ServiceStatus, SigningKeys } from "@kpi-id/contracts";
import * as x509 from "@peculiar/x509";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveFederation } from "../../../src/protocols/saml/federation.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock, signIn } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

// The console's signing keys and service screens: the same key services as `keys list` / `keys rotate`,
// and figures read from the registry /metrics serves.
describe.each(aboveModelDatabases)("the console's signing keys and service (%s)", (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof addOperator>>;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["oidc", "saml"], clock: clock.now });
    admin = await addOperator(t.app, ["admin"]);
  });
  afterAll(() => t.close());

  const keys = async () =>
    (await t.app.inject({ url: "/api/admin/keys", headers: { cookie: admin.cookie } })).json() as SigningKeys;
  const signingKid = (list: SigningKeys) => list.oidc.keys.filter((key) => key.signing).map((key) => key.kid);

  it("lists the OpenID Connect key that signs and the SAML key with its certificate", async () => {
    const list = await keys();
    expect(list.oidc.keys).toHaveLength(1);
    expect(list.oidc.keys[0]).toMatchObject({ algorithm: "RS256", published: true, signing: true, retiredAt: null });
    expect(list.oidc.activationDelaySeconds).toBe(120);
    // The SAML key is made at the first SAML use (the metadata), not at start.
    expect(list.saml.keys).toEqual([]);
    expect((await t.app.inject({ url: "/saml/metadata" })).statusCode).toBe(200);
    const saml = (await keys()).saml.keys;
    expect(saml).toHaveLength(1);
    expect(saml[0]?.signing).toBe(true);
    for (const key of saml) {
      expect(key.subject).toMatch(/^CN=/);
      expect(key.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
      expect(new Date(key.notAfter).getTime()).toBeGreaterThan(new Date(key.notBefore).getTime());
    }
  });

  it("rotates: the new key is published at once, signs after the activation delay, and the operator is audited", async () => {
    const [before] = signingKid(await keys());
    clock.advance(5);
    const answer = await t.app.inject({
      method: "POST",
      url: "/api/admin/keys/rotate",
      headers: { cookie: admin.cookie, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: "{}",
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const rotation = answer.json() as { kid: string; retired: string[]; signsFrom: string };
    expect(rotation.retired).toEqual([before]);
    expect(new Date(rotation.signsFrom).getTime() - clock.now().getTime()).toBe(120_000);

    const rotated = await keys();
    expect(rotated.oidc.keys.map((key) => key.kid)).toEqual([rotation.kid, before]);
    expect(rotated.oidc.keys.every((key) => key.published)).toBe(true);
    expect(signingKid(rotated)).toEqual([before]);
    expect(rotated.oidc.keys[1]?.retiredAt).not.toBeNull();
    clock.advance(121);
    expect(signingKid(await keys())).toEqual([rotation.kid]);

    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["actor_id", "result", "details"])
      .where("event_type", "=", "signing_keys_rotated")
      .orderBy("audit_events.id")
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_id: admin.person.id, result: "success" });
    expect(JSON.stringify(rows[0]?.details)).toContain(rotation.kid);
  });

  it("shows the version, the database, health, uptime and the figures /metrics has", async () => {
    await addPerson(t.app, { username: "figures", fullName: "Особа Для Цифр" }, "figures passphrase 1");
    await signIn(t.app, "figures", "figures passphrase 1");
    const answer = await t.app.inject({ url: "/api/admin/service", headers: { cookie: admin.cookie } });
    expect(answer.statusCode, answer.body).toBe(200);
    const service = answer.json() as ServiceStatus;
    expect(service.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(service.database.kind).toBe(kind);
    expect(service.database.serverVersion).toMatch(/^\d+/);
    expect(service.health).toEqual({ ready: true, database: true });
    expect(service.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(service.figures.signIns.success).toBeGreaterThanOrEqual(1);
    expect(service.figures.signInsByMethod).toContainEqual(expect.objectContaining({ method: "PASSWORD" }));
    expect(service.figures.requests.total).toBeGreaterThan(0);
    expect(service.figures.requests.averageSeconds).not.toBeNull();
    expect(service.figures.requests.p95Seconds).not.toBeNull();
    expect(service.figures.memoryBytes).toBeGreaterThan(0);
    expect(service.figures.pool.total).toBeGreaterThanOrEqual(1);
  });

  it("lists the watched certificates, soonest ending first, with the days each has left", async () => {
    // Two federations' metadata signers, one ending in twelve days and one ended two days ago (by the
    // app's clock), next to the SAML key made for ten years.
    const day = 86_400_000;
    const ends = { ending: clock.now().getTime() + 12 * day, ended: clock.now().getTime() - 2 * day };
    for (const [name, notAfter] of Object.entries(ends)) {
      await saveFederation(t.app.db, {
        name,
        source: `https://${name}.example.org/metadata.xml`,
        certificate: await selfSigned(name, new Date(notAfter - 365 * day), new Date(notAfter)),
        entityCategories: [],
      });
    }
    const answer = await t.app.inject({ url: "/api/admin/service", headers: { cookie: admin.cookie } });
    expect(answer.statusCode, answer.body).toBe(200);
    const service = answer.json() as ServiceStatus;
    expect(service.certificates.warningDays).toBe(30);
    expect(service.certificates.unreadable).toEqual([]);
    const [ended, ending, ...others] = service.certificates.certificates;
    expect(ended).toEqual({
      source: "federation ended metadata signer",
      subject: "CN=ended",
      notAfter: new Date(ends.ended).toISOString(),
      daysLeft: -2,
      state: "expired",
    });
    expect(ending).toEqual({
      source: "federation ending metadata signer",
      subject: "CN=ending",
      notAfter: new Date(ends.ending).toISOString(),
      daysLeft: 12,
      state: "expiring",
    });
    const saml = others.find((certificate) => certificate.source.startsWith("SAML signing key "));
    expect(saml?.state).toBe("valid");
    expect(saml?.daysLeft).toBeGreaterThan(9 * 365);
  });

  it("reads the same sign-in count as /metrics serves", async () => {
    const scrape = (await t.app.inject({ url: "/metrics", remoteAddress: "127.0.0.1" })).body;
    const served = [...scrape.matchAll(/^kpi_id_sign_ins_total\{[^}]*result="success"[^}]*\} (\d+)$/gm)].reduce(
      (total, match) => total + Number(match[1]),
      0,
    );
    const service = (await t.app.inject({ url: "/api/admin/service", headers: { cookie: admin.cookie } })).json();
    expect(served).toBeGreaterThan(0);
    expect(service.figures.signIns.success).toBe(served);
  });
});

/** A self-signed certificate (base64 DER, as the SAML tables keep it) valid between the two dates. */
async function selfSigned(commonName: string, notBefore: Date, notAfter: Date): Promise<string> {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "01",
    name: `CN=${commonName}`,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: algorithm,
  });
  return Buffer.from(certificate.rawData).toString("base64");
}

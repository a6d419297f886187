import type { Certificate } from "jkurwa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerOcspRequest } from "../../../../../sandbox/src/diia/ocsp-responder.ts";
import type { Party } from "../../../../../sandbox/src/diia/pki.ts";
import { databaseOcspPersistence } from "../../../src/model/diia/ocsp-answers.ts";
import { loadConfig } from "../../../src/platform/config/index.ts";
import { ocspRequest, verifyOcspResponse } from "../../../src/sign-in/diia/crypto/ocsp.ts";
import { OcspStore } from "../../../src/sign-in/diia/crypto/ocsp-store.ts";
import { checkDiiaRevocation, describeDiiaRevocationLists } from "../../../src/surfaces/doctor/revocation.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";
import { testQualifiedCa } from "../../support/diia-pki.ts";

const hourMs = 3600 * 1000;
const responder = "http://czo.gov.ua/services/ocsp/";

// Two instances share one database: a certificate one instance saw in a callback, the other refreshes too;
// what one fetched, the other (cut off from the responder) uses; doctor and the console see stale answers.
describe.each(aboveModelDatabases)("Diia OCSP answers shared through the database (%s)", (kind) => {
  const now = Date.now();
  let database: TestDatabase;
  let ca: Party;
  let anchor: Certificate;
  let person: Party;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ({ ca, anchor, good: person } = testQualifiedCa());
  });
  afterAll(async () => database?.dispose());

  const lines: string[] = [];
  const log = { info: () => {}, error: (_: object, message: string) => void lines.push(message) };
  const instance = (post: (url: string, request: Buffer) => Promise<Buffer>, verify = verifyOcspResponse) =>
    new OcspStore({
      responders: [responder],
      authorities: [anchor],
      graceSeconds: 3600,
      log,
      post,
      persistence: databaseOcspPersistence(database.handle.db),
      verify,
    });
  const reachable = (at: number) => async (_url: string, request: Buffer) =>
    answerOcspRequest(request, [{ ca, revoked: () => new Set() }], at);
  const unreachable = async (): Promise<Buffer> => {
    throw new Error("connect ECONNREFUSED");
  };
  const environment = {
    NODE_ENV: "production",
    SESSION_SECRET: "Zq8v1Lr0-P4w9sTt7Ue2Kx5Yb3Nc6Md!a",
    DATABASE_URL: "postgres://db/kpi",
    PUBLIC_URL: "https://id.kpi.ua",
    DIIA_BASE_URL: "https://api2.diia.gov.ua",
    DIIA_ACQUIRER_TOKEN: "acquirer-token",
    DIIA_OCSP: `${responder},aia`,
    DIIA_CRL_GRACE_SECONDS: "3600",
  };
  const config = loadConfig(environment);
  const doctor = (at: number) => checkDiiaRevocation(database.handle.db, config, new Date(at));

  it("doctor is content while no certificate is watched yet", async () => {
    expect(await doctor(now)).toMatchObject({ status: "ok", message: "0 OCSP answer(s) current" });
  });

  it("a certificate one instance saw is refreshed by another, and a cut-off instance uses the stored answer", async () => {
    const sawCallback = instance(unreachable);
    sawCallback.watch(person.certificate, anchor, new Date(now));
    await sawCallback.refresh(new Date(now));
    expect(await doctor(now)).toMatchObject({ status: "fail", message: expect.stringContaining("never answered") });
    const other = instance(reachable(now));
    await other.refresh(new Date(now + 1000));
    expect(other.status(person.certificate, new Date(now + 2000))).toBe("good");
    const cutOff = instance(unreachable);
    await cutOff.refresh(new Date(now + 2000));
    expect(cutOff.status(person.certificate, new Date(now + 3000))).toBe("good");
    expect(await doctor(now + 3000)).toMatchObject({ status: "ok", message: "1 OCSP answer(s) current" });
  });

  it("checks a stored answer's signature once, not again at each refresh that reads the same answer", async () => {
    let verified = 0;
    const counting: typeof verifyOcspResponse = (...args) => {
      verified += 1;
      return verifyOcspResponse(...args);
    };
    const refused = () => lines.filter((line) => line.includes("stored answer refused")).length;
    const refusedBefore = refused();
    const cutOff = instance(unreachable, counting);
    await cutOff.refresh(new Date(now + 2000));
    expect(verified).toBe(1);
    await cutOff.refresh(new Date(now + 62_000));
    await cutOff.refresh(new Date(now + 122_000));
    expect(verified).toBe(1);
    expect(cutOff.status(person.certificate, new Date(now + 122_000))).toBe("good");
    // Another instance's newer answer (other bytes) is checked before it is taken; then the stored one is put back.
    const answers = () => database.handle.db.selectFrom("diia_ocsp_answers").select("answer");
    const original = (await answers().executeTakeFirstOrThrow()).answer;
    const newer = await reachable(now + 150_000)(responder, ocspRequest(person.certificate));
    await database.handle.db.updateTable("diia_ocsp_answers").set({ answer: newer }).execute();
    await cutOff.refresh(new Date(now + 182_000));
    expect(verified).toBe(2);
    expect(cutOff.status(person.certificate, new Date(now + 182_000))).toBe("good");
    expect(refused()).toBe(refusedBefore);
    await database.handle.db.updateTable("diia_ocsp_answers").set({ answer: original }).execute();
  });

  it("a stale answer: staleCertificates (the metric), a doctor warning within the grace, a failure after it", async () => {
    const cutOff = instance(unreachable);
    await cutOff.refresh(new Date(now + hourMs + 1000));
    expect(cutOff.staleCertificates(new Date(now + 1000))).toEqual([]);
    expect(cutOff.staleCertificates(new Date(now + hourMs + 1000))).toEqual([person.certificate.serial.toString(16)]);
    expect(await doctor(now + hourMs + 1000)).toMatchObject({
      status: "warn",
      message: expect.stringContaining("still counted for the grace"),
    });
    expect(await doctor(now + 2 * hourMs + 1000)).toMatchObject({
      status: "fail",
      message: expect.stringContaining(`refused for want of a current OCSP answer (${responder})`),
    });
    expect(cutOff.status(person.certificate, new Date(now + 2 * hourMs + 1000))).toBe("unknown");
    // With CRLs configured beside it, a stale answer only warns: the CRLs decide for that signer.
    const withCrls = loadConfig({ ...environment, DIIA_CRLS: "http://ca.example.ua/CA.crl" });
    const both = await checkDiiaRevocation(database.handle.db, withCrls, new Date(now + 2 * hourMs + 1000));
    expect(both?.message).toContain("the CRLs decide for them");
    const consoleSees = (at: number) => describeDiiaRevocationLists(database.handle.db, config, new Date(at));
    expect(await consoleSees(now + 1000)).toEqual([
      { source: "OCSP (1 answer(s))", nextUpdate: null, state: "current" },
    ]);
    expect(await consoleSees(now + hourMs + 1000)).toMatchObject([{ state: "stale" }]);
    expect(await consoleSees(now + 2 * hourMs + 1000)).toMatchObject([{ state: "refusing" }]);
  });

  it("refuses a stored answer whose signature does not verify", async () => {
    const stored = await database.handle.db.selectFrom("diia_ocsp_answers").select("answer").executeTakeFirstOrThrow();
    const tampered = Buffer.from(stored.answer ?? []);
    tampered[tampered.length - 100] = (tampered[tampered.length - 100] ?? 0) ^ 0x01;
    await database.handle.db.updateTable("diia_ocsp_answers").set({ answer: tampered }).execute();
    const cutOff = instance(unreachable);
    await cutOff.refresh(new Date(now));
    expect(lines).toContainEqual(expect.stringMatching(/Diia OCSP stored answer refused/));
    expect(cutOff.status(person.certificate, new Date(now))).toBe("unknown");
  });

  it("keeps watching a certificate callbacks name again, and forgets one none named for 30 days", async () => {
    const dayMs = 24 * hourMs;
    const lastSeen = async () =>
      (await database.handle.db.selectFrom("diia_ocsp_answers").select("last_seen_at").executeTakeFirstOrThrow())
        .last_seen_at;
    const store = instance(reachable(now));
    await store.refresh(new Date(now));
    const before = await lastSeen();
    store.watch(person.certificate, anchor, new Date(now + 2 * dayMs));
    await store.refresh(new Date(now + 2 * dayMs));
    expect((await lastSeen()).getTime()).toBe(now + 2 * dayMs);
    expect((await lastSeen()).getTime()).toBeGreaterThan(before.getTime());
    expect(store.size).toBe(1);
    await store.refresh(new Date(now + 33 * dayMs));
    expect(store.size).toBe(0);
    expect(await doctor(now + 33 * dayMs)).toMatchObject({ status: "ok", message: "0 OCSP answer(s) current" });
  });
});

import type { Certificate } from "jkurwa";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { issueCrl, type Party } from "../../../../../sandbox/src/diia/pki.ts";
import { databaseCrlPersistence } from "../../../src/model/diia/revocation-lists.ts";
import { loadConfig } from "../../../src/platform/config/index.ts";
import { CrlStore } from "../../../src/sign-in/diia/crypto/crl-store.ts";
import { checkDiiaRevocation, describeDiiaRevocationLists } from "../../../src/surfaces/doctor/revocation.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";
import { testQualifiedCa } from "../../support/diia-pki.ts";

const hourMs = 3600 * 1000;
const source = "http://ca.example.ua/download/crls/CA-Full.crl";

// Two instances share one database: what one fetched, the other (cut off from the CA) uses; doctor
// and the background refresh see when a list goes stale.
describe.each(aboveModelDatabases)("Diia CRLs shared through the database (%s)", (kind) => {
  const now = Date.now();
  let database: TestDatabase;
  let ca: Party;
  let anchor: Certificate;
  let revoked: Party;
  let good: Party;
  let crl: Buffer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ({ ca, anchor, revoked, good } = testQualifiedCa());
    crl = issueCrl(ca, [revoked.certificate], { thisUpdate: now, nextUpdate: now + hourMs });
  });
  afterAll(async () => database?.dispose());

  const lines: string[] = [];
  const log = { info: () => {}, error: (_: object, message: string) => void lines.push(message) };
  const instance = (load: () => Promise<Buffer>) =>
    new CrlStore({
      sources: [source],
      authorities: [anchor],
      graceSeconds: 3600,
      log,
      load,
      persistence: databaseCrlPersistence(database.handle.db),
    });
  const unreachable = async (): Promise<Buffer> => {
    throw new Error("connect ECONNREFUSED");
  };
  const config = loadConfig({
    NODE_ENV: "production",
    SESSION_SECRET: "Zq8v1Lr0-P4w9sTt7Ue2Kx5Yb3Nc6Md!a",
    DATABASE_URL: "postgres://db/kpi",
    PUBLIC_URL: "https://id.kpi.ua",
    DIIA_BASE_URL: "https://api2.diia.gov.ua",
    DIIA_ACQUIRER_TOKEN: "acquirer-token",
    DIIA_CRLS: source,
    DIIA_CRL_GRACE_SECONDS: "3600",
  });
  const doctor = (at: number) => checkDiiaRevocation(database.handle.db, config, new Date(at));

  it("doctor fails while no instance ever loaded the CRL", async () => {
    expect(await doctor(now)).toMatchObject({ status: "fail", message: expect.stringContaining("never loaded") });
  });

  it("an instance that cannot reach the CA uses the list another instance fetched over plain http", async () => {
    await instance(async () => crl).refresh(new Date(now));
    const cutOff = instance(unreachable);
    await cutOff.refresh(new Date(now + 1000));
    expect(cutOff.status(good.certificate, anchor, new Date(now + 2000))).toBe("good");
    expect(cutOff.status(revoked.certificate, anchor, new Date(now + 2000))).toBe("revoked");
    expect(await doctor(now + 2000)).toMatchObject({ status: "ok" });
  });

  it("a stale list: named by staleSources (the metric), a doctor warning within the grace, a failure after it", async () => {
    const cutOff = instance(unreachable);
    await cutOff.refresh(new Date(now));
    expect(cutOff.staleSources(new Date(now + 1000))).toEqual([]);
    expect(cutOff.staleSources(new Date(now + hourMs + 1000))).toEqual([source]);
    expect(await doctor(now + hourMs + 1000)).toMatchObject({
      status: "warn",
      message: expect.stringContaining("still counted for the grace"),
    });
    expect(cutOff.status(good.certificate, anchor, new Date(now + hourMs + 1000))).toBe("good");
    expect(await doctor(now + 2 * hourMs + 1000)).toMatchObject({
      status: "fail",
      message: expect.stringContaining(`${source} (stale since`),
    });
    expect(cutOff.status(good.certificate, anchor, new Date(now + 2 * hourMs + 1000))).toBe("unknown");
    // The console's notice (/api/admin/service's revocationLists) says the same.
    const consoleSees = (at: number) => describeDiiaRevocationLists(database.handle.db, config, new Date(at));
    expect(await consoleSees(now + 1000)).toEqual([{ source, nextUpdate: null, state: "current" }]);
    expect(await consoleSees(now + hourMs + 1000)).toMatchObject([{ source, state: "stale" }]);
    expect(await consoleSees(now + 2 * hourMs + 1000)).toMatchObject([{ source, state: "refusing" }]);
  });

  it("refreshes in the background once the list is past nextUpdate, and never stores an older list", async () => {
    const fresh = issueCrl(ca, [], { thisUpdate: now + hourMs, nextUpdate: now + 3 * hourMs });
    let clock = new Date(now + hourMs + 5000);
    let served = fresh;
    const loads: number[] = [];
    const store = instance(async () => {
      loads.push(clock.getTime());
      return served;
    });
    const stop = store.startBackgroundRefresh(() => clock, 20);
    try {
      await vi.waitFor(() => expect(store.status(revoked.certificate, anchor, clock)).toBe("good"));
      // The list is held before it is written to the database (adopt, then save): wait for the write too.
      await vi.waitFor(async () => expect(await doctor(clock.getTime())).toMatchObject({ status: "ok" }));
      // Current now: the background refresh asks no one.
      const asked = loads.length;
      clock = new Date(clock.getTime() + 60_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(loads.length).toBe(asked);
      // An older list served later (a stale mirror) replaces neither the held one nor the stored one.
      served = crl;
      await store.refresh(clock);
      expect(store.status(revoked.certificate, anchor, clock)).toBe("good");
      const other = instance(unreachable);
      await other.refresh(clock);
      expect(other.status(revoked.certificate, anchor, clock)).toBe("good");
    } finally {
      stop();
    }
  });

  it("refuses a stored copy whose signature does not verify", async () => {
    const tampered = Buffer.from(crl);
    tampered[tampered.length - 3] = (tampered[tampered.length - 3] ?? 0) ^ 0x01;
    await database.handle.db.updateTable("diia_revocation_lists").set({ der: tampered }).execute();
    const cutOff = instance(unreachable);
    await cutOff.refresh(new Date(now));
    expect(lines).toContainEqual(expect.stringMatching(/Diia CRL stored copy refused/));
    expect(cutOff.status(good.certificate, anchor, new Date(now))).toBe("unknown");
  });
});

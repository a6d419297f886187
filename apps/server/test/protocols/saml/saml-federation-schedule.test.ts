import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { listServiceProviders } from "../../../src/model/saml/service-providers.ts";
import { listFederations, refreshFederations, saveFederation } from "../../../src/protocols/saml/federation.ts";
import { testConfig } from "../../support/app.ts";
import { aboveModelDatabases, createTestDatabase } from "../../support/databases.ts";
import { signedAggregate } from "./aggregate.ts";
import { makeKeyPair } from "./keys.ts";
import { nodeSamlSp } from "./node-saml-sp.ts";

describe("the server refreshes federation aggregates on its own", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
    vi.useRealTimers();
  });

  it("at start and then every SAML_FEDERATION_REFRESH_SECONDS", async () => {
    const federation = makeKeyPair("scheduled-federation");
    const sp = (host: string) =>
      nodeSamlSp({ baseUrl: `https://${host}`, idpUrl: "https://id.kpi.ua", idpCertificate: "x" });
    const first = sp("first.example.org");
    const second = sp("second.example.org");
    const file = join(federation.dir, "aggregate.xml");
    const inAWeek = new Date(Date.now() + 7 * 86_400_000);
    writeFileSync(file, signedAggregate([first.metadata], inAWeek, federation));
    const database = await createTestDatabase("pglite");
    const { db } = database.handle;
    await saveFederation(db, {
      name: "peano",
      source: file,
      certificate: federation.certificate,
      entityCategories: [],
    });
    // Only the refresh interval is faked; everything else (the database, xmllint) keeps real time.
    vi.useFakeTimers({ toFake: ["setInterval"] });
    const config = testConfig({ SAML_FEDERATION_REFRESH_SECONDS: "3600" });
    const app = await buildApp({ config, database: database.handle, logger: false });
    closers.push(async () => {
      await app.close();
      await database.dispose();
    });
    await app.ready();
    const registered = async () => (await listServiceProviders(db)).map((row) => row.entity_id);
    await vi.waitFor(async () => expect(await registered()).toEqual([first.entityId]), { timeout: 30_000 });
    writeFileSync(file, signedAggregate([second.metadata], inAWeek, federation));
    expect(await registered()).toEqual([first.entityId]);
    vi.advanceTimersByTime(3600 * 1000);
    await vi.waitFor(async () => expect(await registered()).toEqual([second.entityId]), { timeout: 30_000 });
  });

  it("registers the SPs of the federation SAML_FEDERATION_* names before it answers its first request", async () => {
    const federation = makeKeyPair("configured-federation");
    const sp = nodeSamlSp({
      baseUrl: "https://configured.example.org",
      idpUrl: "https://id.kpi.ua",
      idpCertificate: "x",
    });
    const file = join(federation.dir, "aggregate.xml");
    writeFileSync(file, signedAggregate([sp.metadata], new Date(Date.now() + 86_400_000), federation));
    const database = await createTestDatabase("pglite");
    const config = testConfig({
      SAML_FEDERATION_NAME: "peano",
      SAML_FEDERATION_METADATA: file,
      SAML_FEDERATION_CERTIFICATE_FILE: federation.certFile,
    });
    const app = await buildApp({ config, database: database.handle, logger: false });
    closers.push(async () => {
      await app.close();
      await database.dispose();
    });
    await app.ready();
    const [saved] = await listFederations(database.handle.db);
    expect(saved).toMatchObject({ name: "peano", source: file, certificate: federation.certificate, last_error: null });
    expect((await listServiceProviders(database.handle.db)).map((row) => row.entity_id)).toEqual([sp.entityId]);
    expect(() => testConfig({ SAML_FEDERATION_METADATA: file })).toThrow(/SAML_FEDERATION_CERTIFICATE_FILE/);
  });
});

describe.each(aboveModelDatabases)("federation refresh on %s", (kind) => {
  it("runs on one instance at a time: while another holds the lock it skips the round", async () => {
    const database = await createTestDatabase(kind);
    const { db } = database.handle;
    try {
      const federation = makeKeyPair("locked-federation");
      const sp = nodeSamlSp({
        baseUrl: "https://locked.example.org",
        idpUrl: "https://id.kpi.ua",
        idpCertificate: "x",
      });
      const file = join(federation.dir, "aggregate.xml");
      writeFileSync(file, signedAggregate([sp.metadata], new Date(Date.now() + 86_400_000), federation));
      await saveFederation(db, {
        name: "peano",
        source: file,
        certificate: federation.certificate,
        entityCategories: [],
      });
      const options = { now: new Date(), readFile: async () => readFileSync(file, "utf8") };
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const other = db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${0x4b504946})`.execute(trx);
        locked();
        await held;
      });
      await isLocked;
      // PGlite has one connection: the holder's transaction would queue ours, so only PostgreSQL shows the skip.
      if (kind === "postgres") {
        expect(await refreshFederations(db, options)).toBeUndefined();
        expect(await listServiceProviders(db)).toEqual([]);
      }
      release();
      await other;
      expect(await refreshFederations(db, options)).toEqual([]);
      expect((await listServiceProviders(db)).map((row) => row.entity_id)).toEqual([sp.entityId]);
    } finally {
      await database.dispose();
    }
  });
});

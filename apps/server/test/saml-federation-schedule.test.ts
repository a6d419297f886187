import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../src/app.ts";
import { saveFederation } from "../src/saml/federation.ts";
import { listServiceProviders } from "../src/saml/sp-registry.ts";
import { signedAggregate } from "./saml/aggregate.ts";
import { makeKeyPair } from "./saml/keys.ts";
import { nodeSamlSp } from "./saml/node-saml-sp.ts";
import { testConfig } from "./support/app.ts";
import { createTestDatabase } from "./support/databases.ts";

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
});

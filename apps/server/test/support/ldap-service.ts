import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { upsertUnit } from "../../src/model/people/units.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { aboveModelDatabase } from "./databases.ts";
import { startTestSlapd, type TestSlapd } from "./openldap.ts";

export interface KpiIdBesideSlapd {
  dir: string;
  slapd: TestSlapd;
  kpi: TestApp;
}

/**
 * A test slapd with the shipped configuration and a KPI ID keeping its directory, with two faculties (FICT, FEL):
 * the hourly resynchronisation never comes within a test, so what a test sees is what KPI ID's changes wrote.
 */
export async function kpiIdBesideSlapd(folderPrefix: string): Promise<KpiIdBesideSlapd> {
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  let slapd: TestSlapd | undefined;
  let kpi: TestApp | undefined;
  try {
    slapd = await startTestSlapd(dir);
    kpi = await createTestApp(
      aboveModelDatabase,
      {
        LDAP_LDAPI_PATH: slapd.ldapiPath,
        LDAP_BIND_SOCKET: slapd.bindSocket,
        LDAP_RESYNC_SECONDS: "3600",
      },
      // Only the directory's keeper: its callers drive LDAP and the model, no other protocol.
      { protocols: ["ldap"] },
    );
    await upsertUnit(kpi.app.db, { code: "FICT", kind: "faculty", nameUk: "ФІОТ", nameEn: "Faculty of Informatics" });
    await upsertUnit(kpi.app.db, { code: "FEL", kind: "faculty", nameUk: "ФЕЛ", nameEn: "Faculty of Electronics" });
    return { dir, slapd, kpi };
  } catch (error) {
    // The test file never gets them to stop: a slapd left running would outlive the suite.
    await kpi?.close().catch(() => {});
    await slapd?.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

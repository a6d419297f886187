import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../sandbox/src/diia/index.ts";
import { runCliOn } from "./support/cli.ts";
import { createTestDatabase, type TestDatabase } from "./support/databases.ts";
import { startTestDiia } from "./support/diia.ts";

const baseEnv = {
  NODE_ENV: "test",
  SESSION_SECRET: "cli-test-session-secret-0123456789-abcdefghijkl",
  DATA_DIR: "/tmp/kpi-id-cli-test",
};

describe("kpi-id diia setup / status", () => {
  let database: TestDatabase;
  let diia: RunningDiiaStandIn;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    diia = await startTestDiia();
  });
  afterAll(async () => {
    await diia?.close();
    await database?.dispose();
  });

  const cli = (args: string[], env: Record<string, string | undefined>) =>
    runCliOn(database.handle, args, { env: { ...baseEnv, ...env } });

  const connection = () => ({ DIIA_BASE_URL: diia.url, DIIA_ACQUIRER_TOKEN: diia.env.DIIA_ACQUIRER_TOKEN });

  it("creates the branch with the Diia ID scope and its offer, and prints their ids", async () => {
    const run = await cli(["diia", "setup", "--json"], connection());
    expect(run.code).toBe(0);
    const { branchId, offerId } = JSON.parse(run.stdout) as { branchId: string; offerId: string };
    expect(diia.state.branches.get(branchId)).toMatchObject({
      scopes: { diiaId: ["auth"] },
      region: "м. Київ",
      district: "Солом'янський р-н",
      location: "м. Київ",
      street: "просп. Берестейський",
      house: "37",
    });
    expect(diia.state.offers.get(offerId)?.branchId).toBe(branchId);
    const text = await cli(["diia", "setup", "--branch", branchId], connection());
    expect(text.stdout).toMatch(new RegExp(`DIIA_BRANCH_ID=${branchId}\\nDIIA_OFFER_ID=\\w+`));
  });

  it("sends the configured branch address, and an option overrides one field", async () => {
    const address = {
      DIIA_BRANCH_REGION: "Київська обл.",
      DIIA_BRANCH_DISTRICT: "Бучанський р-н",
      DIIA_BRANCH_LOCATION: "м. Ірпінь",
      DIIA_BRANCH_STREET: "вул. Університетська",
      DIIA_BRANCH_HOUSE: "2г",
    };
    const run = await cli(["diia", "setup", "--json", "--house", "5"], { ...connection(), ...address });
    expect(run.code).toBe(0);
    const { branchId } = JSON.parse(run.stdout) as { branchId: string };
    expect(diia.state.branches.get(branchId)).toMatchObject({
      region: "Київська обл.",
      district: "Бучанський р-н",
      location: "м. Ірпінь",
      street: "вул. Університетська",
      house: "5",
      customFullAddress: "м. Ірпінь, вул. Університетська, 5",
    });
    const tooShort = await cli(["diia", "status"], { ...connection(), DIIA_BRANCH_STREET: "в" });
    expect(tooShort.code).not.toBe(0);
    expect(tooShort.stderr).toContain("DIIA_BRANCH_STREET");
  });

  it("reports ready with the sandbox's configuration and names what is missing otherwise", async () => {
    const ready = await cli(["diia", "status"], diia.env);
    expect(ready.code).toBe(0);
    expect(ready.stdout).toContain("Sign-in with Diia is ready.");
    expect(ready.stdout).not.toContain(diia.env.DIIA_ACQUIRER_TOKEN);

    const partial = await cli(["diia", "status"], connection());
    expect(partial.code).toBe(1);
    expect(partial.stdout).toContain("Not ready: branch, offer, trust anchors.");
  });

  it("fails clearly when Diia is not configured or refuses the acquirer token", async () => {
    const unconfigured = await cli(["diia", "setup"], {});
    expect(unconfigured.code).toBe(1);
    expect(unconfigured.stderr).toContain("DIIA_BASE_URL");
    const refused = await cli(["diia", "setup"], { DIIA_BASE_URL: diia.url, DIIA_ACQUIRER_TOKEN: "not-ours" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("401");
    expect(refused.stderr).not.toContain("not-ours");
  });
});

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { runCliOn } from "../../support/cli.ts";
import { createTestDatabase, type TestDatabase } from "../../support/databases.ts";
import { startTestDiia } from "../../support/diia.ts";

/** A Diia whose token call works and whose every other call is refused with `body`. */
async function startRefusingDiia(body: string) {
  const server = createServer((request, response) => {
    const tokenCall = request.url?.startsWith("/api/v1/auth/acquirer/");
    response.writeHead(tokenCall ? 200 : 400, { "content-type": "application/json" });
    response.end(tokenCall ? JSON.stringify({ token: "eyJhbGciOiJSUzI1NiJ9.eyJzZXNzaW9uIjoieSJ9.c2ln" }) : body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
    expect(ready.stdout).toMatch(/callback address \S+\/api\/diia\/callback and scope diiaId: auth are set by Diia/);

    const partial = await cli(["diia", "status"], connection());
    expect(partial.code).toBe(1);
    expect(partial.stdout).toContain("Not ready: branch, offer, trust anchors.");
  });

  it("shows what Diia said when it refuses a call, without any token", async () => {
    // A Diia that refuses the branch and echoes the session token and a JWT back in its error.
    const token = diia.env.DIIA_ACQUIRER_TOKEN ?? "";
    const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJkYXRhIjoieCJ9.c2lnbmF0dXJl";
    const refusing = await startRefusingDiia(
      `{"code":400,"message":"Branch scope diiaId is not allowed for this acquirer","token":"${token}","jwt":"${jwt}",` +
        `"detail":"${"x".repeat(600)}"}`,
    );
    try {
      const run = await cli(["diia", "setup"], { DIIA_BASE_URL: refusing.url, DIIA_ACQUIRER_TOKEN: token });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("Diia answered 400 to POST /api/v2/acquirers/branch");
      expect(run.stderr).toContain("Branch scope diiaId is not allowed for this acquirer");
      expect(run.stderr).not.toContain(token);
      expect(run.stderr).not.toContain(jwt);
      expect(run.stderr).not.toContain("x".repeat(400));
    } finally {
      await refusing.close();
    }
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

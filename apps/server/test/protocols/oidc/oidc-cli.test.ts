import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";

describe.each(aboveModelDatabases)("OpenID Connect operator commands on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  const cli = (args: string[]) => runCliOn(database.handle, args, { env: { PUBLIC_URL: "https://id.kpi.example" } });

  const base = ["--title", "Журнал", "--callback-url", "https://journal.kpi.example/ticket"];

  it("creates an OpenID Connect client with redirect URIs, scopes and settings", async () => {
    const created = await cli([
      "app",
      "create",
      "--name",
      "journal",
      ...base,
      "--oidc",
      "--redirect-uri",
      "https://journal.kpi.example/cb",
      "--redirect-uri",
      "http://localhost:5173/cb",
      "--post-logout-redirect-uri",
      "https://journal.kpi.example/bye",
      "--scope",
      "profile email",
      "--scope",
      "tax_id",
      "--first-party",
      "--json",
    ]);
    expect(created.code).toBe(0);
    expect(created.json()).toMatchObject({
      oidc: true,
      redirectUris: ["https://journal.kpi.example/cb", "http://localhost:5173/cb"],
      postLogoutRedirectUris: ["https://journal.kpi.example/bye"],
      scopes: ["openid", "profile", "email", "tax_id"],
      firstParty: true,
      tokenEndpointAuthMethod: "client_secret_basic",
    });
    const text = await cli(["app", "update", "--app", "journal"]);
    expect(text.stdout).toContain("issuer:        https://id.kpi.example/oidc");
  });

  it("updates an application into a public client and back, and can switch OpenID Connect off", async () => {
    const updated = await cli(["app", "update", "--app", "journal", "--public", "--third-party", "--json"]);
    expect(updated.json()).toMatchObject({ tokenEndpointAuthMethod: "none", firstParty: false, oidc: true });
    const device = await cli(["app", "update", "--app", "journal", "--device-flow", "--json"]);
    expect(device.json()).toMatchObject({ deviceFlow: true, oidc: true });
    expect((await cli(["app", "update", "--app", "journal"])).stdout).toContain("device flow:   allowed (RFC 8628)");
    const noDevice = await cli(["app", "update", "--app", "journal", "--no-device-flow", "--json"]);
    expect(noDevice.json()).toMatchObject({ deviceFlow: false });
    const off = await cli(["app", "update", "--app", "journal", "--disable-oidc", "--json"]);
    expect(off.json()).toMatchObject({ oidc: false });
  });

  it("refuses bad flags with a usage error and creates nothing", async () => {
    const noRedirect = await cli(["app", "create", "--name", "no-redirect", ...base, "--oidc"]);
    expect(noRedirect.code).toBe(2);
    expect(noRedirect.stderr).toContain("--redirect-uri");
    const badUri = await cli([
      "app",
      "create",
      "--name",
      "bad-uri",
      ...base,
      "--oidc",
      "--redirect-uri",
      "http://evil.example/cb",
    ]);
    expect(badUri.code).toBe(2);
    expect(badUri.stderr).toContain("--redirect-uri");
    const badScope = await cli([
      "app",
      "create",
      "--name",
      "bad-scope",
      ...base,
      "--oidc",
      "--redirect-uri",
      "https://a.example/cb",
      "--scope",
      "admin",
    ]);
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toContain("admin");
    const list = await cli(["app", "list", "--json"]);
    expect((list.json() as { name: string }[]).map((a) => a.name)).toEqual(["journal"]);
    const unknown = await cli(["app", "update", "--app", "nope", "--oidc"]);
    expect(unknown.code).toBe(1);
  });

  it("rotates signing keys, keeping the retired one published", async () => {
    type Rotation = { kid: string; retired: string[] };
    const first = await cli(["keys", "rotate", "--json"]);
    expect(first.code).toBe(0);
    const second = await cli(["keys", "rotate", "--json"]);
    expect(second.json<Rotation>().retired).toEqual([first.json<Rotation>().kid]);
    const keys = await cli(["keys", "list", "--json"]);
    const rows = keys.json() as { kid: string; published: boolean; state: string }[];
    // The second signs once its activation delay has passed; until then the first does.
    expect(rows.map((row) => [row.kid, row.published, row.state])).toEqual([
      [second.json<Rotation>().kid, true, "next"],
      [first.json<Rotation>().kid, true, "current"],
    ]);
    // Each rotation is audited, as the console's is.
    const audited = await database.handle.db
      .selectFrom("audit_events")
      .select(["reason", "details"])
      .where("event_type", "=", "signing_keys_rotated")
      .orderBy("id")
      .execute();
    expect(audited).toEqual([
      { reason: "cli", details: { kid: first.json<Rotation>().kid, retired: [] } },
      { reason: "cli", details: { kid: second.json<Rotation>().kid, retired: [first.json<Rotation>().kid] } },
    ]);
  });

  it("rolls the key over in stages: prepare, promote once every server publishes it, retire after the overlap", async () => {
    const db = database.handle.db;
    const states = async () =>
      ((await cli(["keys", "list", "--json"])).json() as { kid: string; state: string }[]).map((row) => row.state);
    // Start from one signing key that has signed for a while.
    await db.deleteFrom("oidc_signing_keys").execute();
    await cli(["keys", "rotate"]);
    const past = (seconds: number) => new Date(Date.now() - seconds * 1000);
    await db
      .updateTable("oidc_signing_keys")
      .set({ created_at: past(7200), activates_at: past(7000) })
      .execute();

    const prepared = await cli(["keys", "prepare", "--json"]);
    expect(prepared.code).toBe(0);
    const next = prepared.json<{ kid: string }>().kid;
    expect(await states()).toEqual(["next", "current"]);
    const early = await cli(["keys", "promote"]);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain("promote it from");
    await db
      .updateTable("oidc_signing_keys")
      .set({ created_at: past(300) })
      .where("kid", "=", next)
      .execute();
    const promoted = await cli(["keys", "promote", "--json"]);
    expect(promoted.code).toBe(0);
    expect(promoted.json()).toMatchObject({ outcome: "promoted", kid: next });
    expect(await states()).toEqual(["current", "previous"]);

    const inOverlap = await cli(["keys", "retire"]);
    expect(inOverlap.code).toBe(1);
    expect(inOverlap.stderr).toContain("--force");
    expect((await cli(["keys", "retire", "--kid", next])).stderr).toContain("signs now");
    const forced = await cli(["keys", "retire", "--force", "--json"]);
    expect(forced.code).toBe(0);
    expect(await states()).toEqual(["current"]);
    const steps = await db
      .selectFrom("audit_events")
      .select("details")
      .where("event_type", "=", "signing_keys_rotated")
      .orderBy("id", "desc")
      .limit(3)
      .execute();
    expect(steps.map((row) => (row.details as { step?: string }).step)).toEqual(["retire", "promote", "prepare"]);
  });
});

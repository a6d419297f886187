import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyStates } from "../../../src/model/oidc/keys.ts";
import { listMigrations, migrate } from "../../../src/platform/db/migrate.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../support/databases.ts";

/**
 * Migration 0465 gives OpenID Connect keys made before the staged rollover an
 * activation time by 0.3.0's rule (120 s after they were made), so the key that
 * signed before the upgrade signs after it, and one rotated just before the
 * upgrade still takes over when 0.3.0 would have let it.
 */
describe.each(databaseKinds)("migration 0465 on keys made before it (%s)", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { migrated: false });
  });
  afterAll(() => database.dispose());

  it("keeps the signing key signing and a just-rotated key due 120 s after it was made", async () => {
    const all = listMigrations();
    await migrate(
      database.handle,
      all.filter((migration) => migration.version < 465),
    );
    const now = Date.now();
    const at = (secondsAgo: number) => new Date(now - secondsAgo * 1000);
    // What 0.3.0's `keys rotate` left a minute ago: the old key retired, the new one not yet signing.
    await database.handle.db
      .insertInto("oidc_signing_keys")
      .values([
        { kid: "old", encrypted_jwk: "v1.x.y.z", created_at: at(86_400), retired_at: at(60) },
        { kid: "new", encrypted_jwk: "v1.x.y.z", created_at: at(60) },
      ])
      .execute();
    expect(await migrate(database.handle)).toContain("0465_oidc_key_rollover");
    const rows = await database.handle.db
      .selectFrom("oidc_signing_keys")
      .select(["kid", "created_at", "activates_at"])
      .orderBy("created_at", "desc")
      .execute();
    expect(rows.map((row) => (row.activates_at?.getTime() ?? 0) - row.created_at.getTime())).toEqual([
      120_000, 120_000,
    ]);
    const stateNow = keyStates(rows, new Date(now));
    expect(rows.map((row) => [row.kid, stateNow.get(row)])).toEqual([
      ["new", "next"],
      ["old", "current"],
    ]);
    const stateLater = keyStates(rows, new Date(now + 61_000));
    expect(rows.map((row) => [row.kid, stateLater.get(row)])).toEqual([
      ["new", "current"],
      ["old", "previous"],
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../src/model/users/queries.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";

describe.each(aboveModelDatabases)("operator CLI: Google links (%s)", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    for (const username of ["o.petrenko", "i.bondar"]) {
      await insertUser(database.handle.db, {
        username,
        password_hash: null,
        full_name: username,
        email: null,
        tax_id: null,
        student_id: null,
        employee_id: null,
      });
    }
  });
  afterAll(() => database.dispose());

  const cli = (...args: string[]) => runCliOn(database.handle, args);

  const links = () =>
    database.handle.db.selectFrom("external_identities").select(["subject", "user_id"]).orderBy("subject").execute();

  it("links a Google subject to a person, idempotently", async () => {
    const linked = await cli("user", "link-google", "--username", "o.petrenko", "--subject", "109876543210987654321");
    expect(linked.code).toBe(0);
    expect(linked.stdout).toContain("o.petrenko can now sign in with Google account 109876543210987654321");
    const again = await cli("user", "link-google", "--username", "O.Petrenko", "--subject", "109876543210987654321");
    expect(again.code).toBe(0);
    expect(await links()).toHaveLength(1);
  });

  it("refuses to move a subject linked to someone else", async () => {
    const taken = await cli("user", "link-google", "--username", "i.bondar", "--subject", "109876543210987654321");
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("linked to 'o.petrenko'");
  });

  it("rejects bad arguments with usage (exit 2) and unknown people (exit 1)", async () => {
    expect((await cli("user", "link-google", "--username", "o.petrenko")).code).toBe(2);
    expect((await cli("user", "link-google", "--username", "o.petrenko", "--subject", "has space")).code).toBe(2);
    expect((await cli("user", "link-google", "--username", "nobody", "--subject", "1")).code).toBe(1);
    expect((await cli("user", "unlink-google", "--username", "nobody")).code).toBe(1);
  });

  it("unlinks every Google account of a person", async () => {
    await cli("user", "link-google", "--username", "o.petrenko", "--subject", "second-subject");
    const removed = await cli("user", "unlink-google", "--username", "o.petrenko", "--json");
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ username: "o.petrenko", unlinked: 2 });
    expect(await links()).toEqual([]);
    const none = await cli("user", "unlink-google", "--username", "o.petrenko");
    expect(none.stdout).toContain("had no linked Google account");
  });
});

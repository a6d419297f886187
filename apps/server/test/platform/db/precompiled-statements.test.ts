import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompiled } from "../../../src/platform/db/precompiled.ts";
import type { UserStatus } from "../../../src/platform/db/schema.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson } from "../../support/campus.ts";

/**
 * A statement on a hot path is built with Kysely once and then only given new values (db/precompiled.ts, the
 * ticket exchange's). What it answers must be what the same statement built afresh answers.
 */
describe("a statement built once and run with new values", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: [] });
  });
  afterAll(() => test?.close());

  const peopleNamed = precompiled((db, values: { prefix: string; status: UserStatus; limit: number }) =>
    db
      .selectFrom("users")
      .select(["username", "full_name"])
      .where("username", "like", values.prefix)
      .where((eb) => eb.or([eb("status", "=", values.status), eb("full_name", "like", values.prefix)]))
      .orderBy("username")
      .limit(values.limit),
  );

  it("answers each call with its own values, a value used twice in both places, as the builder does", async () => {
    for (const username of ["pre.a", "pre.b", "pre.c", "other.d"])
      await addPerson(test.app, { username, fullName: `Name of ${username}` }, "precompiled passphrase");
    await test.app.db.updateTable("users").set({ status: "disabled" }).where("username", "=", "pre.b").execute();
    const builder = (prefix: string, status: UserStatus, limit: number) =>
      test.app.db
        .selectFrom("users")
        .select(["username", "full_name"])
        .where("username", "like", prefix)
        .where((eb) => eb.or([eb("status", "=", status), eb("full_name", "like", prefix)]))
        .orderBy("username")
        .limit(limit)
        .execute();
    const calls: [string, UserStatus, number][] = [
      ["pre.%", "active", 10],
      ["pre.%", "disabled", 10],
      ["pre.%", "active", 1],
      ["other.%", "active", 10],
      ["nobody%", "active", 10],
    ];
    const answers = [];
    for (const [prefix, status, limit] of calls) {
      const answer = await peopleNamed(test.app.db, { prefix, status, limit });
      expect(answer).toEqual(await builder(prefix, status, limit));
      answers.push(answer.map((row) => row.username));
    }
    expect(answers).toEqual([["pre.a", "pre.c"], ["pre.b"], ["pre.a"], ["other.d"], []]);
  });

  it("refuses a value worked on while the statement is built, rather than run the first call's for ever", async () => {
    const { application } = await addApplication(test.app);
    // The stand-in is turned into text here, once: every later call would search for that same text.
    const worked = precompiled((db, values: { prefix: string }) =>
      db.selectFrom("applications").select("id").where("name", "like", `${values.prefix}%`),
    );
    await expect(worked(test.app.db, { prefix: application.name })).rejects.toThrow(
      "prefix was worked on while the statement was built",
    );
  });
});

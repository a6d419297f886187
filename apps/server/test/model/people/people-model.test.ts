import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { affiliationsOf, recordsOf } from "../../../src/model/people/records.ts";
import type { ImportReport } from "../../../src/model/users/import.ts";
import { replacePersonRecords } from "../../../src/model/users/primary-records.ts";
import { findUserByUsername } from "../../../src/model/users/queries.ts";
import { type CliRun, runCliOn } from "../../support/cli.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../support/databases.ts";

describe.each(databaseKinds)("the people model on %s", (kind) => {
  let database: TestDatabase;
  const cli = (args: string[]): Promise<CliRun> => runCliOn(database.handle, args);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    for (const unit of [
      ["--code", "FIOT", "--kind", "faculty", "--name-uk", "ФІОТ", "--name-en", "Faculty of Informatics"],
      ["--code", "IP-21", "--kind", "group", "--name-uk", "ІП-21", "--parent", "FIOT"],
      ["--code", "HR", "--kind", "office", "--name-uk", "Відділ кадрів"],
    ]) {
      const result = await cli(["unit", "set", ...unit]);
      expect(result.code, result.stderr).toBe(0);
    }
  });
  afterAll(() => database.dispose());

  async function runImport(lines: string[]): Promise<ImportReport> {
    const file = join(mkdtempSync(join(tmpdir(), "kpi-id-people-")), "people.csv");
    writeFileSync(file, lines.join("\n"));
    const result = await cli(["user", "import", "--file", file, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    return result.json<ImportReport>();
  }

  it("names a unit once: the same code in another case is the same unit, a cycle is refused", async () => {
    const again = await cli(["unit", "set", "--code", "fiot", "--kind", "faculty", "--name-uk", "ФІОТ", "--json"]);
    expect(again.json<{ created: boolean }>().created).toBe(false);
    const cycle = await cli([
      "unit",
      "set",
      "--code",
      "FIOT",
      "--kind",
      "faculty",
      "--name-uk",
      "Ф",
      "--parent",
      "IP-21",
    ]);
    expect(cycle.code).toBe(1);
    expect(cycle.stderr).toContain("lies under");
    const list = await cli(["unit", "list", "--json"]);
    expect(list.json<{ code: string; parent: string }[]>()).toEqual([
      expect.objectContaining({ code: "FIOT", parent: "" }),
      expect.objectContaining({ code: "HR", parent: "" }),
      expect.objectContaining({ code: "IP-21", parent: "FIOT" }),
    ]);
  });

  it("maps the CSV's ids, units and statuses onto the primary records, and refuses unknown units", async () => {
    const report = await runImport([
      "username,full-name,student-id,student-unit,student-status,employee-id,employee-unit,employee-status",
      "o.student,Олена Студентка,KV-100,IP-21,academic_leave,E-100,HR,active",
      "bad.unit,Хтось,KV-101,NOPE,,,,",
      "bad.status,Хтось,KV-102,,expelled,,,",
    ]);
    expect(report.created).toBe(1);
    expect(report.rejected.map((rejected) => [rejected.line, rejected.reason])).toEqual([
      [3, "studentUnit: unknown unit 'NOPE'"],
      [4, expect.stringContaining("studentStatus")],
    ]);
    const person = await findUserByUsername(database.handle.db, "o.student");
    expect(person).toMatchObject({ student_id: "KV-100", employee_id: "E-100" });
    const records = await recordsOf(database.handle.db, person?.id ?? "");
    expect(records.students).toEqual([
      expect.objectContaining({ student_id: "KV-100", status: "academic_leave", source: "csv", is_primary: true }),
    ]);
    expect(await affiliationsOf(database.handle.db, person?.id ?? "")).toEqual([
      "student",
      "staff",
      "employee",
      "member",
    ]);

    // A re-import that names another id changes the primary record's id; (clear) removes it.
    await runImport(["username,full-name,student-id", "o.student,,KV-200"]);
    expect(await findUserByUsername(database.handle.db, "o.student")).toMatchObject({ student_id: "KV-200" });
    await runImport(["username,full-name,employee-id", "o.student,,(clear)"]);
    expect(await findUserByUsername(database.handle.db, "o.student")).toMatchObject({ employee_id: null });
    expect(await affiliationsOf(database.handle.db, person?.id ?? "")).toEqual(["student", "member"]);
  });

  it("keeps users.student_id the current primary record when a person studies two programmes", async () => {
    const created = await cli(["user", "create", "--username", "two.programmes", "--full-name", "Два", "--json"]);
    const id = created.json<{ id: string }>().id;
    await replacePersonRecords(
      database.handle.db,
      id,
      {
        students: [
          { studentId: "OLD-1", status: "graduated", startsOn: "2020-09-01", endsOn: "2024-06-30" },
          { studentId: "NEW-2", status: "studying", startsOn: "2024-09-01" },
        ],
      },
      "scim",
    );
    expect(await findUserByUsername(database.handle.db, "two.programmes")).toMatchObject({ student_id: "NEW-2" });
    expect(await affiliationsOf(database.handle.db, id)).toEqual(["student", "member", "alum"]);
    await replacePersonRecords(database.handle.db, id, { students: [] }, "scim");
    expect(await findUserByUsername(database.handle.db, "two.programmes")).toMatchObject({ student_id: null });
  });
});

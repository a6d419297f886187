import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportReport } from "../../../src/model/users/import.ts";
import { type CliRun, runCliOn } from "../../support/cli.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../support/databases.ts";

const header = "username,full-name,email,tax-id,student-id,employee-id,password,apps";

describe.each(databaseKinds)("user import on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const app = await cli([
      "app",
      "create",
      "--name",
      "timetable",
      "--title",
      "Розклад",
      "--callback-url",
      "https://timetable.kpi.ua/kpi-id/callback",
    ]);
    expect(app.code, app.stderr).toBe(0);
  });
  afterAll(() => database.dispose());

  const cli = (args: string[]): Promise<CliRun> => runCliOn(database.handle, args);

  async function runImport(lines: string[], newline = "\r\n", flags: string[] = []): Promise<ImportReport> {
    const file = join(mkdtempSync(join(tmpdir(), "kpi-id-import-")), "people.csv");
    writeFileSync(file, lines.join(newline));
    const result = await cli(["user", "import", "--file", file, "--json", ...flags]);
    expect(result.code, result.stderr).toBe(0);
    return result.json<ImportReport>();
  }

  function person(username: string) {
    return database.handle.db
      .selectFrom("users")
      .select(["full_name", "email", "tax_id", "student_id", "employee_id", "password_hash"])
      .where("username", "=", username)
      .executeTakeFirstOrThrow();
  }

  it("imports good rows, reports bad rows by line, and is idempotent on username", async () => {
    const lines = [
      header,
      'i.bondar,"Бондар, Іван",i.bondar@kpi.ua,1111111111,KV-1,,import-pass-1,timetable',
      "no-name,,x@kpi.ua,,,,,",
      "m.tkachenko,Марія Ткаченко,not-an-email,,,E-7,,",
      "s.lysenko,Софія Лисенко,s.lysenko@kpi.ua,1111111111,,,,",
      "k.moroz,Кирило Мороз,,,,E-9,,unknown-app",
      'v.savchenko,"Вікторія ""Віка"" Савченко",v.savchenko@kpi.ua,,KV-2,,,',
      "too,few,fields",
    ];
    const report = await runImport(lines);
    expect(report.created).toBe(2);
    expect(report.updated).toBe(0);
    expect(report.rejected.map((r) => r.line)).toEqual([3, 4, 5, 6, 8]);
    const reason = (line: number) => report.rejected.find((r) => r.line === line)?.reason;
    expect(reason(3)).toBe("fullName: required for a new person");
    expect(reason(4)).toContain("email");
    expect(reason(5)).toBe("taxId: already held by another person");
    expect(reason(6)).toBe("apps: unknown application 'unknown-app'");
    expect(reason(8)).toBe("expected 8 fields, found 3");

    expect((await person("i.bondar")).full_name).toBe("Бондар, Іван");
    expect((await person("v.savchenko")).full_name).toBe('Вікторія "Віка" Савченко');
    // A row rejected for an unknown app leaves nothing behind.
    await expect(person("k.moroz")).rejects.toThrow("no result");

    const again = await runImport(lines.map((line) => line.replace("Бондар, Іван", "Бондар Іван Петрович")));
    // Only the renamed person changes; the other good line says so.
    expect(again).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect((await person("i.bondar")).full_name).toBe("Бондар Іван Петрович");
    // The apps column's grant is audited once: the re-import changed no access, so it adds no row.
    const grants = await database.handle.db
      .selectFrom("audit_events")
      .innerJoin("users", "users.id", "audit_events.user_id")
      .select(["users.username", "audit_events.reason"])
      .where("event_type", "=", "access_granted")
      .orderBy("audit_events.id")
      .execute();
    expect(grants).toEqual([{ username: "i.bondar", reason: "csv" }]);
  });

  it("leaves a field as it is when its cell is blank on a re-import", async () => {
    await runImport([header, "o.kravets,Олена Кравець,o.kravets@kpi.ua,2222222222,KV-31,E-31,kravets-pass-1,"]);
    const before = await person("o.kravets");

    // The dean's office file holds names and e-mails only: every other cell is blank.
    const report = await runImport([header, "o.kravets,,olena.kravets@kpi.ua,,,,,"]);
    expect(report).toEqual({ created: 0, updated: 1, unchanged: 0, rejected: [] });
    const after = await person("o.kravets");
    expect(after).toEqual({ ...before, email: "olena.kravets@kpi.ua" });
    expect(after.tax_id).toBe("2222222222");
    expect(after.student_id).toBe("KV-31");
  });

  it("clears a field only for the explicit (clear) marker, and never the name, username or password", async () => {
    await runImport([header, "p.savych,Петро Савич,p.savych@kpi.ua,3333333333,KV-32,E-32,,"]);

    const report = await runImport([
      header,
      "p.savych,,(clear),,( clear ),(clear),,",
      "p.savych,(clear),,,,,,",
      "p.savych,,,,,,(clear),",
    ]);
    expect(report.updated).toBe(1);
    expect(report.rejected).toEqual([
      { line: 3, username: "p.savych", reason: "fullName: cannot be cleared by import" },
      { line: 4, username: "p.savych", reason: "password: cannot be cleared by import" },
    ]);
    expect(await person("p.savych")).toMatchObject({
      full_name: "Петро Савич",
      email: null,
      tax_id: "3333333333",
      // Only the exact marker clears: anything else is a value like any other.
      student_id: "( clear )",
      employee_id: null,
    });
  });

  it("reports a line with an unterminated quote and still imports the lines after it", async () => {
    const report = await runImport(
      [
        header,
        'r.hnatiuk,"Гнатюк, Роман,r.hnatiuk@kpi.ua,,,,,',
        "t.shevchuk,Тарас Шевчук,t.shevchuk@kpi.ua,,,,,",
        'y.melnyk,"Мельник, Юлія",y.melnyk@kpi.ua,,,,,',
        'z.bad,"Закрито" зарано,,,,,,',
        "",
        "a.koval,Андрій Коваль,,,,,,",
      ],
      "\n",
    );
    expect(report.created).toBe(3);
    expect(report.rejected).toEqual([
      { line: 2, reason: "a quote is opened and not closed on this line" },
      { line: 5, reason: "a closing quote is followed by more text in the same cell" },
    ]);
    expect((await person("y.melnyk")).full_name).toBe("Мельник, Юлія");
    expect((await person("a.koval")).full_name).toBe("Андрій Коваль");
    await expect(person("r.hnatiuk")).rejects.toThrow("no result");
  });

  it("--dry-run reports what the import would do and keeps nothing", async () => {
    const lines = [header, "d.dry,Сухий Прогін,d.dry@kpi.ua,,,,,timetable", "d.bad,Погана Адреса,nope,,,,,"];
    const report = await runImport(lines, "\r\n", ["--dry-run"]);
    expect(report).toMatchObject({ created: 1, updated: 0, unchanged: 0 });
    expect(report.rejected).toEqual([{ line: 3, username: "d.bad", reason: expect.stringContaining("email") }]);
    const named = () =>
      database.handle.db.selectFrom("users").select("full_name").where("username", "=", "d.dry").execute();
    expect(await named()).toEqual([]);
    expect((await runImport(lines)).created).toBe(1);
    expect(await named()).toEqual([{ full_name: "Сухий Прогін" }]);
  });
});

import { type ImportJobView, type ImportMode, importMaxBytes } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

const header = "username,full-name,email,tax-id,student-id,employee-id,password,apps";
const base64 = (text: string | Buffer) => Buffer.from(text).toString("base64");

describe.each(aboveModelDatabases)("console import on %s", (kind) => {
  let t: TestApp;
  let admin: { person: { id: string }; cookie: string };
  let appName = "";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    admin = await addOperator(t.app, ["admin"]);
    appName = (await addApplication(t.app)).application.name;
    await addPerson(t.app, { username: "kept.same", fullName: "Незмінна Особа", email: "same@kpi.ua" }, "same pass 1");
  });
  afterAll(() => t.close());

  const send = (mode: ImportMode, file: string | Buffer) =>
    postJson(
      t.app,
      "/api/admin/import/jobs",
      { file: base64(file), fileName: "people.csv", mode },
      { headers: { cookie: admin.cookie } },
    );

  /** The job as the console's poll finds it once it ended, with every line. */
  const ended = async (id: string): Promise<ImportJobView> => {
    for (;;) {
      const response = await t.app.inject({
        url: `/api/admin/import/jobs/${id}?lines=all`,
        headers: { cookie: admin.cookie },
      });
      expect(response.statusCode, response.body).toBe(200);
      const job = response.json<ImportJobView>();
      if (job.status !== "running") return job;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const run = async (mode: ImportMode, file: string | Buffer) => {
    const response = await send(mode, file);
    expect(response.statusCode, response.body).toBe(202);
    return ended(response.json<ImportJobView>().id);
  };

  const people = () => t.app.db.selectFrom("users").select(["username", "full_name"]).orderBy("username").execute();

  const file = () =>
    [
      header,
      `n.new,Нова Особа,n.new@kpi.ua,,KV-1,,,${appName}`,
      "kept.same,Незмінна Особа,same@kpi.ua,,,,,",
      "no-name,,x@kpi.ua,,,,,",
      "m.bad,Марія Погана,not-an-email,,,,,",
      'q.quote,"Незакрита,,,,,,,',
      "k.moroz,Кирило Мороз,,,,,,unknown-app",
      "too,few",
      "s.other,Інша Особа,,,,,,",
    ].join("\r\n");

  it("dry-runs a file: every line's outcome or translated reason, and nothing kept", async () => {
    const before = await people();
    const report = await run("dry-run", file());
    expect(report).toMatchObject({
      mode: "dry-run",
      status: "done",
      fileName: "people.csv",
      total: 8,
      processed: 8,
      created: 2,
      updated: 0,
      unchanged: 1,
      rejected: 5,
    });
    expect(report.lines.map((line) => [line.line, line.outcome, line.reason, line.field])).toEqual([
      [2, "created", null, null],
      [3, "unchanged", null, null],
      [4, "rejected", "full_name_required", "fullName"],
      [5, "rejected", "invalid_value", "email"],
      [6, "rejected", "csv_syntax", null],
      [7, "rejected", "unknown_application", "apps"],
      [8, "rejected", "field_count", null],
      [9, "created", null, null],
    ]);
    expect(await people()).toEqual(before);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .selectAll()
      .where("event_type", "=", "people_imported")
      .orderBy("audit_events.id")
      .execute();
    expect(audit).toEqual([]);
  });

  it("applies the same file with the same report, and audits each change with the operator", async () => {
    const report = await run("apply", file());
    expect(report).toMatchObject({ mode: "apply", status: "done", created: 2, updated: 0, unchanged: 1, rejected: 5 });
    expect((await people()).map((person) => person.username)).toEqual(
      expect.arrayContaining(["n.new", "s.other", "kept.same"]),
    );
    const rows = await t.app.db
      .selectFrom("audit_events")
      .innerJoin("users", "users.id", "audit_events.user_id")
      .select(["users.username", "audit_events.actor_id", "audit_events.reason"])
      .where("event_type", "=", "people_imported")
      .orderBy("users.username")
      .execute();
    expect(rows).toEqual([
      { username: "n.new", actor_id: admin.person.id, reason: "created" },
      { username: "s.other", actor_id: admin.person.id, reason: "created" },
    ]);
    const again = await run("dry-run", file());
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3, rejected: 5 });
  });

  it("refuses a file that is too large, binary, not UTF-8 or has unknown columns, with its own code", async () => {
    const cases: [string | Buffer, number, string][] = [
      [`${header}\r\n${"a,".repeat(importMaxBytes / 2)}`, 413, "admin.import_too_large"],
      [Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), 400, "admin.import_not_csv"],
      // "Коваль" as a spreadsheet saves it in Windows-1251.
      [
        Buffer.concat([
          Buffer.from("username,full-name\r\nv.koval,"),
          Buffer.from([0xca, 0xee, 0xe2, 0xe0, 0xeb, 0xfc]),
        ]),
        400,
        "admin.import_wrong_encoding",
      ],
      [Buffer.from([0x75, 0x2c, 0x66, 0x0a, 0xc2, 0xb2, 0xe2]), 400, "admin.import_wrong_encoding"],
      ["just some words\nof prose", 400, "admin.import_not_csv"],
      ["username,full-name,shoe-size\r\nx.y,Ікс Ігрек,44", 400, "admin.import_unknown_columns"],
    ];
    for (const [content, status, code] of cases) {
      const response = await send("dry-run", content);
      expect(response.statusCode, code).toBe(status);
      expect(response.json().code).toBe(code);
    }
    const unknown = await send("apply", "username,full-name,shoe-size\r\nx.y,Ікс Ігрек,44");
    expect(unknown.json().details).toEqual([{ path: "file.header", message: "shoe-size" }]);
    expect(await t.app.db.selectFrom("users").select("id").where("username", "=", "x.y").execute()).toEqual([]);
  });

  it("reports a header without the required columns on its line", async () => {
    const report = await run("dry-run", "username,email\r\na.b,a@kpi.ua");
    expect(report.lines).toEqual([
      {
        line: 1,
        username: null,
        outcome: "rejected",
        reason: "missing_columns",
        field: null,
        detail: "header: missing column(s) fullName",
        problems: [{ reason: "missing_columns", field: null, detail: "header: missing column(s) fullName" }],
      },
    ]);
  });
});

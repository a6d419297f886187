import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import type { ImportJobView, ImportMode, LatestImportJob } from "@kpi-id/contracts";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

/** The import process this test's server forked (the server runs in this test process). */
async function waitForChild(): Promise<number> {
  for (;;) {
    try {
      const found = execFileSync("pgrep", ["-P", String(process.pid), "-f", "import-job-process"], {
        encoding: "utf8",
      });
      return Number(found.trim().split("\n")[0]);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const base64 = (text: string) => Buffer.from(text).toString("base64");

/** A file of `count` new people, numbered from `from`; `tag` makes files of the same people differ. */
function peopleFile(count: number, from = 1, tag = "") {
  const lines = ["username,full-name,email"];
  for (let n = from; n < from + count; n++) lines.push(`job.${tag}${n},Особа Номер${n},job.${tag}${n}@kpi.ua`);
  return lines.join("\r\n");
}

describe.each(aboveModelDatabases)("console import jobs on %s", (kind) => {
  let t: TestApp;
  let admin: { person: { id: string }; cookie: string };
  let other: { person: { id: string }; cookie: string };

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    admin = await addOperator(t.app, ["admin"]);
    other = await addOperator(t.app, ["admin"]);
  });
  afterAll(() => t.close());

  const start = (mode: ImportMode, file: string, cookie = admin.cookie) =>
    postJson(
      t.app,
      "/api/admin/import/jobs",
      { file: base64(file), fileName: "staff.csv", mode },
      { headers: { cookie } },
    );
  const get = (url: string, cookie = admin.cookie) => t.app.inject({ url, headers: { cookie } });
  const ended = async (id: string, lines = "problems"): Promise<ImportJobView> => {
    for (;;) {
      const job = (await get(`/api/admin/import/jobs/${id}?lines=${lines}`)).json<ImportJobView>();
      if (job.status !== "running") return job;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const countPeople = async (prefix: string) =>
    (await t.app.db.selectFrom("users").select("id").where("username", "like", `${prefix}%`).execute()).length;

  it("answers at once with a running job, then counts; a second submit of the file joins it instead of a second run", async () => {
    const file = peopleFile(600, 1, "a");
    const first = await start("apply", file);
    expect(first.statusCode, first.body).toBe(202);
    const job = first.json<ImportJobView>();
    expect(job).toMatchObject({ status: "running", mode: "apply", fileName: "staff.csv", total: 600, lines: [] });

    const again = await start("apply", file);
    expect(again.statusCode).toBe(200);
    expect(again.json<ImportJobView>().id).toBe(job.id);
    // Another operator submitting the same file joins it too; a dry run of it is another job.
    expect((await start("apply", file, other.cookie)).json<ImportJobView>().id).toBe(job.id);

    const done = await ended(job.id);
    expect(done).toMatchObject({ status: "done", total: 600, processed: 600, created: 600, rejected: 0, lines: [] });
    expect(done.finishedAt).not.toBeNull();
    expect(await countPeople("job.a")).toBe(600);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select("actor_id")
      .where("event_type", "=", "people_imported")
      .orderBy("audit_events.id")
      .execute();
    expect(audit.filter((row) => row.actor_id === admin.person.id)).toHaveLength(600);

    // Once it ended, the same file runs again (and changes nothing).
    const rerun = await start("apply", file);
    expect(rerun.statusCode).toBe(202);
    expect(await ended(rerun.json<ImportJobView>().id)).toMatchObject({ status: "done", unchanged: 600 });
  });

  it("shows the problem lines by default and every line when asked", async () => {
    const file = ["username,full-name,email", "p.one,Перша Особа,p.one@kpi.ua", "p.two,Друга Особа,not-an-email"].join(
      "\n",
    );
    const { id } = (await start("dry-run", file)).json<ImportJobView>();
    const problems = await ended(id);
    expect(problems).toMatchObject({ created: 1, rejected: 1 });
    expect(problems.lines.map((line) => [line.line, line.outcome, line.field])).toEqual([[3, "rejected", "email"]]);
    const all = await ended(id, "all");
    expect(all.lines.map((line) => [line.line, line.outcome])).toEqual([
      [2, "created"],
      [3, "rejected"],
    ]);
  });

  it("lists every problem of a line, not only the first, so it is fixed once", async () => {
    const file = [
      "username,full-name,email,tax-id,apps,student-unit",
      "m.many,Багато Помилок,not-an-email,12345,no-such-app,NO-SUCH-UNIT",
    ].join("\n");
    const job = await ended((await start("dry-run", file)).json<ImportJobView>().id);
    const [line] = job.lines;
    expect(line?.problems.map((problem) => [problem.reason, problem.field])).toEqual([
      ["invalid_value", "email"],
      ["invalid_value", "taxId"],
      ["unknown_application", "apps"],
      ["unknown_unit", "studentUnit"],
    ]);
    expect(line).toMatchObject({ outcome: "rejected", reason: "invalid_value", field: "email" });
  });

  it("a dry run reports what the apply will do even when a person is named twice, far apart", async () => {
    const lines = peopleFile(450, 1, "d").split("\r\n");
    lines.push("job.d1,Особа Перейменована,job.d1@kpi.ua");
    const dry = await ended((await start("dry-run", lines.join("\r\n"))).json<ImportJobView>().id, "all");
    expect(dry).toMatchObject({ created: 450, updated: 1 });
    expect(await countPeople("job.d")).toBe(0);
    const applied = await ended((await start("apply", lines.join("\r\n"))).json<ImportJobView>().id);
    expect(applied).toMatchObject({ created: 450, updated: 1 });
  });

  it("cancels: an apply keeps the whole lines done so far, and running the file again completes it", async () => {
    const file = peopleFile(1000, 1, "c");
    const { id } = (await start("apply", file)).json<ImportJobView>();
    const cancel = await postJson(
      t.app,
      `/api/admin/import/jobs/${id}/cancel`,
      {},
      { headers: { cookie: admin.cookie } },
    );
    expect(cancel.statusCode, cancel.body).toBe(200);
    const job = await ended(id);
    expect(job.status).toBe("cancelled");
    expect(job.processed).toBeLessThan(1000);
    expect(job.total).toBe(1000);
    expect(await countPeople("job.c")).toBe(job.created);

    const completed = await ended((await start("apply", file)).json<ImportJobView>().id);
    expect(completed).toMatchObject({ status: "done", created: 1000 - job.created, unchanged: job.created });
    expect(await countPeople("job.c")).toBe(1000);
  });

  it("a failed apply reports the lines its committed batches hold, so the operator knows what is in", async () => {
    // The second batch's audit rows are refused by the database: that batch rolls back, the first stays.
    await sql`
      CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM users WHERE id = NEW.user_id AND username = 'job.f300') THEN
          RAISE EXCEPTION 'refused for the test';
        END IF;
        RETURN NEW;
      END $$`.execute(t.app.db);
    await sql`CREATE TRIGGER refuse_boom BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_boom()`.execute(
      t.app.db,
    );
    try {
      const job = (await start("apply", peopleFile(450, 1, "f"))).json<ImportJobView>();
      const failed = await ended(job.id, "all");
      expect(failed).toMatchObject({ status: "failed", total: 450, processed: 200, created: 200 });
      expect(failed.lines).toHaveLength(200);
      expect(failed.lines.every((line) => line.outcome === "created")).toBe(true);
      expect(await countPeople("job.f")).toBe(200);
    } finally {
      await sql`DROP TRIGGER refuse_boom ON audit_events`.execute(t.app.db);
      await sql`DROP FUNCTION refuse_boom()`.execute(t.app.db);
    }
  });

  // The embedded database lives in the server's process, so only PostgreSQL's jobs run in their own.
  const onPostgres = kind === "postgres" ? it : () => undefined;
  onPostgres(
    "on PostgreSQL runs a job in its own process: the server sends none of its writes, and a process that dies leaves the job failed",
    async () => {
      const statements: string[] = [];
      const stop = t.app.database.onStatement((text) => statements.push(text));
      try {
        const done = await ended((await start("apply", peopleFile(300, 1, "o"))).json<ImportJobView>().id);
        expect(done).toMatchObject({ status: "done", created: 300 });
      } finally {
        stop();
      }
      expect(await countPeople("job.o")).toBe(300);
      expect(statements.filter((text) => /insert into "users"/i.test(text))).toEqual([]);

      // The process is killed half way (out of memory, an operator's kill): the job says failed at once.
      const job = (await start("apply", peopleFile(5000, 1, "k"))).json<ImportJobView>();
      const child = await waitForChild();
      process.kill(child, "SIGKILL");
      expect((await ended(job.id)).status).toBe("failed");
    },
  );

  it("shows a job whose instance went quiet as interrupted, and lets the file start again", async () => {
    const file = peopleFile(2, 1, "i");
    const sha = createHash("sha256").update(file).digest("hex");
    const stale = await t.app.db
      .insertInto("import_jobs")
      .values({
        mode: "apply",
        file_sha256: sha,
        file_name: "old.csv",
        started_by: admin.person.id,
        total: 2,
        started_at: new Date(Date.now() - 300_000),
        heartbeat_at: new Date(Date.now() - 120_000),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect((await get(`/api/admin/import/jobs/${stale.id}`)).json<ImportJobView>().status).toBe("interrupted");
    const restarted = await start("apply", file);
    expect(restarted.statusCode, restarted.body).toBe(202);
    expect(restarted.json<ImportJobView>().id).not.toBe(stale.id);
    expect(await ended(restarted.json<ImportJobView>().id)).toMatchObject({ status: "done", created: 2 });
  });

  it("finds the operator's newest job when they come back, and only theirs", async () => {
    const { id } = (await start("dry-run", peopleFile(3, 1, "l"))).json<ImportJobView>();
    await ended(id);
    const latest = (await get("/api/admin/import/jobs/latest")).json<LatestImportJob>();
    expect(latest.job?.id, JSON.stringify(latest)).toBe(id);
    const fresh = await addOperator(t.app, ["admin"]);
    expect((await get("/api/admin/import/jobs/latest", fresh.cookie)).json<LatestImportJob>()).toEqual({ job: null });
  });

  it("answers an unknown job with its own code", async () => {
    const response = await get("/api/admin/import/jobs/00000000-0000-4000-8000-000000000000");
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("admin.import_job_not_found");
  });
});

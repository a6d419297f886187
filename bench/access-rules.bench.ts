import { addAccessRule, createApplication, createUser, hasApplicationAccess } from "@kpi-id/server/testing";
import { sql } from "kysely";
import { sequentialTimings } from "./lib/measure.ts";
import { startBenchApp } from "./lib/server-app.ts";
import type { Comparison, Measurement } from "./lib/types.ts";

export const title = "Access by rule at sign-in: 100,000 people, 200 applications with rules";

const people = 100_000;
const applications = 200;
const faculties = 20;
const groupsPerFaculty = 50;
const secondsPerRun = 3;
const origin = "http://127.0.0.1:1";
const password = "bench passphrase for access rules";

const measurement = (label: string, timed: { rate: number; p50Ms: number; p99Ms: number }): Measurement => ({
  label,
  value: timed.rate,
  unit: "/s",
  p50Ms: timed.p50Ms,
  p99Ms: timed.p99Ms,
});

/**
 * The campus: 20 faculties of 50 groups each, 100,000 students spread over the groups (a tenth of them
 * also employees of a faculty), 200 applications each with two rules (students of a faculty with its
 * sub-units; employees of another faculty), the way operators are expected to write them.
 */
export async function run(): Promise<Comparison[]> {
  // The session cache off: the apps list row measures the rules' statement, not an answer from memory.
  const bench = await startBenchApp({ SESSION_CACHE_ENTRIES: "0" });
  try {
    const { db } = bench.app;
    await sql`insert into units (code, kind, name_uk, parent_id)
      select 'F' || f, 'faculty', 'Факультет ' || f, null from generate_series(0, ${faculties - 1}::int) f`.execute(db);
    await sql`insert into units (code, kind, name_uk, parent_id)
      select 'G' || f || '-' || g, 'group', 'Група ' || g, (select id from units where code = 'F' || f)
      from generate_series(0, ${faculties - 1}::int) f, generate_series(0, ${groupsPerFaculty - 1}::int) g`.execute(db);
    await sql`update units set ancestry = case when parent_id is null then array[id] else array[parent_id, id] end`.execute(
      db,
    );
    for (let start = 0; start < people; start += 20_000) {
      await sql`with made as (
          insert into users (username, full_name)
          select 'person' || n, 'Generated Person ' || n from generate_series(${start}::int, ${start + 19_999}::int) n
          returning id, substring(username from 7)::int as n)
        , students as (
          insert into student_records (user_id, student_id, unit_id, status, source, is_primary)
          select id, 'KV-' || n,
            (select id from units where code = 'G' || (n % ${faculties}) || '-' || (n % ${groupsPerFaculty})),
            case when n % 10 = 0 then 'graduated' else 'studying' end, 'bench', true
          from made)
        insert into employee_positions (user_id, employee_id, unit_id, status, source, is_primary)
        select id, 'E-' || n, (select id from units where code = 'F' || (n % ${faculties})), 'active', 'bench', true
        from made where n % 10 = 1`.execute(db);
    }
    const ids: string[] = [];
    const units = await db.selectFrom("units").select(["id", "code"]).where("kind", "=", "faculty").execute();
    for (let index = 0; index < applications; index++) {
      const { application } = await createApplication(db, {
        name: `campus-${index}`,
        title: `Campus ${index}`,
        description: "",
        callbackUrl: "https://campus.kpi.ua/callback",
      });
      ids.push(application.id);
      const by = { actor: "bench" };
      await addAccessRule(db, application.id, { affiliation: "student", unitId: units[index % faculties]?.id }, by);
      await addAccessRule(
        db,
        application.id,
        { affiliation: "employee", unitId: units[(index + 1) % faculties]?.id },
        by,
      );
    }
    await sql`analyze`.execute(db);

    const person = await createUser(
      db,
      bench.app.passwordHasher,
      { username: "signing.in", fullName: "Signing In" },
      password,
    );
    await sql`insert into student_records (user_id, student_id, unit_id, status, source, is_primary)
      values (${person.id}, 'KV-SIGN', (select id from units where code = 'G3-7'), 'studying', 'bench', true)`.execute(
      db,
    );
    const userIds = (await db.selectFrom("users").select("id").limit(5000).execute()).map((row) => row.id);
    let turn = 0;
    const accessCheck = await sequentialTimings(async () => {
      turn += 1;
      await hasApplicationAccess(db, userIds[turn % userIds.length] ?? "", ids[turn % ids.length] ?? "");
    }, secondsPerRun * 1000);

    const headers = { "content-type": "application/json", origin };
    const signIn = async () => {
      const auth = await bench.app.inject({
        method: "POST",
        url: "/api/auth",
        headers,
        payload: { username: "signing.in", password },
      });
      const internal = await bench.app.inject({
        method: "POST",
        url: "/api/auth/internal",
        headers,
        payload: auth.body,
      });
      const cookie = internal.cookies.find((c) => c.name === "kpi_id_session");
      if (!cookie) throw new Error(`sign-in failed: ${auth.statusCode} ${internal.statusCode}`);
      return `${cookie.name}=${cookie.value}`;
    };
    const cookie = await signIn();
    const appsList = await sequentialTimings(async () => {
      const response = await bench.app.inject({ url: "/user", headers: { cookie } });
      const shown = response.json<{ applications: unknown[] }>().applications.length;
      // Faculty 3's students: ten applications (index % 20 === 3).
      if (response.statusCode !== 200 || shown !== applications / faculties) {
        throw new Error(`GET /user answered ${response.statusCode} with ${shown} applications`);
      }
    }, secondsPerRun * 1000);
    const signIns = await sequentialTimings(signIn, secondsPerRun * 1000);
    const method = `sequential, ${bench.databaseKind}, ${people} people, ${applications} applications with 2 rules each`;
    const baseline = measurement("password sign-in (argon2id verify, session)", signIns);
    return [
      {
        subject: measurement("access check (hasApplicationAccess, one person, one app)", accessCheck),
        baseline,
        method,
      },
      { subject: measurement("GET /user: apps list through the rules", appsList), baseline, method },
    ];
  } finally {
    await bench.close();
  }
}

// The people search of a unit admin (issue 79): `npm run bench -- people-search-unit`.
import { addOperator } from "@kpi-id/server/testing";
import { sequentialTimings } from "./lib/measure.ts";
import { addFaculties } from "./lib/population.ts";
import { startBenchApp } from "./lib/server-app.ts";
import type { Comparison } from "./lib/types.ts";
import { figure, kinds, populated, population, secondsPerKind } from "./people-search.bench.ts";

export const title = "Console people search as a unit admin of a faculty of ~5,000 among 100,000 (issue 79)";

// Twenty faculties of about 5,000 people each: a unit admin's search reaches one of them.
const faculties = 20;

/**
 * Every query of the people-search bench from a unit admin of one faculty: the same list, filtered to the people
 * with a record in the faculty; the baseline is that admin's own /me. The goal (issue 79): p99 ≤ 50 ms, the
 * people search's own.
 */
export async function run(): Promise<Comparison[]> {
  const bench = await startBenchApp();
  try {
    const { app } = bench;
    const { applicationId } = await populated(bench);
    const queries = Object.values(kinds(applicationId)).flat();
    const [faculty] = await addFaculties(app, faculties);
    const { cookie, person } = await addOperator(app, []);
    await app.db
      .insertInto("unit_roles")
      .values({ user_id: person.id, unit_id: String(faculty), role: "unit_admin" })
      .execute();
    let next = 0;
    const search = async () => {
      const url = `/api/admin/people?${queries[next++ % queries.length] ?? ""}`;
      const response = await app.inject({ url, headers: { cookie } });
      if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode} ${response.body}`);
    };
    const me = () => app.inject({ url: "/api/admin/me", headers: { cookie } });
    const baseline = figure("GET /api/admin/me as a unit admin", await sequentialTimings(me, 3000, 5));
    const timed = await sequentialTimings(search, secondsPerKind * 2000, queries.length);
    return [
      {
        subject: figure(`all ${queries.length} queries as a unit admin of a faculty of ~5,000`, timed),
        baseline,
        method: `app.inject, one request in flight, ${population.toLocaleString("en")} people, ${bench.databaseKind}`,
        goal: { name: "people-search-unit", floor: "unit-admin-me", target: 50, bound: "atMost", measure: "p99" },
      },
    ];
  } finally {
    await bench.close();
  }
}

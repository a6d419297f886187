import { addOperator, createApplication } from "@kpi-id/server/testing";
import { sequentialTimings } from "./lib/measure.ts";
import { addPopulation, grantToEvery } from "./lib/population.ts";
import { startBenchApp } from "./lib/server-app.ts";
import type { Comparison } from "./lib/types.ts";

export const title = "Console people search at 100,000 people (GET /api/admin/people)";

const population = 100_000;
const secondsPerRun = 6;

/**
 * What an operator types, a keystroke at a time: a surname growing letter by letter, a name and
 * surname, parts of an e-mail and a student id, a whole tax id, an employee id, with the status
 * and application filters, and later pages. Each request is one search as the console sends it.
 */
function searches(applicationId: string): string[] {
  const typing = (word: string) => Array.from({ length: word.length }, (_, i) => word.slice(0, i + 1));
  const queries = [
    ...typing("петренко"),
    ...typing("олена кова").map((q) => q.trim()),
    ...typing("u4242"),
    ...typing("кв-0123"),
    "lll.kpi",
    "3000012345",
    "emp-770",
    "ничипорук",
    "нікого-такого",
  ];
  const urls = queries.filter(Boolean).map((q) => `q=${encodeURIComponent(q)}`);
  return [
    ...urls,
    "",
    "page=40",
    `q=${encodeURIComponent("бойко")}&page=3`,
    "status=disabled",
    `q=${encodeURIComponent("марія")}&status=disabled`,
    `app=${applicationId}`,
    `app=${applicationId}&q=${encodeURIComponent("олійник")}`,
  ].map((query) => `/api/admin/people?${query}`);
}

export async function run(): Promise<Comparison[]> {
  const bench = await startBenchApp();
  try {
    const { app } = bench;
    await addPopulation(app, population);
    const { application } = await createApplication(app.db, {
      name: "library",
      title: "Бібліотека",
      callbackUrl: "https://library.kpi.ua/callback",
    });
    // One person in ten may use the library.
    await grantToEvery(app, application.id, 10);
    const { cookie } = await addOperator(app, ["helpdesk"]);
    const urls = searches(application.id);
    let next = 0;
    const search = async () => {
      const url = urls[next++ % urls.length] ?? "";
      const response = await app.inject({ url, headers: { cookie } });
      if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode} ${response.body}`);
    };
    const measured = await sequentialTimings(search, secondsPerRun * 1000, urls.length);
    const me = () => app.inject({ url: "/api/admin/me", headers: { cookie } });
    const baseline = await sequentialTimings(me, secondsPerRun * 1000, 5);
    return [
      {
        subject: {
          label: `people searches, ${urls.length} typed queries and filters in turn`,
          value: measured.rate,
          unit: "/s/core",
          p50Ms: measured.p50Ms,
          p99Ms: measured.p99Ms,
        },
        baseline: {
          label: "GET /api/admin/me (the same session and role check)",
          value: baseline.rate,
          unit: "/s/core",
          p50Ms: baseline.p50Ms,
          p99Ms: baseline.p99Ms,
        },
        method: `app.inject, one request in flight, ${population.toLocaleString("en")} people, ${bench.databaseKind}`,
      },
    ];
  } finally {
    await bench.close();
  }
}

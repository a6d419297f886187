import type { ImportJobView } from "@kpi-id/contracts";
import { addOperator, createApplication } from "@kpi-id/server/testing";
import type { FastifyInstance } from "fastify";
import { sequentialTimings, type Timed } from "./lib/measure.ts";
import { addPopulation, grantToEvery } from "./lib/population.ts";
import { type BenchApp, startBenchApp } from "./lib/server-app.ts";
import type { Comparison } from "./lib/types.ts";

export const title = "Console people search at 100,000 people (GET /api/admin/people)";

export const population = 100_000;
export const secondsPerKind = 3;
const importRows = 10_000;

const typing = (word: string) => Array.from({ length: word.length }, (_, i) => word.slice(0, i + 1).trim());
const people = [4242, 17, 31337, 77077, 99001, 50505, 1234, 88888];

/**
 * What an operator types, by kind (each a list the run goes through in turn). The population's
 * names are "Firstname Surname" (population.ts), so "петренко ол" is ranked by its swapped order
 * and "олена пет" by the name as stored: both of the ranking's name paths are measured.
 */
export function kinds(applicationId: string): Record<string, string[]> {
  const q = (text: string) => `q=${encodeURIComponent(text)}`;
  return {
    "exact username": people.map((n) => q(`u${n}`)),
    "exact student or employee id": [...people.map((n) => q(`кв-${String(n).padStart(6, "0")}`)), q("EMP-770")],
    "exact e-mail": people.map((n) => q(`U${n}@kpi.ua`)),
    "two-letter prefixes": ["пе", "ол", "ко", "бо", "ма", "ан", "ше", "ів", "u4", "кв", "щу", "ґа"].map(q),
    '"surname first-name-prefix"': ["петренко ол", "коваленко ан", "шевченко ма", "бойко ів", "мельник о"].map(q),
    '"first-name surname-prefix"': ["олена пет", "андрій ков", "марія шев", "іван бо", "тарас ме"].map(q),
    "typed letter by letter, with filters and later pages": [
      ...[...typing("петренко"), ...typing("олена кова"), ...typing("u4242"), ...typing("кв-0123")].map(q),
      ...["lll.kpi", "3000012345", "emp-770", "ничипорук", "нікого-такого"].map(q),
      "",
      "page=40",
      `${q("бойко")}&page=3`,
      "status=disabled",
      `${q("марія")}&status=disabled`,
      `app=${applicationId}`,
      `app=${applicationId}&${q("олійник")}`,
    ],
  };
}

/** An office's file: half the rows people on file with a new e-mail, half new people with a student id. */
function officeFile(): string {
  const lines = ["username,full-name,email,student-id"];
  for (let n = 1; n <= importRows; n++) {
    if (n % 2 === 0) lines.push(`new.${n},Нова Особа${n},new.${n}@kpi.ua,НВ-${n}`);
    else lines.push(`u${n * 7},,changed.${n * 7}@kpi.ua,`);
  }
  return lines.join("\r\n");
}

async function startImport(app: FastifyInstance, cookie: string): Promise<string> {
  const response = await app.inject({
    method: "POST",
    url: "/api/admin/import/jobs",
    headers: { cookie, origin: app.config.publicUrl, "content-type": "application/json" },
    payload: { file: Buffer.from(officeFile()).toString("base64"), fileName: "office.csv", mode: "apply" },
  });
  if (response.statusCode !== 202) throw new Error(`import answered ${response.statusCode} ${response.body}`);
  return response.json<ImportJobView>().id;
}

export const figure = (label: string, timed: Timed) => ({
  label,
  value: timed.rate,
  unit: "/s/core",
  p50Ms: timed.p50Ms,
  p99Ms: timed.p99Ms,
});

/** The bench's university: 100,000 people, a library application one person in ten may use. */
export async function populated(bench: BenchApp): Promise<{ applicationId: string }> {
  await addPopulation(bench.app, population);
  const { application } = await createApplication(bench.app.db, {
    name: "library",
    title: "Бібліотека",
    callbackUrl: "https://library.kpi.ua/callback",
  });
  await grantToEvery(bench.app, application.id, 10);
  return { applicationId: application.id };
}

export async function run(): Promise<Comparison[]> {
  const bench = await startBenchApp();
  try {
    const { app } = bench;
    const { applicationId } = await populated(bench);
    const { cookie } = await addOperator(app, ["admin"]);
    const searchesOf = (queries: string[]) => {
      let next = 0;
      return async () => {
        const url = `/api/admin/people?${queries[next++ % queries.length] ?? ""}`;
        const response = await app.inject({ url, headers: { cookie } });
        if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode} ${response.body}`);
      };
    };
    const me = () => app.inject({ url: "/api/admin/me", headers: { cookie } });
    const baseline = figure(
      "GET /api/admin/me (the same session and role check)",
      await sequentialTimings(me, 3000, 5),
    );
    const method = `app.inject, one request in flight, ${population.toLocaleString("en")} people, ${bench.databaseKind}`;
    const comparisons: Comparison[] = [];
    const all: string[] = [];
    for (const [kind, queries] of Object.entries(kinds(applicationId))) {
      all.push(...queries);
      const timed = await sequentialTimings(searchesOf(queries), secondsPerKind * 1000, queries.length);
      comparisons.push({ subject: figure(`${kind} (${queries.length} queries)`, timed), baseline, method });
    }
    // Every kind in turn while an import of 10,000 rows runs in the same process (as the console's
    // job does), until it ends: its batched writes and the search share the event loop and the database.
    const job = await startImport(app, cookie);
    let running = true;
    const watch = (async () => {
      while (running) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const view = (
          await app.inject({ url: `/api/admin/import/jobs/${job}`, headers: { cookie } })
        ).json<ImportJobView>();
        running = view.status === "running";
      }
    })();
    const during = await sequentialTimings(searchesOf(all), 600_000, 0, Number.POSITIVE_INFINITY, () => !running);
    await watch;
    comparisons.push({
      subject: figure(`all ${all.length} queries while a ${importRows.toLocaleString("en")}-row import runs`, during),
      baseline,
      method,
    });
    return comparisons;
  } finally {
    await bench.close();
  }
}

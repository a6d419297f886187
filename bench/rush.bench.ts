// The campus rush (issue 80): a morning at a campus's size replayed open-loop against one instance of KPI ID on
// one core, in steps of the campus's peak rate, to the knee (docs/capacity.md). Settings: bench/lib/rush/campus.ts.
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { freePort } from "@kpi-id/server/testing";
import { verify } from "@node-rs/argon2";
import { assumptions, campusFromEnvironment, peakRates, stepSeconds } from "./lib/rush/campus.ts";
import { deviceJoin, type RunningFreeradius, startFreeradius } from "./lib/rush/eduroam.ts";
import {
  hasTaskset,
  otherCores,
  pinGenerator,
  serverCore,
  serverMetrics,
  startPinnedServer,
} from "./lib/rush/instance.ts";
import { everyPathOnce } from "./lib/rush/journeys.ts";
import { limitOf } from "./lib/rush/limit.ts";
import { Recorder, type Stream } from "./lib/rush/open-loop.ts";
import { seedCampus } from "./lib/rush/seed.ts";
import { type RunningStandIns, startStandIns } from "./lib/rush/stand-ins.ts";
import { figuresOf, p99LimitMs, printStep, runStep, type StepResult } from "./lib/rush/steps.ts";
import type { Comparison } from "./lib/types.ts";

export const title = "The campus rush: one instance on one core, open-loop, to the knee (issue 80)";

/** CPU seconds of one argon2id verify of the seeded hash, measured here (the parameters travel in the hash). */
async function argon2SecondsPerCheck(hash: string, password: string): Promise<number> {
  const began = process.cpuUsage();
  const rounds = 10;
  for (let index = 0; index < rounds; index++) await verify(hash, password);
  const used = process.cpuUsage(began);
  return (used.user + used.system) / 1e6 / rounds;
}

export async function run(): Promise<Comparison[]> {
  if (!process.env.DATABASE_URL || !hasTaskset()) {
    console.log("  not run: needs DATABASE_URL (a PostgreSQL server), taskset and two cores\n");
    return [];
  }
  const cores = availableParallelism();
  const campus = campusFromEnvironment();
  const rates = peakRates(campus);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const sessionSecret = randomBytes(32).toString("base64url");
  console.log(
    `  campus: ${campus.students} students, ${campus.staff} staff, ${campus.devices} devices; a ${campus.windowMinutes}-minute ` +
      `window, each step ${stepSeconds(campus).toFixed(0)} s (compression ${campus.compression}); assumptions ${JSON.stringify(assumptions)}`,
  );
  console.log(
    `  campus peak (×1): ${rates.arrivals.toFixed(2)} people arriving/s, ${rates.searches.toFixed(2)} helpdesk searches/s, ` +
      `${rates.scimChanges.toFixed(2)} SCIM changes/s, ${rates.deviceJoins.toFixed(2)} eduroam joins/s ` +
      `(${(campus.eduroamSample * 100).toFixed(0)} % of them driven through FreeRADIUS, RUSH_EDUROAM_SAMPLE); ` +
      `fresh sign-ins/s by method: ${Object.entries(assumptions.signInMethods)
        .map(([method, share]) => `${method} ${(rates.arrivals * assumptions.signingInAfresh * share).toFixed(2)}`)
        .join(", ")}`,
  );
  const seedBegan = performance.now();
  const seeded = await seedCampus(campus, origin, sessionSecret);
  const seededIn = (performance.now() - seedBegan) / 1000;
  const closers: (() => Promise<void>)[] = [() => seeded.setup.database.dispose()];
  try {
    const databaseUrl = String(seeded.setup.database.url);
    const database = new URL(databaseUrl).pathname.slice(1);
    const { google, diia, bankid } = assumptions.signInMethods;
    let standIns: RunningStandIns | undefined;
    if (google + diia + bankid > 0) {
      standIns = await startStandIns(origin);
      closers.unshift(standIns.stop);
    }
    const rush = { ...seeded.campus(origin), standIns };
    const hash = await seeded.setup.app.passwordHasher.hash(rush.password);
    await seeded.setup.app.close();
    const server = await startPinnedServer({
      port,
      publicUrl: origin,
      databaseUrl,
      sessionSecret,
      extraEnv: { ...standIns?.env, RADIUS_REST_SECRET: seeded.radiusRestSecret },
    });
    closers.unshift(server.stop);
    let freeradius: RunningFreeradius | undefined;
    if (campus.eduroamSample > 0) {
      freeradius = await startFreeradius(origin, seeded.radiusRestSecret);
      if (freeradius) closers.unshift(freeradius.stop);
      else
        console.log("  eduroam not driven: FreeRADIUS is not installed (apt-get install freeradius freeradius-rest)");
    }
    pinGenerator();
    console.log(
      `  seeded in ${seededIn.toFixed(0)} s; KPI ID (production command) on core ${serverCore}, the generator ` +
        `${standIns ? "and the Google, Diia and BankID stand-ins (a process of their own) " : ""}` +
        `${freeradius ? "and FreeRADIUS " : ""}on ${otherCores}; ` +
        `PostgreSQL is the machine's own server (${cores} cores), not pinned by the bench`,
    );
    const argon2Seconds = await argon2SecondsPerCheck(hash, rush.password);
    const joinsAt = freeradius;
    const nextDevice = rush.nextDevice;
    const context = {
      campus,
      rates,
      rush,
      processes: { kpiId: [server.pid], database, freeradius: freeradius?.pid, standIns: standIns?.pid },
      metrics: () => serverMetrics(server),
      extraStreams: (multiple: number, recorder: Recorder): Stream[] =>
        joinsAt && nextDevice
          ? [
              {
                ratePerSecond: rates.deviceJoins * campus.eduroamSample * multiple,
                start: () => deviceJoin(joinsAt, nextDevice(), recorder),
              },
            ]
          : [],
    };
    // Unrecorded: the server's code paths compiled and its pool's connections open before the first step counts.
    const warmUp = new Recorder();
    await everyPathOnce(rush, warmUp);
    console.log(
      `  warm-up: every way of signing in and every protocol once, ${figuresOf(warmUp).length} kinds of request, ` +
        `${warmUp.requests} operations, ${warmUp.failureCount} failed\n`,
    );
    for (const sample of warmUp.failureSamples) console.log(`  warm-up failure: ${sample}`);
    const lowest = campus.multiples[0] ?? 1;
    await runStep({ ...context, campus: { ...campus, compression: (campus.windowMinutes * 60) / 5 } }, lowest);
    const steps: StepResult[] = [];
    for (const multiple of campus.multiples) {
      const step = await runStep(context, multiple);
      steps.push(step);
      printStep(step);
      if (!step.held) break;
    }
    const held = steps.filter((step) => step.held);
    const knee = held.at(-1);
    const firstMiss = steps.find((step) => !step.held);
    const limit = firstMiss ? limitOf(firstMiss.phases, firstMiss.cpu["kpi-id"] / firstMiss.seconds) : "not reached";
    console.log(
      `\nCAPACITY instances=1 cores=1 knee=${knee?.multiple ?? 0} limit=${limit}` +
        `   (p99 of each KPI ID request < ${p99LimitMs} ms, no errors, per step; argon2id verify ${(argon2Seconds * 1000).toFixed(0)} ms CPU)\n`,
    );
    const atKnee = knee ?? steps[0];
    if (!atKnee) return [];
    return [
      {
        subject: {
          label: `people arriving/s held at the knee (×${knee?.multiple ?? 0})`,
          value: atKnee.arrivals / atKnee.seconds,
          unit: "/s",
        },
        baseline: { label: "the campus peak (×1)", value: rates.arrivals, unit: "/s" },
        method: `open-loop Poisson arrivals, steps of ${stepSeconds(campus).toFixed(0)} s, production command on one core, PostgreSQL`,
      },
    ];
  } finally {
    for (const close of closers) await close().catch((error: unknown) => console.error("rush clean-up:", error));
  }
}

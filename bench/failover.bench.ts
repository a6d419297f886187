// The rush through nginx with two instances, one killed mid-rush (issue 80): the cluster holds — no error beyond
// the requests the killed instance held when it died, sessions made on either instance still work on the other.
// On this machine both instances, PostgreSQL, nginx and the generator share its cores: the rates are not a scaling
// figure and are not printed as one (bench/rush.bench.ts measures one instance per core).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { freePort } from "@kpi-id/server/testing";
import { sessionWorks } from "../cluster/lib/client.ts";
import { type Instance, killInstance, startInstance, stopInstance } from "../cluster/lib/instances.ts";
import { nginxBinary, startNginx } from "../cluster/lib/nginx.ts";
import { campusFromEnvironment, peakRates, stepSeconds } from "./lib/rush/campus.ts";
import { arrival, helpdeskSearch, scimChange } from "./lib/rush/journeys.ts";
import { Recorder, runOpenLoop } from "./lib/rush/open-loop.ts";
import { seedCampus } from "./lib/rush/seed.ts";
import { figuresOf } from "./lib/rush/steps.ts";
import type { Comparison } from "./lib/types.ts";

export const title = "The rush through nginx, two instances, one killed mid-rush (issue 80; not a scaling figure)";

/** The rush's rate here, as a multiple of the campus peak (RUSH_FAILOVER_MULTIPLE). */
const multiple = Number(process.env.RUSH_FAILOVER_MULTIPLE ?? 1);

export async function run(): Promise<Comparison[]> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl || !nginxBinary) {
    console.log("  not run: needs DATABASE_URL (a PostgreSQL server) and nginx\n");
    return [];
  }
  const campus = campusFromEnvironment();
  const rates = peakRates(campus);
  const workDir = mkdtempSync(join(tmpdir(), "kpi-id-failover-"));
  const [portA, portB, portNginx] = [await freePort(), await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${portNginx}`;
  const sessionSecret = randomBytes(32).toString("base64url");
  const seeded = await seedCampus(campus, publicUrl, sessionSecret);
  const closers: (() => Promise<void>)[] = [() => seeded.setup.database.dispose()];
  const instances: Instance[] = [];
  try {
    await seeded.setup.app.close();
    const env = {
      NODE_ENV: "production",
      PUBLIC_URL: publicUrl,
      SESSION_SECRET: sessionSecret,
      DATABASE_URL: String(seeded.setup.database.url),
      TRUST_PROXY: "127.0.0.1",
      LOG_LEVEL: "warn",
      WEB_DIST_DIR: "/nonexistent-web-dist",
    };
    closers.unshift(async () => {
      await Promise.all(instances.map(stopInstance));
    });
    for (const [name, port] of [
      ["a", portA],
      ["b", portB],
    ] as const) {
      instances.push(await startInstance(name, port, env, workDir));
    }
    const nginx = await startNginx(
      join(workDir, "nginx"),
      portNginx,
      instances.map((each) => each.address),
    );
    closers.unshift(nginx.stop);
    const sessions: string[] = [];
    const rush = { ...seeded.campus(publicUrl), onSignedIn: (cookie: string) => void sessions.push(cookie) };
    const recorder = new Recorder();
    const seconds = stepSeconds(campus);
    const [killed] = instances;
    if (!killed) throw new Error("no instance to kill");
    // The kill's span: from the signal to the process gone. A request sent within or before it and failing after it
    // was held by the dying instance (nginx resends only what no instance took).
    const kill = { from: Number.NaN, to: Number.NaN };
    const killing = new Promise<void>((resolve) =>
      setTimeout(
        async () => {
          kill.from = performance.now();
          await killInstance(killed);
          kill.to = performance.now();
          resolve();
        },
        (seconds * 1000) / 2,
      ),
    );
    const heldByKilled = (span: { began: number; ended: number }) => !(span.began > kill.to) && span.ended >= kill.from;
    const retries = { made: 0, succeeded: 0 };
    /** A person whose request the dying instance held tries again once, as a person does after an error page. */
    const arrivalRetried = async () => {
      const attempt = new Recorder();
      await arrival(rush, attempt);
      const cut = attempt.failureSpans.length > 0 && attempt.failureSpans.every(heldByKilled);
      if (cut) {
        retries.made += 1;
        const again = new Recorder();
        await arrival(rush, again);
        if (again.failureCount === 0) retries.succeeded += 1;
        recorder.merge(again);
      }
      recorder.merge(attempt);
    };
    const [arrivals = 0] = await runOpenLoop(
      [
        { ratePerSecond: rates.arrivals * multiple, start: arrivalRetried },
        { ratePerSecond: rates.searches * multiple, start: () => helpdeskSearch(rush, recorder) },
        { ratePerSecond: rates.scimChanges * multiple, start: () => scimChange(rush, recorder) },
      ],
      seconds,
      // Until every person's morning has ended (each request gives up after 30 s): the counts are of all of them.
      600,
    );
    await killing;
    const inFlight = recorder.failureSpans.filter(heldByKilled).length;
    const otherFailures = recorder.failureCount - inFlight;
    let lost = 0;
    for (const cookie of sessions) if (!(await sessionWorks(publicUrl, cookie, { origin: publicUrl }))) lost++;
    console.log(
      `  ${arrivals} people arrived over ${seconds.toFixed(0)} s at ×${multiple} of the campus peak; instance a ` +
        `(SIGKILL) at ${(seconds / 2).toFixed(0)} s; ${recorder.requests} requests`,
    );
    for (const each of figuresOf(recorder))
      console.log(
        `    ${each.label.padEnd(36)} ${String(each.count).padStart(6)} ok ${String(each.failures).padStart(4)} failed`,
      );
    console.log(
      `  FAILOVER instances=2 killed=1 requests=${recorder.requests} failed_in_flight=${inFlight} ` +
        `retried=${retries.made} retried_ok=${retries.succeeded} failed_other=${otherFailures} ` +
        `sessions=${sessions.length} sessions_lost=${lost} ` +
        `held=${otherFailures === 0 && lost === 0 && retries.made === retries.succeeded ? "yes" : "no"}`,
    );
    for (const sample of recorder.failureSamples) console.log(`    failure: ${sample.split("\n")[0]}`);
    console.log("");
    return [];
  } finally {
    for (const close of closers) await close().catch((error: unknown) => console.error("failover clean-up:", error));
    rmSync(workDir, { recursive: true, force: true });
  }
}

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createPasswordHasher, freePort, migrate, openDatabase } from "@kpi-id/server/testing";
import { call, codeOf, type SignInResult, sessionWorks, signIn } from "../lib/client.ts";
import { createClusterDatabase, seedClusterDatabase } from "../lib/database.ts";
import { type Instance, instanceEnv, startInstance, stopInstance } from "../lib/instances.ts";
import { type RunningNginx, startNginx } from "../lib/nginx.ts";
import { checkOutPreviousRelease, type PreviousRelease, previousReleaseCommit } from "../lib/previous-release.ts";
import { countFailure, expect, newReport, type ScenarioReport } from "../lib/report.ts";
import { sleep } from "../lib/wait.ts";
import type { ClusterContext } from "./context.ts";

const workers = 6;
/** Every this many turns a worker signs in afresh (a new session); the other turns read GET /user. */
const signInEvery = 4;
/**
 * Each worker's pause after a turn. What the upgrade must show is that requests arriving during every step (drain,
 * SIGTERM, start, put back) are answered, not how many: six workers as fast as they could go sent about 330 requests
 * a second and kept both cores busy for the whole upgrade (argon2 for every fourth turn); paced, they send about a
 * third of that, each with a request in flight or due within this many milliseconds at every step.
 */
const pauseAfterTurnMs = 80;
const settleMs = 2_000;
const currentVersion = (
  JSON.parse(readFileSync(new URL("../../apps/server/package.json", import.meta.url), "utf8")) as { version: string }
).version;

async function healthVersion(instance: Instance): Promise<string> {
  const answer = await call(`${instance.url}/health`, { origin: instance.url });
  const body = JSON.parse(answer.body || "{}") as { version?: string };
  // 0.2.0's /health names no version; 0.3.0 added it.
  return body.version ?? "none (0.2.0 names none)";
}

/**
 * The runbook's rolling upgrade (docs/operations.md) under sign-in load: two instances of the previous
 * release (0.2.0's own code) behind nginx on a database it migrated; the current migrations run once while
 * they serve; then each instance in turn is drained (left out of nginx's upstreams), stopped with SIGTERM,
 * started from the current code, checked on /ready and /health's version, and put back. Every request must
 * be answered and every session made before or during the upgrade must still work afterwards.
 */
export async function rollingUpgrade(context: ClusterContext): Promise<ScenarioReport> {
  const report = newReport("rolling upgrade from the previous release (0.2.0) under sign-in load");
  const closers: (() => Promise<void>)[] = [];
  try {
    const previous: PreviousRelease = await checkOutPreviousRelease(context.workDir);
    closers.unshift(previous.remove);
    report.notes.push(`previous release: ${previousReleaseCommit.slice(0, 7)} checked out at ${previous.root}`);
    const database = await createClusterDatabase(context.databaseAdminUrl);
    closers.unshift(database.drop);
    const people = context.loadPeople.slice(0, workers);
    const hasher = createPasswordHasher({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    await seedClusterDatabase(database.url, hasher, people, previous.tools);

    const ports = [await freePort(), await freePort()];
    const nginxPort = await freePort();
    const origin = `http://127.0.0.1:${nginxPort}`;
    const env = instanceEnv({ publicUrl: origin, databaseUrl: database.url, diia: context.diia.env });
    const instances: Instance[] = await Promise.all(
      ports.map((port, index) =>
        startInstance(
          `upgrade-${index}`,
          port,
          { ...env, DATA_DIR: join(context.workDir, `upgrade-${index}`) },
          context.workDir,
          previous.entry,
        ),
      ),
    );
    closers.unshift(async () => {
      await Promise.all(instances.map(stopInstance));
    });
    const addresses = instances.map((instance) => instance.address);
    const nginx: RunningNginx = await startNginx(join(context.workDir, "nginx-upgrade"), nginxPort, addresses);
    closers.unshift(nginx.stop);
    const before = await Promise.all(instances.map(healthVersion));
    report.notes.push(`before: /health versions ${before.join(", ")}`);
    expect(
      report,
      before.every((version) => version !== currentVersion),
      "an instance ran the current code before",
    );

    const cookies: string[] = [];
    const failedIds: string[] = [];
    let stop = false;
    const options = (worker: number) => ({
      origin,
      clientIp: `10.40.0.${worker + 1}`,
      timeoutMs: 30_000,
      closeConnection: true,
    });
    const record = (result: SignInResult) => {
      report.sent += result.requestIds.length;
      if (result.cookie) cookies.push(result.cookie);
      else {
        countFailure(report, `sign-in ${result.failure?.step} ${result.failure?.status || result.failure?.error}`);
        failedIds.push(result.requestIds.at(-1) ?? "");
      }
      return result.cookie;
    };
    const work = async (worker: number) => {
      const person = people[worker];
      if (!person) return;
      let cookie = record(await signIn(nginx.url, person.username, person.password, options(worker)));
      for (let turn = 1; !stop; turn++) {
        const requestId = `upgrade-${worker}-${turn}`;
        if (turn % signInEvery === 0 || !cookie) {
          cookie = record(await signIn(nginx.url, person.username, person.password, { ...options(worker), requestId }));
          await sleep(pauseAfterTurnMs);
          continue;
        }
        const answer = await call(`${nginx.url}/user`, { ...options(worker), requestId, cookie });
        report.sent += 1;
        await sleep(pauseAfterTurnMs);
        if (answer.status === 200) continue;
        countFailure(report, `GET /user ${answer.status || answer.error} ${codeOf(answer) ?? ""}`.trim());
        failedIds.push(requestId);
      }
    };
    const load = Promise.all(Array.from({ length: workers }, (_, worker) => work(worker)));

    /** Drains instance `index` through nginx, stops it (SIGTERM), starts `entry` on its port, puts it back. */
    const replace = async (index: number, entry: string | undefined, extraEnv: Record<string, string>) => {
      const old = instances[index];
      if (!old) return;
      await nginx.setUpstreams(addresses.filter((address) => address !== old.address));
      await sleep(settleMs);
      await stopInstance(old);
      const started = performance.now();
      const dataDir = join(context.workDir, `upgrade-${index}`);
      instances[index] = await startInstance(
        `upgrade-${index}`,
        old.port,
        { ...env, ...extraEnv, DATA_DIR: dataDir },
        context.workDir,
        entry,
      );
      const version = await healthVersion(instances[index]);
      await nginx.setUpstreams(addresses);
      await sleep(settleMs);
      return { version, seconds: (performance.now() - started) / 1000 };
    };

    await sleep(settleMs);
    // 0.2.0's upgrade note: its prepared statements cache `select *`'s columns, and PostgreSQL refuses to run
    // one once a migration adds a column ("cached plan must not change result type": every sign-in failed on
    // an instance until it was replaced, measured here). So 0.2.0 is first restarted without them.
    for (const index of instances.keys()) {
      const replaced = await replace(index, previous.entry, { DATABASE_PREPARED_STATEMENTS: "false" });
      report.notes.push(
        `instance ${index} restarted as 0.2.0 without prepared statements (${replaced?.seconds.toFixed(1)} s); ${report.sent} requests sent so far`,
      );
    }
    // Step 4 of the runbook: the current release's migrations, once, while the previous release serves.
    const handle = await openDatabase({ url: database.url, dataDir: "unused", poolMax: 2 });
    const applied = await migrate(handle).finally(() => handle.close());
    report.notes.push(
      `migrated under load while 0.2.0 served: ${applied.length} migrations (${applied[0]} … ${applied.at(-1)})`,
    );
    await sleep(settleMs);
    // Step 5: one instance at a time, to the current code (prepared statements on again).
    for (const index of instances.keys()) {
      const replaced = await replace(index, undefined, {});
      expect(
        report,
        replaced?.version === currentVersion,
        `instance ${index} answers /health version ${replaced?.version}`,
      );
      report.notes.push(
        `instance ${index} drained, stopped, ${replaced?.version} ready in ${replaced?.seconds.toFixed(1)} s, put back; ${report.sent} requests sent so far`,
      );
    }
    stop = true;
    await load;

    const log = new Map(nginx.accessLog().map((line) => [line.requestId, line]));
    for (const id of failedIds) {
      const line = log.get(id) ?? log.get(`${id}-auth`) ?? log.get(`${id}-grant`);
      report.problems.push(
        `${id} failed (nginx: ${line ? `${line.status} from ${line.upstreams.join(",")}` : "no line"})`,
      );
    }
    let lost = 0;
    for (const cookie of cookies)
      if (!(await sessionWorks(nginx.url, cookie, { origin, clientIp: "198.51.100.40" }))) lost++;
    report.sent += cookies.length;
    report.lost = lost;
    report.notes.push(
      `${cookies.length} sessions made through nginx before and during the upgrade (0.2.0 and ${currentVersion}); each tried afterwards, ${lost} refused`,
    );
  } finally {
    for (const close of closers)
      await close().catch((error: unknown) => console.error("rolling upgrade: clean-up:", error));
  }
  return report;
}

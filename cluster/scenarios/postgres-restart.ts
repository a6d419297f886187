import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { call, codeOf, sessionWorks, signIn } from "../lib/client.ts";
import { countFailure, expect, newReport, type ScenarioReport } from "../lib/report.ts";
import { sleep, waitFor } from "../lib/wait.ts";
import type { ClusterContext } from "./context.ts";

const workers = 8;
const loadMs = 12_000;
const restartAfterMs = 3_000;
const maxRequestsPerWorker = 2_000;
/**
 * Each client's pause after an answer: the restart must meet requests arriving all through it, and a client as
 * fast as it could go only spent CPU (eight sent about 460 a second and kept both cores busy for the 12 s).
 */
const pauseAfterAnswerMs = 50;
// The pool gives up on a connection after 5 s; anything much slower than that is a hang.
const slowestAcceptableFailureMs = 7_000;

function restartPostgres(): Promise<{ code: number | null; ms: number; output: string }> {
  const [version] = readdirSync("/etc/postgresql");
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn("pg_ctlcluster", ["--skip-systemctl-redirect", version ?? "", "main", "restart"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, ms: performance.now() - started, output });
    });
  });
}

/**
 * Reads and sign-ins through nginx keep coming while PostgreSQL restarts; while it is away they
 * must get a quick 503 service.database_unavailable, and afterwards the same processes serve again.
 */
export async function postgresRestartUnderLoad(context: ClusterContext): Promise<ScenarioReport> {
  const report = newReport("PostgreSQL restarted under load");
  const people = context.loadPeople.slice(0, workers * 2);
  const options = { origin: context.origin };
  const cookies: string[] = [];
  for (const [index, person] of people.slice(0, workers).entries()) {
    const result = await signIn(context.nginx.url, person.username, person.password, {
      ...options,
      clientIp: `10.20.0.${index + 1}`,
    });
    report.sent += 2;
    if (result.cookie) cookies.push(result.cookie);
  }
  expect(
    report,
    cookies.length === workers,
    `only ${cookies.length} of ${workers} sessions were made before the restart`,
  );
  const pids = context.instances.map((instance) => instance.process.pid);

  const stopAt = Date.now() + loadMs;
  let slowestFailureMs = 0;
  let readyRefusals = 0;
  let healthRefusals = 0;
  const work = async (worker: number) => {
    const cookie = cookies[worker];
    for (let i = 0; i < maxRequestsPerWorker && Date.now() < stopAt; i++) {
      const signInTurn = i % 10 === 9;
      const person = people[workers + worker];
      const answer =
        signInTurn && person
          ? await call(`${context.nginx.url}/api/auth`, {
              ...options,
              clientIp: `10.21.${worker}.${(i % 250) + 1}`,
              json: { username: person.username, password: person.password },
            })
          : await call(`${context.nginx.url}/user`, { ...options, clientIp: `10.20.0.${worker + 1}`, cookie });
      report.sent += 1;
      await sleep(pauseAfterAnswerMs);
      if (answer.status === 200) continue;
      slowestFailureMs = Math.max(slowestFailureMs, answer.ms);
      const code = codeOf(answer);
      countFailure(report, `${answer.status || answer.error} ${code ?? ""}`.trim());
      expect(
        report,
        answer.status === 503 && code === "service.database_unavailable",
        `a request failed with ${answer.status} ${code ?? answer.error ?? answer.body.slice(0, 100)}`,
      );
    }
  };
  const watchReady = async () => {
    while (Date.now() < stopAt) {
      const ready = await call(`${context.instances[0]?.url}/ready`, { ...options, timeoutMs: 10_000 });
      if (ready.status !== 200) readyRefusals += 1;
      const health = await call(`${context.instances[0]?.url}/health`, { ...options, timeoutMs: 10_000 });
      if (health.status !== 200) healthRefusals += 1;
      await sleep(100);
    }
  };
  const restart = (async () => {
    await sleep(restartAfterMs);
    return restartPostgres();
  })();
  await Promise.all([...Array.from({ length: workers }, (_, worker) => work(worker)), watchReady()]);
  const restarted = await restart;
  expect(report, restarted.code === 0, `pg_ctlcluster restart exited ${restarted.code}: ${restarted.output}`);
  report.notes.push(
    `pg_ctlcluster restart took ${(restarted.ms / 1000).toFixed(1)} s, ${restartAfterMs / 1000} s into ${loadMs / 1000} s of load from ${workers} clients (GET /user, every 10th a POST /api/auth)`,
  );
  report.notes.push(
    `/ready on instance a refused ${readyRefusals} time(s) while the database was away; /health refused ${healthRefusals}`,
  );
  expect(report, healthRefusals === 0, "/health failed while the database was away");
  report.notes.push(`the slowest failed request took ${slowestFailureMs.toFixed(0)} ms (no hang)`);
  expect(report, slowestFailureMs < slowestAcceptableFailureMs, `a failed request took ${slowestFailureMs} ms`);

  for (const instance of context.instances) {
    await waitFor(
      `instance ${instance.name} ready again`,
      30_000,
      async () => (await fetch(`${instance.url}/ready`)).ok,
    );
  }
  expect(
    report,
    context.instances.every(
      (instance, index) => instance.process.pid === pids[index] && instance.process.exitCode === null,
    ),
    "an instance process was restarted or exited",
  );
  let lost = 0;
  for (const cookie of cookies) if (!(await sessionWorks(context.nginx.url, cookie, options))) lost++;
  report.sent += cookies.length;
  report.lost = lost;
  for (const [index, instance] of context.instances.entries()) {
    const person = people[index];
    if (!person) continue;
    const fresh = await signIn(instance.url, person.username, person.password, {
      ...options,
      clientIp: `10.22.0.${index + 1}`,
    });
    report.sent += 2;
    expect(report, fresh.cookie !== undefined, `a new sign-in on ${instance.name} after the restart failed`);
  }
  report.notes.push(
    "both instances (same processes) answer /ready and sign people in again; earlier sessions still work",
  );
  return report;
}

// Scaling out (issue 20): GET /user and Diia check-request through nginx with two instances behind it,
// against the same nginx with one, in one run. The instances are the production command (the cluster
// harness's own start-up, cluster/lib), on this machine's PostgreSQL. On a machine whose cores also run
// PostgreSQL, nginx and the load generator, the ratio shows how much of a second core a second instance
// can use here, not a campus deployment's scaling.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { createPasswordHasher, freePort, hashRequestId, hashToken, openDatabase } from "@kpi-id/server/testing";
import autocannon from "autocannon";
import { signIn } from "../cluster/lib/client.ts";
import { createClusterDatabase, seedClusterDatabase } from "../cluster/lib/database.ts";
import { type Instance, instanceEnv, startInstance, stopInstance } from "../cluster/lib/instances.ts";
import { nginxBinary, type RunningNginx, startNginx } from "../cluster/lib/nginx.ts";
import { startDiiaStandIn } from "../sandbox/src/diia/index.ts";
import type { Comparison } from "./lib/types.ts";

export const title = "Scaling out: two instances behind nginx against one (PostgreSQL)";

const person = { username: "scaled", password: "scaling passphrase 2026", fullName: "Масштаб Тест" };
const pendingRequests = 1000;
const connections = 20;
const loadSeconds = 8;
// Every waiting browser presents the binding cookie it got from app-link (43 base64url characters); one serves the bench.
const binding = randomBytes(32).toString("base64url");

/** Waiting Diia sign-ins, as browsers that asked for a QR code leave them. */
async function addPendingDiiaRequests(url: string, deepLinkBase: string): Promise<string[]> {
  const handle = await openDatabase({ url, dataDir: "unused", poolMax: 1 });
  try {
    const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
    const rows = Array.from({ length: pendingRequests }, () => {
      const id = randomUUID();
      return {
        id,
        hashed_request_id: hashRequestId(id),
        deep_link: `${deepLinkBase}/acquirers/offer-request/dynamic/${id}`,
        browser_hash: hashToken(binding),
        expires_at: expiresAt,
      };
    });
    await handle.db.insertInto("diia_requests").values(rows).execute();
    return rows.map((row) => row.id);
  } finally {
    await handle.close();
  }
}

/** Closed-loop load through nginx: what the instances behind it carry together. */
async function throughput(base: string, cookie: string, path: () => string) {
  const result = await autocannon({
    url: base,
    connections,
    duration: loadSeconds,
    headers: { cookie },
    requests: [{ setupRequest: (request) => ({ ...request, path: path() }) }],
  });
  const failed = result.non2xx + result.errors;
  // A connection cut as the run ends is counted as an error by autocannon; more than that is a broken run.
  if (failed > result.requests.total / 100) {
    throw new Error(`${failed} of the requests to ${base}${path()} failed: ${JSON.stringify(result.statusCodeStats)}`);
  }
  return { rate: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99, failed };
}

interface Route {
  label: string;
  cookie: string;
  path: () => string;
}

async function compare(one: RunningNginx, two: RunningNginx, route: Route): Promise<Comparison> {
  const single = await throughput(one.url, route.cookie, route.path);
  const pair = await throughput(two.url, route.cookie, route.path);
  return {
    subject: { label: `${route.label}, two instances`, value: pair.rate, unit: "req/s", ...pair },
    baseline: { label: `${route.label}, one instance`, value: single.rate, unit: "req/s", ...single },
    method:
      `autocannon through nginx, ${connections} connections × ${loadSeconds} s each, ${availableParallelism()} cores ` +
      `shared with PostgreSQL, nginx and the load; failed ${single.failed} / ${pair.failed}`,
  };
}

export async function run(): Promise<Comparison[]> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl || !nginxBinary) {
    console.log("  not run: needs DATABASE_URL (a PostgreSQL server) and nginx\n");
    return [];
  }
  const workDir = mkdtempSync(join(tmpdir(), "kpi-id-scaling-"));
  const closers: (() => Promise<void>)[] = [];
  try {
    const database = await createClusterDatabase(adminUrl);
    closers.unshift(database.drop);
    const hasher = createPasswordHasher({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    await seedClusterDatabase(database.url, hasher, [person]);
    const [portA, portB, portOne, portTwo] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const publicUrl = `http://127.0.0.1:${portTwo}`;
    const diia = await startDiiaStandIn({ productUrl: `http://127.0.0.1:${portA}`, port: 0 });
    closers.unshift(diia.close);
    const requestIds = await addPendingDiiaRequests(database.url, diia.url);
    const env = instanceEnv({ publicUrl, databaseUrl: database.url, diia: diia.env });
    const instances: Instance[] = [];
    closers.unshift(async () => {
      await Promise.all(instances.map(stopInstance));
    });
    for (const [name, port] of [
      ["a", portA],
      ["b", portB],
    ] as const) {
      instances.push(await startInstance(name, port, { ...env, DATA_DIR: join(workDir, `data-${name}`) }, workDir));
    }
    const one = await startNginx(join(workDir, "nginx-one"), portOne, [`127.0.0.1:${portA}`]);
    closers.unshift(one.stop);
    const two = await startNginx(join(workDir, "nginx-two"), portTwo, [`127.0.0.1:${portA}`, `127.0.0.1:${portB}`]);
    closers.unshift(two.stop);
    const { cookie, failure } = await signIn(two.url, person.username, person.password, { origin: publicUrl });
    if (!cookie) throw new Error(`the bench person could not sign in: ${JSON.stringify(failure)}`);
    let next = 0;
    return [
      await compare(one, two, { label: "GET /user", cookie, path: () => "/user" }),
      await compare(one, two, {
        label: `Diia check-request (${pendingRequests} waiting)`,
        cookie: `kpi_id_diia=${binding}`,
        path: () => `/api/diia/check-request?requestId=${requestIds[next++ % requestIds.length]}`,
      }),
    ];
  } finally {
    for (const close of closers)
      await close().catch((error: unknown) => console.error("scaling bench clean-up:", error));
    rmSync(workDir, { recursive: true, force: true });
  }
}

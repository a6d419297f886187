// `npm run test:cluster`: KPI ID as a campus runs it: two server processes behind nginx on
// this machine's PostgreSQL, with the Diia stand-in. Prints what each fault sent, what failed
// and what was lost, then "cluster: N passed, N failed"; exits non-zero on any failure.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoPeople } from "@kpi-id/server/seed";
import { createPasswordHasher, freePort } from "@kpi-id/server/testing";
import { startDiiaStandIn } from "../sandbox/src/diia/index.ts";
import { createClusterDatabase, type SeedPerson, seedClusterDatabase } from "./lib/database.ts";
import { type Instance, instanceEnv, startInstance, stopInstance } from "./lib/instances.ts";
import { nginxBinary, startNginx } from "./lib/nginx.ts";
import { crashedReport, passed, printReport, type ScenarioReport } from "./lib/report.ts";
import { browserAcrossUpgrade } from "./scenarios/browser-upgrade.ts";
import type { ClusterContext } from "./scenarios/context.ts";
import { diiaAcrossInstances } from "./scenarios/diia-across.ts";
import { killDuringSignIns } from "./scenarios/kill-instance.ts";
import { metricsOnEveryInstance } from "./scenarios/metrics.ts";
import { postgresRestartUnderLoad } from "./scenarios/postgres-restart.ts";
import { rollingUpgrade } from "./scenarios/rolling-upgrade.ts";
import { sharedSessions } from "./scenarios/shared-sessions.ts";

// The rolling upgrade (five instance starts, a checkout of the previous release) takes about 3-4 minutes of it.
const overallTimeoutMs = 15 * 60 * 1000;
const loadPeopleCount = 200;

function people(): { diiaPerson: ClusterContext["diiaPerson"]; people: SeedPerson[]; loadPeople: SeedPerson[] } {
  const student = demoPeople[0];
  if (!student) throw new Error("no demo person for Diia");
  const diiaPerson = {
    username: student.username,
    password: student.password,
    fullName: student.fullName,
    taxId: student.taxId,
    standInId: student.username,
  };
  const loadPassword = "cluster load passphrase 2026";
  const loadPeople = Array.from({ length: loadPeopleCount }, (_, index) => ({
    username: `load-${String(index).padStart(3, "0")}`,
    password: loadPassword,
    fullName: `Навантаження ${index}`,
  }));
  return {
    diiaPerson,
    people: [{ username: "shared", password: "shared session passphrase", fullName: "Спільна Сесія" }],
    loadPeople,
  };
}

async function main(): Promise<number> {
  if (!nginxBinary) throw new Error("nginx is not installed: apt-get install -y nginx");
  const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const workDir = mkdtempSync(join(tmpdir(), "kpi-id-cluster-"));
  const closers: (() => Promise<void>)[] = [];
  const reports: ScenarioReport[] = [];
  try {
    const database = await createClusterDatabase(adminUrl);
    closers.push(database.drop);
    const [portA, portB, nginxPort] = [await freePort(), await freePort(), await freePort()];
    const publicUrl = `http://127.0.0.1:${nginxPort}`;
    const cast = people();
    const hasher = createPasswordHasher({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    await seedClusterDatabase(database.url, hasher, [cast.diiaPerson, ...cast.people, ...cast.loadPeople]);

    // The stand-in delivers every signed callback to instance a directly; polls go to b.
    const diia = await startDiiaStandIn({ productUrl: `http://127.0.0.1:${portA}`, port: 0 });
    closers.unshift(diia.close);
    const env = instanceEnv({ publicUrl, databaseUrl: database.url, diia: diia.env });
    const ports = [portA, portB];
    const instances: Instance[] = [];
    for (const [index, port] of ports.entries()) {
      const name = index === 0 ? "a" : "b";
      instances.push(await startInstance(name, port, { ...env, DATA_DIR: join(workDir, `data-${name}`) }, workDir));
    }
    closers.unshift(async () => {
      await Promise.all(instances.map(stopInstance));
    });
    const nginx = await startNginx(
      join(workDir, "nginx"),
      nginxPort,
      ports.map((port) => `127.0.0.1:${port}`),
    );
    closers.unshift(nginx.stop);
    console.log(
      `cluster: nginx ${nginx.url} → instances ${instances.map((each) => each.url).join(", ")}; database ${database.url}`,
    );
    console.log(`cluster: logs in ${workDir}`);

    const context: ClusterContext = {
      instances,
      nginx,
      origin: publicUrl,
      diia,
      ...cast,
      workDir,
      databaseAdminUrl: adminUrl,
      metricsToken: env.METRICS_TOKEN ?? "",
      restartInstance: async (index) => {
        const name = index === 0 ? "a" : "b";
        const port = ports[index] ?? 0;
        instances[index] = await startInstance(
          name,
          port,
          { ...env, DATA_DIR: join(workDir, `data-${name}`) },
          workDir,
        );
      },
    };
    const scenarios = [
      sharedSessions,
      diiaAcrossInstances,
      killDuringSignIns,
      async (c: ClusterContext) => {
        await c.restartInstance(0);
        return postgresRestartUnderLoad(c);
      },
      metricsOnEveryInstance,
      rollingUpgrade,
      browserAcrossUpgrade,
    ];
    // CLUSTER_ONLY=rollingUpgrade runs one scenario by its function's name (while working on it).
    const only = process.env.CLUSTER_ONLY;
    for (const scenario of scenarios.filter((each) => !only || each.name === only)) {
      try {
        const report = await scenario(context);
        reports.push(report);
        printReport(report);
      } catch (error) {
        const report = crashedReport(scenario.name || "scenario", error);
        reports.push(report);
        printReport(report);
      }
    }
  } finally {
    for (const close of closers) await close().catch((error: unknown) => console.error("cluster: clean-up:", error));
    if (reports.every(passed)) rmSync(workDir, { recursive: true, force: true });
  }
  const good = reports.filter(passed).length;
  console.log(`\ncluster: ${good} passed, ${reports.length - good} failed`);
  return reports.length > 0 && good === reports.length ? 0 : 1;
}

const timer = setTimeout(() => {
  console.error(`cluster: gave up after ${overallTimeoutMs / 1000} s`);
  console.log("cluster: 0 passed, 1 failed");
  process.exit(1);
}, overallTimeoutMs);
timer.unref();

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("cluster: could not start:", error);
    console.log("cluster: 0 passed, 1 failed");
    process.exit(1);
  },
);

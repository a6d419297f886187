// One container of the image beside this machine's PostgreSQL (host network, a fresh database): migrated by the
// image's own CLI, a person signed in through it, then what an operator relies on: an unprivileged user, a
// read-only root file system, the HEALTHCHECK, and a SIGTERM that ends it within its grace period.
import { randomBytes } from "node:crypto";
import { createPasswordHasher } from "@kpi-id/server/testing";
import { sessionWorks, signIn } from "../lib/client.ts";
import { createClusterDatabase, seedClusterDatabase } from "../lib/database.ts";
import { expect, newReport, type ScenarioReport } from "../lib/report.ts";
import { waitFor } from "../lib/wait.ts";
import { must, run } from "./podman.ts";

/** SIGTERM's grace period: the server's own shutdown deadline is 15 s (server.ts), podman's default is 10 s. */
const gracePeriodSeconds = 20;

export interface SingleContainerOptions {
  image: string;
  env: NodeJS.ProcessEnv;
  databaseAdminUrl: string;
  port: number;
  /** Figures for the run's summary (time to the first answer, shutdown time). */
  figures: Map<string, string>;
}

export async function singleContainer(options: SingleContainerOptions): Promise<ScenarioReport> {
  const report = newReport("one container: sign-in, unprivileged, read-only, health check, SIGTERM");
  const { env, image, port } = options;
  const name = `kpi-id-image-test-${port}`;
  const podman = (args: string[]) => run("podman", args, { env });
  await podman(["rm", "--force", "--ignore", name]);
  const database = await createClusterDatabase(options.databaseAdminUrl);
  try {
    const settings = {
      NODE_ENV: "production",
      PUBLIC_URL: `https://id.kpi-id-image.test`,
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      DATABASE_URL: database.url,
      HOST: "127.0.0.1",
      PORT: String(port),
    };
    const envArgs = Object.entries(settings).flatMap(([key, value]) => ["--env", `${key}=${value}`]);
    // Migrations by the image's CLI, as compose.yaml's `migrate` service runs them.
    await must(
      "podman",
      ["run", "--rm", "--network", "host", ...envArgs, image, "node", "apps/server/bin/kpi-id.js", "migrate"],
      {
        env,
      },
    );
    const person = { username: "image-person", password: "image test passphrase 2026", fullName: "Образ Тестовий" };
    const hasher = createPasswordHasher({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    await seedClusterDatabase(database.url, hasher, [person]);

    const started = performance.now();
    await must(
      "podman",
      ["run", "--detach", "--name", name, "--network", "host", "--read-only", "--tmpfs", "/tmp", ...envArgs, image],
      { env },
    );
    const url = `http://127.0.0.1:${port}`;
    let firstAnswerMs = 0;
    await waitFor(`the container answering on ${url}`, 60_000, async () => {
      const state = (await podman(["inspect", "--format", "{{.State.Status}}", name])).stdout.trim();
      if (state === "exited") throw new Error(`the container exited: ${(await podman(["logs", name])).stderr}`);
      const answer = await fetch(`${url}/health`).catch(() => undefined);
      if (answer === undefined) return false;
      firstAnswerMs = performance.now() - started;
      return answer.ok;
    });
    options.figures.set("time from `podman run` to the first answer", `${(firstAnswerMs / 1000).toFixed(1)} s`);

    const origin = settings.PUBLIC_URL;
    const signedIn = await signIn(url, person.username, person.password, { origin, clientIp: "198.51.100.20" });
    report.sent += 2;
    expect(
      report,
      signedIn.cookie !== undefined,
      `sign-in through the container failed: ${JSON.stringify(signedIn.failure)}`,
    );
    if (signedIn.cookie) {
      report.sent += 1;
      expect(report, await sessionWorks(url, signedIn.cookie, { origin }), "GET /user refused the new session");
      report.notes.push("POST /api/auth, POST /api/auth/internal, GET /user through the container: a person signed in");
    }

    const uid = (await podman(["exec", name, "id", "-u"])).stdout.trim();
    expect(report, uid !== "" && uid !== "0", `the server runs as uid ${uid || "(none)"}, not an unprivileged user`);
    const write = await podman(["exec", name, "sh", "-c", "echo x > /app/written-at-run-time"]);
    expect(
      report,
      write.code !== 0 && /read-only/i.test(write.stderr),
      `a write to /app did not fail: ${write.stderr}`,
    );
    report.notes.push(`runs as uid ${uid}; a write to /app fails: ${write.stderr.trim().split("\n").at(-1)}`);

    const health = await podman(["healthcheck", "run", name]);
    expect(
      report,
      health.code === 0,
      `podman healthcheck run answered ${health.code}: ${health.stdout}${health.stderr}`,
    );
    const status = (await podman(["inspect", "--format", "{{.State.Health.Status}}", name])).stdout.trim();
    expect(report, status === "healthy", `the health check left the container ${status}`);
    report.notes.push(`HEALTHCHECK: podman healthcheck run exits 0, the container is ${status}`);

    const stopping = performance.now();
    await must("podman", ["stop", "--time", String(gracePeriodSeconds), name], { env });
    const stopSeconds = (performance.now() - stopping) / 1000;
    const exitCode = (await podman(["inspect", "--format", "{{.State.ExitCode}}", name])).stdout.trim();
    const logs = await podman(["logs", name]);
    // 0: the server's own exit after closing; 143: SIGTERM's. 137 would be podman's SIGKILL after the grace period.
    expect(report, exitCode === "0" || exitCode === "143", `after SIGTERM the container exited with ${exitCode}`);
    expect(
      report,
      /shutting down: finishing in-flight requests/.test(logs.stdout + logs.stderr),
      "no graceful shutdown line in the container's log",
    );
    options.figures.set(
      "`podman stop` (SIGTERM) to exit",
      `${stopSeconds.toFixed(1)} s (grace period ${gracePeriodSeconds} s)`,
    );
    report.notes.push(`SIGTERM: exit code ${exitCode} after ${stopSeconds.toFixed(1)} s, "shutting down" logged`);
  } finally {
    await podman(["rm", "--force", "--ignore", name]);
    await database.drop();
  }
  return report;
}

// compose.yaml's topology (PostgreSQL, migrations once, two instances, nginx terminating TLS) started with
// podman-compose from the image run.ts built, with compose.test.yaml's images made here for PostgreSQL and nginx;
// then the cluster's shared-session scenario and people signing in through nginx (compose-signins.ts).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPasswordHasher } from "@kpi-id/server/testing";
import { call } from "../lib/client.ts";
import { type SeedPerson, seedClusterDatabase } from "../lib/database.ts";
import { passed, type ScenarioReport } from "../lib/report.ts";
import { waitFor } from "../lib/wait.ts";
import type { SharedSessionsCluster } from "../scenarios/shared-sessions.ts";
import { must, run } from "./podman.ts";

const repository = fileURLToPath(new URL("../../", import.meta.url));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const project = "kpi-id-image-test";
const container = (service: string) => `${project}_${service}_1`;

export interface ComposeOptions {
  image: string;
  debianImage: string;
  env: NodeJS.ProcessEnv;
  workDir: string;
  portBase: number;
  figures: Map<string, string>;
}

/** PostgreSQL's and nginx's images from the Debian image (apt from the mirror), kept for the next run. */
async function serviceImage(name: "postgres" | "nginx", options: ComposeOptions): Promise<string> {
  const tag = `localhost/kpi-id-test-${name}:${options.debianImage.split(":").at(-1)}`;
  if ((await run("podman", ["image", "exists", tag], { env: options.env })).code === 0) return tag;
  await must(
    "podman",
    [
      "build",
      "--build-arg",
      `DEBIAN_IMAGE=${options.debianImage}`,
      "-f",
      here(`${name}.Containerfile`),
      "-t",
      tag,
      here("."),
    ],
    { env: options.env },
  );
  return tag;
}

/** A certificate for localhost and 127.0.0.1, which the sign-in process trusts. */
async function certificate(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await must("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost,IP:127.0.0.1",
    "-keyout",
    join(dir, "privkey.pem"),
    "-out",
    join(dir, "fullchain.pem"),
  ]);
}

function signInsThroughCompose(cluster: SharedSessionsCluster, caFile: string): Promise<ScenarioReport[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [here("compose-signins.ts")], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile, KPI_ID_COMPOSE_CLUSTER: JSON.stringify(cluster) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const last = output.trim().split("\n").at(-1) ?? "";
      if (code !== 0) reject(new Error(`the sign-ins through compose exited with ${code}: ${output}`));
      else resolve(JSON.parse(last) as ScenarioReport[]);
    });
  });
}

export async function composeTopology(options: ComposeOptions): Promise<ScenarioReport> {
  const { env, portBase } = options;
  const started = performance.now();
  const [postgresImage, nginxImage] = [await serviceImage("postgres", options), await serviceImage("nginx", options)];
  const tlsDir = join(options.workDir, "tls");
  await certificate(tlsDir);
  const ports = {
    https: portBase + 43,
    http: portBase + 80,
    postgres: portBase + 32,
    a: portBase + 11,
    b: portBase + 12,
  };
  const origin = `https://localhost:${ports.https}`;
  const postgresPassword = randomBytes(16).toString("hex");
  const composeEnv: NodeJS.ProcessEnv = {
    ...env,
    PUBLIC_URL: origin,
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    METRICS_TOKEN: randomBytes(32).toString("base64url"),
    POSTGRES_PASSWORD: postgresPassword,
    // podman's networks (Docker's are compose.yaml's default).
    TRUST_PROXY: "10.88.0.0/15",
    HTTP_PORT: String(ports.http),
    HTTPS_PORT: String(ports.https),
    TLS_DIR: tlsDir,
    KPI_ID_TEST_IMAGE: options.image,
    KPI_ID_TEST_POSTGRES_IMAGE: postgresImage,
    KPI_ID_TEST_NGINX_IMAGE: nginxImage,
    KPI_ID_TEST_POSTGRES_PORT: String(ports.postgres),
    KPI_ID_TEST_PORT_A: String(ports.a),
    KPI_ID_TEST_PORT_B: String(ports.b),
  };
  const compose = (args: string[]) =>
    must("podman-compose", ["-p", project, "-f", "compose.yaml", "-f", here("compose.test.yaml"), ...args], {
      env: composeEnv,
      cwd: repository,
    });
  await compose(["down", "--volumes"]).catch(() => undefined);
  try {
    // podman-compose 1.0 starts every service at once, without waiting on depends_on's conditions (Docker
    // Compose waits): PostgreSQL first, until its health check passes, then the rest (docs/container.md).
    await compose(["up", "--detach", "postgres"]);
    await waitFor("PostgreSQL's health check", 60_000, async () => {
      return (await run("podman", ["healthcheck", "run", container("postgres")], { env })).code === 0;
    });
    await compose(["up", "--detach"]);
    const migrated = (await must("podman", ["wait", container("migrate")], { env })).trim();
    if (migrated !== "0") {
      const logs = await run("podman", ["logs", container("migrate")], { env });
      throw new Error(`the migrate service exited with ${migrated}: ${logs.stdout}${logs.stderr}`);
    }
    const instances = [ports.a, ports.b].map((port) => ({ url: `http://127.0.0.1:${port}` }));
    for (const instance of instances) {
      await waitFor(
        `${instance.url} ready`,
        60_000,
        async () => (await call(`${instance.url}/ready`, { origin })).status === 200,
      );
    }
    options.figures.set(
      "compose topology up (images made, PostgreSQL, migrations, two instances, nginx)",
      `${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    const people: SeedPerson[] = [
      { username: "compose-shared", password: "compose shared passphrase", fullName: "Спільна Сесія" },
      ...Array.from({ length: 20 }, (_, index) => ({
        username: `compose-${index}`,
        password: "compose load passphrase 2026",
        fullName: `Композиція ${index}`,
      })),
    ];
    const hasher = createPasswordHasher({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    const databaseUrl = `postgres://kpi_id:${postgresPassword}@127.0.0.1:${ports.postgres}/kpi_id`;
    await seedClusterDatabase(databaseUrl, hasher, people);

    const reports = await signInsThroughCompose(
      { origin, people, instances, nginx: { url: `https://localhost:${ports.https}` } },
      join(tlsDir, "fullchain.pem"),
    );
    const report: ScenarioReport = {
      name: "compose.yaml under podman-compose: migrations once, two instances, nginx, sign-ins",
      sent: reports.reduce((sum, each) => sum + each.sent, 0),
      failed: reports.reduce((sum, each) => sum + each.failed, 0),
      failures: Object.assign({}, ...reports.map((each) => each.failures)),
      lost: reports.reduce((sum, each) => sum + each.lost, 0),
      notes: [`the migrate service exited with 0`, ...reports.flatMap((each) => [`${each.name}:`, ...each.notes])],
      problems: reports
        .filter((each) => !passed(each))
        .flatMap((each) => each.problems.map((problem) => `${each.name}: ${problem}`)),
    };
    return report;
  } finally {
    await compose(["down", "--volumes"]).catch((error: unknown) => console.error("image: compose down:", error));
  }
}

// `npm run test:image`: the Dockerfile built with podman and run as an operator would (docs/container.md). The
// Node image it starts from is made here without any registry (base.ts); then one container beside this
// machine's PostgreSQL (single.ts) and compose.yaml's topology under podman-compose (compose.ts). Prints the
// image's size, the time to the first answer and each check; exits non-zero when any fails.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crashedReport, passed, printReport, type ScenarioReport } from "../lib/report.ts";
import { ensureBaseImage } from "./base.ts";
import { composeTopology } from "./compose.ts";
import { must, podmanEnvironment } from "./podman.ts";
import { singleContainer } from "./single.ts";

const repository = fileURLToPath(new URL("../../", import.meta.url));
const workDir = join(repository, ".tmp/image");
// The Debian tree outlives the checkout's .tmp (a second clone, a `git clean`): it is the slow part to make.
const cacheDir = process.env.KPI_ID_IMAGE_CACHE ?? "/var/tmp/kpi-id-image";
const image = "localhost/kpi-id:test";
const portBase = Number(process.env.E2E_PORT_BASE ?? 5500);

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

async function main(): Promise<number> {
  const started = performance.now();
  mkdirSync(workDir, { recursive: true });
  const env = podmanEnvironment(workDir);
  const figures = new Map<string, string>();
  const log = (line: string) => console.log(line);

  let step = performance.now();
  const base = await ensureBaseImage({ env, cacheDir, workDir, log });
  figures.set("base image", `${base.node} (${seconds(step)})`);

  step = performance.now();
  log(`image: podman build --build-arg NODE_IMAGE=${base.node} -t ${image} .`);
  // The docker format keeps HEALTHCHECK (the OCI format has no field for it).
  await must(
    "podman",
    ["build", "--format", "docker", "--build-arg", `NODE_IMAGE=${base.node}`, "--tag", image, repository],
    { env, show: process.env.IMAGE_BUILD_OUTPUT === "1" },
  );
  figures.set("build", seconds(step));
  const bytes = Number((await must("podman", ["image", "inspect", "--format", "{{.Size}}", image], { env })).trim());
  const megabytes = bytes / 1e6;
  figures.set("image size", `${megabytes.toFixed(0)} MB (goal ≤ 250 MB${megabytes <= 250 ? "" : ", not met"})`);

  const databaseAdminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const reports: ScenarioReport[] = [];
  const scenarios: [string, () => Promise<ScenarioReport>][] = [
    ["single", () => singleContainer({ image, env, databaseAdminUrl, port: portBase + 1, figures })],
    ["compose", () => composeTopology({ image, debianImage: base.debian, env, workDir, portBase, figures })],
  ];
  // IMAGE_ONLY=single or compose runs one (while working on it).
  for (const [name, scenario] of scenarios.filter(
    ([name]) => !process.env.IMAGE_ONLY || process.env.IMAGE_ONLY === name,
  )) {
    step = performance.now();
    try {
      reports.push(await scenario());
    } catch (error) {
      reports.push(crashedReport(name, error));
    }
    printReport(reports[reports.length - 1] as ScenarioReport);
    figures.set(`${name} checks`, seconds(step));
  }
  figures.set("test:image in all", seconds(started));
  console.log("");
  for (const [what, value] of figures) console.log(`image: ${what}: ${value}`);
  const good = reports.filter(passed).length;
  console.log(`\nimage: ${good} passed, ${reports.length - good} failed`);
  return reports.length > 0 && good === reports.length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("image: could not run:", error);
    console.log("image: 0 passed, 1 failed");
    process.exit(1);
  },
);

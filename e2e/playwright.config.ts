import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, devices } from "@playwright/test";
import { testChromiumLaunchOptions } from "./chromium.ts";
import { prepareCasHarness } from "./tools/cas/harness.ts";
import { e2ePostgresAdminUrl, e2eRunDatabasePrefix, newE2eDatabaseUrl } from "./tools/e2e-databases.ts";
import { prepareSamlHarness } from "./tools/saml/federation.ts";
import { startSignInLog } from "./tools/sign-ins.ts";
import type { ServerToStart } from "./tools/start-servers.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
// Diia sign-in requests live 25 s here instead of 180 s, so diia.spec.ts can watch one expire
// (long enough for a sign-in on a loaded machine, short enough to wait for).
process.env.E2E_DIIA_REQUEST_TTL_SECONDS ??= "25";
// Device codes live 30 s (device.spec.ts watches one expire; its sign-ins take 5-12 s after asking a code).
process.env.E2E_DEVICE_CODE_TTL_SECONDS ??= "30";
// A sensitive change needs a sign-in within 45 s here instead of 10 minutes, so account.spec.ts can
// watch a session go stale (every walk that makes such a change signs in just before it).
process.env.E2E_REAUTH_MAX_AGE_SECONDS ??= "45";

// Two workers, each with its own server, database and port range, so the specs that wait for time to
// pass (a stale sign-in, an expired Diia request) overlap with the others' work. E2E_WORKERS=1 runs one.
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
// One port range per run (E2E_PORT_BASE), so runs in parallel work trees never collide; worker n uses
// the 20 ports from base + 20n (the specs use base + 0..15). Kept in the environment under a name of
// its own, because the workers, which load this file again, get E2E_PORT_BASE set to their own range.
process.env.E2E_RUN_PORT_BASE ??= process.env.E2E_PORT_BASE ?? "3300";
const runPortBase = Number(process.env.E2E_RUN_PORT_BASE);
// A fresh database per run and worker: the demo people start with no sessions and no throttling history.
// Kept in the environment so the workers see the same directories.
process.env.E2E_RUN_DIR ??= join(repoRoot, ".tmp", `e2e-data-${Date.now()}`);
const runDir = process.env.E2E_RUN_DIR;

interface WorkerServer {
  portBase: number;
  baseURL: string;
  dataDir: string;
  samlDir: string;
  casDir: string;
  googlePort: number;
  diiaPort: number;
  mailPort: number;
  bankIdPort: number;
  demoSitePort: number;
}

function workerServer(index: number): WorkerServer {
  const portBase = runPortBase + 20 * index;
  return {
    portBase,
    baseURL: `http://localhost:${portBase}`,
    dataDir: `${runDir}-w${index}`,
    samlDir: `${runDir}-w${index}-saml`,
    casDir: `${runDir}-w${index}-cas`,
    googlePort: portBase + 1,
    diiaPort: portBase + 2,
    mailPort: portBase + 4,
    bankIdPort: portBase + 5,
    demoSitePort: portBase === 3300 ? 4300 : portBase + 3,
  };
}

// The run counts its sign-ins (tools/sign-ins.ts): the main process starts the list, the workers add to it.
if (process.env.TEST_PARALLEL_INDEX === undefined) startSignInLog();

const servers = Array.from({ length: workers }, (_, index) => workerServer(index));
// The specs and page objects read their server's ports and directories from the environment: in a
// worker (Playwright sets TEST_PARALLEL_INDEX before it loads this file) its own server's; in the main
// process, which loads the specs to list their tests, the first server's.
const own = servers[Number(process.env.TEST_PARALLEL_INDEX ?? 0)] ?? servers[0];
if (own) {
  process.env.E2E_PORT_BASE = String(own.portBase);
  process.env.E2E_DATA_DIR = own.dataDir;
  process.env.E2E_SAML_DIR = own.samlDir;
  process.env.E2E_CAS_DIR = own.casDir;
  process.env.SANDBOX_GOOGLE_PORT = String(own.googlePort);
  process.env.SANDBOX_DIIA_PORT = String(own.diiaPort);
  process.env.SANDBOX_MAIL_PORT = String(own.mailPort);
  process.env.SANDBOX_BANKID_PORT = String(own.bankIdPort);
  process.env.DEMO_SITE_PORT = String(own.demoSitePort);
}
export const baseURL = own?.baseURL ?? `http://localhost:${runPortBase}`;

// Each worker's server on a database of its own: on the PostgreSQL server DATABASE_URL names (made and dropped by
// tools/start-servers.ts), else the embedded one in its DATA_DIR (tools/e2e-databases.ts says why).
const postgresAdminUrl = e2ePostgresAdminUrl();

// The SAML service providers' keys and metadata, and the federation aggregate that registers
// them, exist before each server starts (it reads the aggregate at start); the worker reuses them.
function serverToStart(server: WorkerServer, index: number): ServerToStart {
  const saml = prepareSamlHarness(server.samlDir, server.baseURL, server.portBase);
  const cas = prepareCasHarness(server.casDir, server.portBase);
  return {
    healthUrl: `${server.baseURL}/health`,
    env: {
      PORT: String(server.portBase),
      PUBLIC_URL: server.baseURL,
      SANDBOX_GOOGLE_PORT: String(server.googlePort),
      SANDBOX_DIIA_PORT: String(server.diiaPort),
      SANDBOX_MAIL_PORT: String(server.mailPort),
      SANDBOX_BANKID_PORT: String(server.bankIdPort),
      DIIA_REQUEST_TTL_SECONDS: process.env.E2E_DIIA_REQUEST_TTL_SECONDS ?? "25",
      OIDC_DEVICE_CODE_TTL_SECONDS: process.env.E2E_DEVICE_CODE_TTL_SECONDS ?? "30",
      REAUTH_MAX_AGE_SECONDS: process.env.E2E_REAUTH_MAX_AGE_SECONDS ?? "45",
      // The specs move the server's clock past those limits instead of waiting (tools/server-clock.ts).
      TEST_CLOCK: "true",
      DEMO_SITE_PORT: String(server.demoSitePort),
      DATA_DIR: server.dataDir,
      // A fresh database with the demo campus.
      DATABASE_URL: postgresAdminUrl ? newE2eDatabaseUrl(postgresAdminUrl, `w${index}`) : "",
      SEED_DEMO_DATA: "true",
      LOG_LEVEL: "warn",
      SAML_FEDERATION_NAME: "e2e",
      SAML_FEDERATION_METADATA: saml.aggregateFile,
      SAML_FEDERATION_CERTIFICATE_FILE: saml.federationCertFile,
      SAML_RESEARCH_AND_SCHOLARSHIP: "true",
      // Several specs register applications as the demo student on the worker's one server (the developers' page,
      // the ticket consent, pending changes, device sign-in), more than one person's default five in all.
      DEVELOPER_MAX_APPLICATIONS: "20",
      // phpCAS's proxy callback is https on loopback with a throw-away certificate the server trusts (cas.spec.ts).
      TLS_EXTRA_CA_FILE: cas.certFile,
    },
  };
}

// One entry that starts every worker's server at once (tools/start-servers.ts) and answers on the 20th port of the
// first range once all of them answer; Playwright would start a list of entries one after another.
function webServers() {
  return {
    command: "node e2e/tools/start-servers.ts",
    cwd: repoRoot,
    url: `http://127.0.0.1:${runPortBase + 19}/`,
    reuseExistingServer: false,
    timeout: 150_000,
    // SIGTERM to the group, so that start-servers.ts drops the servers' databases once they have stopped.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 20_000 },
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      E2E_SERVERS_TO_START: JSON.stringify(servers.map(serverToStart)),
      E2E_POSTGRES_ADMIN_URL: postgresAdminUrl ?? "",
      // The run's database prefix, whose lock start-servers.ts holds while the run lives.
      E2E_RUN_DATABASE_PREFIX: e2eRunDatabasePrefix(),
      E2E_SERVERS_READY_PORT: String(runPortBase + 19),
    },
  };
}

export default defineConfig({
  testDir: "./specs",
  // Per run, so two runs on one machine never clean up each other's traces.
  outputDir: `${runDir}-results`,
  // Each file runs whole in one worker (its tests share a server's state in order).
  fullyParallel: false,
  workers,
  retries: 0,
  forbidOnly: true,
  // Generous: the machine is shared, and axe on a full page takes seconds under load.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  globalTeardown: "./tools/sign-ins-report.ts",
  use: {
    baseURL,
    // No trace by default: `.ci/run` reads a failure from the log and the failure's screenshot, and recording the
    // trace of every test (its steps, console and network) cost 8 % of the browser suite's CPU even without the
    // screencast or DOM snapshots (issue 75: six specs, 66 tests, two workers, A/B twice: 210 and 203 CPU-s with
    // `retain-on-failure`, 196 and 184 without). E2E_TRACE=retain-on-failure (or `--trace retain-on-failure`) keeps
    // a failed test's trace again; E2E_TRACE_SNAPSHOTS=true adds the DOM snapshots of each step (another tenth).
    trace:
      process.env.E2E_TRACE === "retain-on-failure" || process.env.E2E_TRACE === "on"
        ? { mode: process.env.E2E_TRACE, screenshots: false, snapshots: process.env.E2E_TRACE_SNAPSHOTS === "true" }
        : "off",
    // Every page as a person who asked for less motion sees it (apps/web/src/index.css): spinners stand still and
    // toasts appear at once, so the compositor does not redraw them while a test waits (4 % of the six specs'
    // CPU-seconds before the app itself honoured the setting), and axe never meets a colour mid-fade.
    reducedMotion: "reduce",
    screenshot: "only-on-failure",
    launchOptions: testChromiumLaunchOptions,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  // Only the main process starts servers; a worker that loads this file must not prepare them again.
  webServer: process.env.TEST_PARALLEL_INDEX === undefined ? [webServers()] : [],
});

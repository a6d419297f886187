import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./chromium.ts";
import { prepareSamlHarness } from "./tools/saml/federation.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
// A fresh database per run: the demo people start with no sessions and no throttling history.
// Kept in the environment so the workers, which load this file again, see the same directory
// (the OpenID Connect spec reads the demo client's secret from DATA_DIR/demo-apps.json).
process.env.E2E_DATA_DIR ??= join(repoRoot, ".tmp", `e2e-data-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;
// Diia sign-in requests live 25 s here instead of 180 s, so diia.spec.ts can watch one expire
// (long enough for a sign-in on a loaded machine, short enough to wait for).
process.env.E2E_DIIA_REQUEST_TTL_SECONDS ??= "25";
// A sensitive change needs a sign-in within 45 s here instead of 10 minutes, so account.spec.ts can
// watch a session go stale (every walk that makes such a change signs in just before it).
process.env.E2E_REAUTH_MAX_AGE_SECONDS ??= "45";

// One port range per run (E2E_PORT_BASE), so runs in parallel work trees never collide.
// The specs and page objects read the stand-ins' ports from the same environment.
const portBase = Number(process.env.E2E_PORT_BASE ?? 3300);
process.env.SANDBOX_GOOGLE_PORT ??= String(portBase + 1);
process.env.SANDBOX_DIIA_PORT ??= String(portBase + 2);
process.env.SANDBOX_MAIL_PORT ??= String(portBase + 4);
process.env.DEMO_SITE_PORT ??= String(portBase === 3300 ? 4300 : portBase + 3);
export const baseURL = `http://localhost:${portBase}`;
// The SAML service providers' keys and metadata, and the federation aggregate that registers
// them, exist before the server starts (it reads the aggregate at start); workers reuse them.
process.env.E2E_SAML_DIR ??= `${dataDir}-saml`;
const saml = prepareSamlHarness(process.env.E2E_SAML_DIR, baseURL, portBase);

export default defineConfig({
  testDir: "./specs",
  // Per run, so two runs on one machine never clean up each other's traces.
  outputDir: `${dataDir}-results`,
  fullyParallel: false,
  // Two cores shared by everything on this machine.
  workers: 1,
  retries: 0,
  forbidOnly: true,
  // Generous: the machine is shared, and axe on a full page takes seconds under load.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "node scripts/start.ts",
    cwd: repoRoot,
    url: `${baseURL}/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(portBase),
      PUBLIC_URL: baseURL,
      SANDBOX_GOOGLE_PORT: process.env.SANDBOX_GOOGLE_PORT,
      SANDBOX_DIIA_PORT: process.env.SANDBOX_DIIA_PORT,
      SANDBOX_MAIL_PORT: process.env.SANDBOX_MAIL_PORT,
      DIIA_REQUEST_TTL_SECONDS: process.env.E2E_DIIA_REQUEST_TTL_SECONDS,
      REAUTH_MAX_AGE_SECONDS: process.env.E2E_REAUTH_MAX_AGE_SECONDS,
      DEMO_SITE_PORT: process.env.DEMO_SITE_PORT,
      DATA_DIR: dataDir,
      // Always the fresh embedded database with the demo campus, even where the
      // environment names a PostgreSQL server (as .ci/run does for the other suites).
      DATABASE_URL: "",
      SEED_DEMO_DATA: "true",
      LOG_LEVEL: "warn",
      SAML_FEDERATION_NAME: "e2e",
      SAML_FEDERATION_METADATA: saml.aggregateFile,
      SAML_FEDERATION_CERTIFICATE_FILE: saml.federationCertFile,
      SAML_RESEARCH_AND_SCHOLARSHIP: "true",
    },
  },
});

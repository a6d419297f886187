import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, devices } from "@playwright/test";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
// A fresh database per run: the demo people start with no sessions and no throttling history.
const dataDir = join(repoRoot, ".tmp", `e2e-data-${Date.now()}`);

export const baseURL = "http://localhost:3300";

export default defineConfig({
  testDir: "./specs",
  outputDir: join(repoRoot, ".tmp", "e2e-results"),
  fullyParallel: false,
  // Two cores shared by everything on this machine.
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
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
      PORT: "3300",
      PUBLIC_URL: baseURL,
      SANDBOX_GOOGLE_PORT: "3301",
      SANDBOX_DIIA_PORT: "3302",
      DEMO_SITE_PORT: "4300",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    },
  },
});

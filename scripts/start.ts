// `npm start`: the whole product on this machine. First the build, when what it is made from changed
// (build-if-changed.ts, in this process: a second Node process and its start-up cost ~0.5 s on a busy machine).
// In sandbox mode the stand-ins for Google, Diia, BankID and mail start next, in a thread of their own
// (sandbox-thread.ts) while this one loads the server, and the product is pointed at them; then the service
// (embedded database or DATABASE_URL, with demo data); then the demo third-party site.
import module from "node:module";
import { Worker } from "node:worker_threads";
import type { SandboxOptions } from "../sandbox/src/index.ts";
import type { SandboxThreadMessage } from "./sandbox-thread.ts";

// Node's compile cache (in the system's temporary folder, never in the checkout) keeps the stripped and compiled
// form of the sandbox's and demo site's TypeScript and the server bundle's code for the next start. Before the
// imports below, which are dynamic so that they load under it.
module.enableCompileCache();
const { currentBuild } = await import("./build-if-changed.ts");
const bundleStale = currentBuild();

const closers: (() => Promise<void>)[] = [];
const port = Number(process.env.PORT ?? 3000);
const productUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
const sandboxWanted = process.env.NODE_ENV !== "production" && process.env.SANDBOX !== "false";
const baseEnv: Record<string, string | undefined> = { ...process.env };
// The sandbox on the embedded database is the one place demo people are seeded without being asked.
if (sandboxWanted && baseEnv.DATABASE_URL === undefined) baseEnv.SEED_DEMO_DATA ??= "true";

/** Starts the stand-ins in their thread; resolves with what they tell the product once they all listen. */
function startSandboxThread(options: SandboxOptions): Promise<Extract<SandboxThreadMessage, { started: unknown }>> {
  const thread = new Worker(new URL("./sandbox-thread.ts", import.meta.url), { workerData: options });
  let running = true;
  thread.once("exit", () => {
    running = false;
  });
  closers.push(
    () =>
      new Promise<void>((closed) => {
        if (!running) return closed();
        thread.once("message", () => closed());
        thread.once("exit", () => closed());
        thread.postMessage("close");
      }),
  );
  return new Promise((resolve, reject) => {
    thread.on("error", (error) => {
      // After the start too: a stand-in that throws later is said, not lost.
      console.error("kpi-id: the sandbox's thread failed:", error);
      reject(error);
    });
    thread.once("exit", (code) => reject(new Error(`the sandbox's thread ended (${code}) before it started`)));
    thread.once("message", (message: SandboxThreadMessage) => {
      if ("started" in message) resolve(message);
      else reject("failed" in message ? message.failed : new Error("the sandbox's thread closed"));
    });
  });
}

const sandboxStarting = sandboxWanted
  ? startSandboxThread({
      productUrl,
      dataDir: process.env.DATA_DIR ?? "./data",
      googlePort: Number(process.env.SANDBOX_GOOGLE_PORT ?? 3001),
      diiaPort: Number(process.env.SANDBOX_DIIA_PORT ?? 3002),
      mailPort: Number(process.env.SANDBOX_MAIL_PORT ?? 3003),
      bankIdPort: Number(process.env.SANDBOX_BANKID_PORT ?? 3004),
      env: baseEnv,
    })
  : undefined;
// Awaited in main(); until then a failure must not count as unhandled.
sandboxStarting?.catch(() => {});

const [{ loadServerModule }, { startDemoSite }] = await Promise.all([
  import("@kpi-id/server/server-module"),
  import("../examples/demo-app/src/server.ts"),
]);
// The server's build when it is current (just checked), as production runs it; else its source (the loader then
// says why on stderr).
const { server, stale } = await loadServerModule({ stale: bundleStale });
if (stale === undefined) console.log("server: its build (apps/server/dist)");
const { loadConfig, reportStartupFailure, startServer, usePrivateUmask } = server;
// `npm start` is the service's program as bin/kpi-id-server.js is: DATA_DIR's new files 0600, folders 0700.
usePrivateUmask();

async function main(): Promise<void> {
  let env = baseEnv;
  if (sandboxStarting) {
    const { started } = await sandboxStarting;
    env = { ...env, ...started.env };
    for (const standIn of started.standIns) console.log(`sandbox: ${standIn.name} stand-in at ${standIn.url}`);
  }
  const config = loadConfig(env);
  const server = await startServer(config);
  closers.unshift(server.close);
  if (sandboxWanted) {
    const demoPort = Number(process.env.DEMO_SITE_PORT ?? 4000);
    const demo = await startDemoSite({
      port: demoPort,
      productUrl: config.publicUrl,
      dataDir: config.database.dataDir,
    });
    closers.unshift(demo.close);
    console.log(`demo third-party site at ${demo.url}`);
  }
  console.log(`\nKPI ID is running: open ${config.publicUrl}/uk/  (Ctrl+C stops it)\n`);
}

function stop(): void {
  Promise.allSettled(closers.map((close) => close())).finally(() => process.exit(0));
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

main().catch(reportStartupFailure);

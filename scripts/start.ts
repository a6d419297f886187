// `npm start`: the whole product on this machine. First the build, when what it is made from changed
// (build-if-changed.ts, in this process: a second Node process and its start-up cost ~0.5 s on a busy machine).
// In sandbox mode the stand-ins for Google, Diia, BankID and mail start next and the product is pointed at them;
// then the service (embedded database or DATABASE_URL, with demo data); then the demo third-party site.
import module from "node:module";

// Node's compile cache (in the system's temporary folder, never in the checkout) keeps the stripped and compiled
// form of the sandbox's and demo site's TypeScript and the server bundle's code for the next start. Before the
// imports below, which are dynamic so that they load under it.
module.enableCompileCache();
const { currentBuild } = await import("./build-if-changed.ts");
const bundleStale = currentBuild();
const [{ loadServerModule }, { startDemoSite }, { startSandbox }] = await Promise.all([
  import("@kpi-id/server/server-module"),
  import("../examples/demo-app/src/server.ts"),
  import("../sandbox/src/index.ts"),
]);

// The server's build when it is current (just checked), as production runs it; else its source (the loader then
// says why on stderr).
const { server, stale } = await loadServerModule({ stale: bundleStale });
if (stale === undefined) console.log("server: its build (apps/server/dist)");
const { loadConfig, reportStartupFailure, startServer, usePrivateUmask } = server;
// `npm start` is the service's program as bin/kpi-id-server.js is: DATA_DIR's new files 0600, folders 0700.
usePrivateUmask();
const closers: (() => Promise<void>)[] = [];

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const productUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
  const sandboxWanted = process.env.NODE_ENV !== "production" && process.env.SANDBOX !== "false";
  let env: Record<string, string | undefined> = { ...process.env };
  if (sandboxWanted) {
    // The sandbox on the embedded database is the one place demo people are seeded without being asked.
    if (env.DATABASE_URL === undefined) env.SEED_DEMO_DATA ??= "true";
    const sandbox = await startSandbox({
      productUrl,
      dataDir: process.env.DATA_DIR ?? "./data",
      googlePort: Number(process.env.SANDBOX_GOOGLE_PORT ?? 3001),
      diiaPort: Number(process.env.SANDBOX_DIIA_PORT ?? 3002),
      mailPort: Number(process.env.SANDBOX_MAIL_PORT ?? 3003),
      bankIdPort: Number(process.env.SANDBOX_BANKID_PORT ?? 3004),
      env,
    });
    closers.push(sandbox.close);
    env = { ...env, ...sandbox.env };
    for (const standIn of sandbox.standIns) console.log(`sandbox: ${standIn.name} stand-in at ${standIn.url}`);
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

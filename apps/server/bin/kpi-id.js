#!/usr/bin/env node
// The operator CLI. It is TypeScript run by Node's type stripping, which needs
// Node 22.18 or newer; inside the project npm puts the pinned Node 24 first on PATH.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `kpi-id needs Node.js 22.18 or newer (this is ${process.versions.node}). Run it as 'npx kpi-id' or 'npm run admin --' inside the project.`,
  );
  process.exit(1);
}
// Restarts take the stripped and compiled TypeScript from Node's compile cache (as bin/kpi-id-server.js).
const { enableCompileCache } = await import("node:module");
enableCompileCache?.();
const { runCliAsProgram } = await import("../src/surfaces/cli/main.ts");
const [command] = process.argv.slice(2);
// The service's sign-out participants, loaded only by a command that ends sessions (src/cli-service.ts).
const serviceSignOut = async (...args) => (await import("../src/cli-service.ts")).serviceSignOut(...args);
process.exitCode = await runCliAsProgram(process.argv.slice(2), { serviceSignOut });
// After copying the embedded database's files PGlite sometimes keeps the event loop up for a minute with
// nothing left to do; backup and restore print one short line, so ending at once loses no output.
if (command === "backup" || command === "restore") process.exit();

#!/usr/bin/env node
// The service in production: `node --max-semi-space-size=2 apps/server/bin/kpi-id-server.js` (the flags are
// in src/production-process.ts, which the Dockerfile, the operator guide, the bench and the cluster test use).
// Plain JavaScript on purpose: the compile cache is turned on before the first TypeScript file is read, so a
// restart takes every file's stripped and compiled form from the cache and never loads Node's type stripper
// (its WebAssembly compiler alone held 13-17 MiB for the life of the process) — issue 20's memory figures.
import module from "node:module";

module.enableCompileCache();
const { main } = await import("../src/server.ts");
await main();

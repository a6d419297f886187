#!/usr/bin/env node
// The service in production: `node --max-semi-space-size=2 --expose-gc apps/server/bin/kpi-id-server.js` (the flags are
// in src/platform/production-process.ts, which the Dockerfile, the operator guide, the bench and the cluster
// test use). It runs the bundle `npm run build` makes, or the TypeScript source when that is missing or older
// than the source (server-module.js).
import { loadServerModule } from "./server-module.js";

const { main } = await loadServerModule();
await main();

#!/usr/bin/env node
// The service in production: `node --max-semi-space-size=2 --expose-gc apps/server/bin/kpi-id-server.js` (the
// flags are in src/platform/production-process.ts, which the Dockerfile, the operator guide, the bench and the
// cluster test use). It runs the bundle `npm run build` makes, or the TypeScript source when there is no bundle
// or a file it was made from has changed since (server-module.js).
import { loadServerModule } from "./server-module.js";

const { server } = await loadServerModule();
await server.main();

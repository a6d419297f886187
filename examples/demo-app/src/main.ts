// Runs the demo site alone: `node examples/demo-app/src/main.ts` (npm start runs it for you).
import { startDemoSite } from "./server.ts";

const site = await startDemoSite({
  port: Number(process.env.DEMO_SITE_PORT ?? 4000),
  productUrl: process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`,
  dataDir: process.env.DATA_DIR ?? "./data",
});
console.log(`demo third-party site at ${site.url}`);
const stop = () => void site.close().finally(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

// `npm start`: the whole product on this machine. The service on the embedded
// database (or DATABASE_URL), with demo data; stand-ins for Google and Diia
// and the demo third-party site join it in sandbox mode.
import { loadConfig } from "../apps/server/src/config/index.ts";
import { reportStartupFailure, startServer } from "../apps/server/src/server.ts";

try {
  const config = loadConfig(process.env);
  const server = await startServer(config);
  const stop = () => {
    server.close().finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  console.log(`\nKPI ID is running: open ${config.publicUrl}/uk/  (Ctrl+C stops it)\n`);
} catch (error) {
  reportStartupFailure(error);
}

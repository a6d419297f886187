// A child process for bench/diia-polling.bench.ts: the real service with Diia
// configured against the stand-in, N pending sign-in requests in the database,
// listening on a free port. Prints one JSON line {url, requestIds, cookie}; then serves
// until its parent closes stdin. Run apart so its memory is the server's alone.
import { randomUUID } from "node:crypto";
import { buildApp, createTestDatabase, hashRequestId, hashToken, testConfig } from "@kpi-id/server/testing";
import { startDiiaStandIn } from "../../sandbox/src/diia/index.ts";

const pending = Number(process.argv[2] ?? 10_000);
const batch = 1000;

const diia = await startDiiaStandIn({ productUrl: "http://127.0.0.1:1", port: 0 });
const database = await createTestDatabase(process.env.DATABASE_URL ? "postgres" : "pglite");
const config = testConfig({ PUBLIC_URL: "http://127.0.0.1:1", ...diia.env });
const app = await buildApp({ config, database: database.handle, logger: false });
// The bench reads the server's own memory through this route (not part of the product).
app.get("/__bench/memory", async () => process.memoryUsage());

// Every waiting browser presents the binding cookie it got from app-link; one value serves the bench.
const binding = "bench-binding-cookie-value-0123456789abcdef";
const requestIds: string[] = [];
const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
for (let start = 0; start < pending; start += batch) {
  const rows = Array.from({ length: Math.min(batch, pending - start) }, () => {
    const id = randomUUID();
    requestIds.push(id);
    return {
      id,
      hashed_request_id: hashRequestId(id),
      deep_link: `${diia.url}/acquirers/offer-request/dynamic/${id}`,
      browser_hash: hashToken(binding),
      expires_at: expiresAt,
    };
  });
  await app.db.insertInto("diia_requests").values(rows).execute();
}
const url = await app.listen({ host: "127.0.0.1", port: 0 });
process.stdout.write(
  `${JSON.stringify({ url, requestIds, cookie: `kpi_id_diia=${binding}`, databaseKind: database.handle.kind })}\n`,
);

process.stdin.resume();
process.stdin.on("end", async () => {
  await app.close();
  await database.dispose();
  await diia.close();
  process.exit(0);
});

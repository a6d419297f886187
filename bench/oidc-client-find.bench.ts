import { addOidcClient, createTestApp, libraryClientFind } from "@kpi-id/server/testing";
import { sequentialRate } from "./lib/measure.ts";
import { redirectUri } from "./lib/oidc-client.ts";
import type { Comparison } from "./lib/types.ts";

export const title = "oidc-provider's Client.find: the client kept beside its application row (issue 63)";

const roundMs = 1000;
const rounds = 3;

/**
 * In-process, no HTTP: every request that names a client asks `Client.find`. Before: the library's own find, which
 * reads the metadata through the adapter and hashes it to find its parsed client. After: the service's find in
 * front of it (protocols/oidc/parsed-clients.ts), which answers the client kept for the same application row.
 * Alternating rounds, the best of each, in the same process.
 */
export async function run(): Promise<Comparison[]> {
  const kind = process.env.DATABASE_URL ? "postgres" : "pglite";
  const test = await createTestApp(kind);
  try {
    const created = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile", "email", "kpi", "offline_access"],
      firstParty: true,
    });
    const id = created.application.id;
    const provider = test.app.oidc.provider;
    const before = libraryClientFind(provider);
    if (!before) throw new Error("the provider has no kept clients in front of its Client.find");
    const after = (clientId: string) => provider.Client.find(clientId);
    if ((await after(id))?.clientId !== id || (await before(id))?.clientId !== id) throw new Error("no client");
    let best = { before: 0, after: 0 };
    for (let round = 0; round < rounds; round++) {
      const libraryRate = await sequentialRate(() => before(id), roundMs, 100);
      const keptRate = await sequentialRate(() => after(id), roundMs, 100);
      best = { before: Math.max(best.before, libraryRate), after: Math.max(best.after, keptRate) };
    }
    return [
      {
        subject: { label: "Client.find, the client kept beside its row (after)", value: best.after, unit: "/s" },
        baseline: { label: "Client.find, the library's own (before)", value: best.before, unit: "/s" },
        method: `in-process, one call at a time, ${rounds} alternating rounds of ${roundMs} ms, the best of each, ${kind}`,
      },
    ];
  } finally {
    await test.close();
  }
}

import { randomBytes } from "node:crypto";
import { productionEntry, productionEnvironment, productionNodeFlags } from "@kpi-id/server/production-process";
import { addOidcClient, addPerson, createTestApp, freePort, grantAccess } from "@kpi-id/server/testing";
import { type ChildServer, startChildServer } from "./child-server.ts";
import type { Client } from "./oidc-client.ts";

/**
 * KPI ID as production runs it (the production command, NODE_ENV=production, its Node flags and allocator
 * setting) in a child process on a scratch PostgreSQL database, with people and a first-party confidential
 * OpenID Connect client made beforehand by the service's own code in this process.
 */
export interface RunningKpiId {
  server: ChildServer;
  origin: string;
  client: Client;
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  stop(): Promise<void>;
}

export async function startKpiIdProcess(
  people: readonly { username: string; fullName: string }[],
  password: string,
  redirectUri: string,
): Promise<RunningKpiId> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // One secret for the set-up and the server, so whatever the set-up keeps sealed with it the server can open.
  const sessionSecret = randomBytes(32).toString("base64url");
  const setup = await createTestApp("postgres", { PUBLIC_URL: origin, SESSION_SECRET: sessionSecret });
  let server: ChildServer | undefined;
  try {
    const created = await addOidcClient(setup.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile", "offline_access"],
      firstParty: true,
    });
    for (const person of people) {
      const { id } = await addPerson(setup.app, person, password);
      await grantAccess(setup.app.db, id, created.application.id);
    }
    const { argon2 } = setup.config;
    // The set-up's app closes its pool; the database stays until stop().
    await setup.app.close();
    const env = {
      NODE_ENV: "production",
      PUBLIC_URL: origin,
      HOST: "127.0.0.1",
      PORT: String(port),
      SESSION_SECRET: sessionSecret,
      DATABASE_URL: String(setup.database.url),
      LOG_LEVEL: "warn",
      WEB_DIST_DIR: "/nonexistent-web-dist",
      ...productionEnvironment,
    };
    server = await startChildServer(productionEntry, [], env, `${origin}/ready`, productionNodeFlags);
    const running = server;
    return {
      server: running,
      origin,
      client: { id: created.application.id, secret: created.secret },
      argon2,
      async stop() {
        await running.stop();
        await setup.database.dispose();
      },
    };
  } catch (error) {
    await server?.stop();
    await setup.close().catch(() => {});
    throw error;
  }
}

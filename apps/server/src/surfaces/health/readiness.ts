import type { FastifyInstance } from "fastify";

/** What /ready and the console's service screen check: the database answers a ping now. */
export interface Readiness {
  ready: boolean;
  database: boolean;
}

export async function checkReadiness(app: FastifyInstance): Promise<Readiness> {
  const database = await app.database.ping();
  return { ready: database, database };
}

import type { FastifyInstance } from "fastify";
import { startHomeUniversity } from "../../../support/home-university.ts";
import type { HomeUser } from "../../../support/simplesamlphp.ts";

export { researcher } from "../../../support/home-university.ts";

/** SimpleSAMLphp as the home university of the federation "research", the one visitors may come from in these tests. */
export function homeUniversity(app: FastifyInstance, users: Record<string, HomeUser>, validUntil: Date) {
  return startHomeUniversity(app, { users, validUntil });
}

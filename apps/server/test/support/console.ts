import type { AuthMethod } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { createSession } from "../../src/model/sessions/store.ts";
import { grantRole } from "../../src/model/users/operator-roles.ts";
import type { OperatorRole } from "../../src/platform/db/schema.ts";
import { sessionCookieName } from "../../src/platform/http/session-cookie.ts";
import { addPerson } from "./campus.ts";

/**
 * A browser session of the person as if they had just signed in with `method` (Diia is the
 * strong one): the sign-in flows themselves are tested elsewhere; the console tests need
 * operators whose sign-in is strong, weak or old.
 */
export async function sessionCookieOf(app: FastifyInstance, userId: string, method: AuthMethod): Promise<string> {
  const { token } = await createSession(app.db, { userId, authMethod: method }, app.config.sessions, app.clock());
  return `${sessionCookieName(app.config)}=${token}`;
}

let operatorCount = 0;

/** A new person holding the roles, and a cookie of their strong (Diia) session. */
export async function addOperator(app: FastifyInstance, roles: OperatorRole[], method: AuthMethod = "DIIA") {
  operatorCount += 1;
  const username = `operator${operatorCount}-${roles.join("-") || "none"}`;
  const person = await addPerson(app, { username, fullName: `Оператор ${operatorCount}` }, "operator passphrase 1");
  for (const role of roles) await grantRole(app.db, person.id, role);
  return { person, cookie: await sessionCookieOf(app, person.id, method) };
}

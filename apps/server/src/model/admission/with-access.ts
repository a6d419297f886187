import type { Db } from "../../platform/db/schema.ts";
import { type RelatedPayloadRow, selectPayloadWithRelated } from "../oidc/request-statements.ts";
import { type LiveSession, loadSessionWithListedApplications } from "../sessions/load.ts";
import type { SessionTimeouts, SessionWithApplications } from "../sessions/store.ts";
import { personWithAccessAnswer } from "../users/queries.ts";
import { accessibleApplicationIds, applicationAccess } from "./applications.ts";

// Three hot statements read another area's rows together with the access check, each in one statement (the count
// per sign-in, statement-counts.test.ts). Their areas sit below this one (developers imports users, oidc and,
// through tickets, sessions), so they take the check as a lent SQL fragment and these give it.

/**
 * The live session a token names with the applications its person may open and whether they hold a console role,
 * in one statement: GET /user's (model/sessions/load.ts).
 */
export function loadSessionWithApplications(
  db: Db,
  token: string,
  timeouts: SessionTimeouts,
  now: Date,
): Promise<LiveSession<SessionWithApplications> | undefined> {
  return loadSessionWithListedApplications(db, token, timeouts, now, accessibleApplicationIds);
}

/**
 * The person, whether they may use this application now and (with `withRoles`) their campus roles' columns, in one
 * statement (OpenID Connect's claims); undefined when there is no such person.
 */
export function personWithAccess(db: Db, userId: string, clientId: string, withRoles: boolean) {
  return personWithAccessAnswer(db, userId, applicationAccess(userId, clientId), withRoles);
}

/**
 * An OpenID Connect payload by type and id with the grant and the session it names, in one statement; with `person`,
 * whether they may use the application an interaction is for (model/oidc/request-statements.ts).
 */
export function payloadWithRelated(
  db: Db,
  type: string,
  id: string,
  person: string | undefined,
): Promise<RelatedPayloadRow[]> {
  return selectPayloadWithRelated(db, type, id, person ? (client) => applicationAccess(person, client) : undefined);
}

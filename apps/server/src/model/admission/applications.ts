import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import {
  excludeFromApplication,
  removeIndividualGrant,
  ruledAccess,
  ruledApplicationIds,
} from "../access/applications.ts";
import { forgetConsents } from "../access/consents.ts";
import { type ApplicationId, gateAnswer, openApplicationIds } from "../apps/gate.ts";
import { applicationsNaming, namedOnApplication } from "../developers/named.ts";
import { serviceProvidersLinkedTo } from "../saml/service-providers.ts";

/**
 * Who may use which application, decided here for every protocol (ticket, OpenID Connect, SAML, LDAP, forward-auth):
 * at sign-in, at app redirect, at token use, and in the apps list (issue 76). Three owners answer a part, each in its
 * own tables, and this area (which owns none) joins their fragments into one statement: the application's gate
 * (model/apps: a suspended one lets nobody in), for a live one the operator's rules, grants and exclusions
 * (model/access), for one in testing, in review or rejected the owners and testers the developers' page names
 * (model/developers). It sits above those three, which therefore import none of it.
 */

/** The ids of the applications a person may use, as one SQL subquery: the apps list costs one statement. */
export function accessibleApplicationIds(userId: RawBuilder<unknown> | string): RawBuilder<string> {
  return openApplicationIds({ live: ruledApplicationIds(userId), testing: applicationsNaming(userId) });
}

/** Whether the person may use the application now, as one SQL expression (its parameters bound in it). */
export function applicationAccess(userId: string, applicationId: ApplicationId): RawBuilder<boolean> {
  return gateAnswer(applicationId, {
    live: ruledAccess(userId, applicationId),
    testing: namedOnApplication(userId, applicationId),
  });
}

/** Whether the person may use the application now. */
export async function hasApplicationAccess(db: Db, userId: string, applicationId: string): Promise<boolean> {
  const result = await sql<{ allowed: boolean }>`select ${applicationAccess(userId, applicationId)} as allowed`.execute(
    db,
  );
  return result.rows[0]?.allowed === true;
}

/**
 * Forgets what the person allowed the application on every protocol (over SAML: the SPs linked to it), so they are
 * asked again; how many consents went.
 */
export function forgetConsentsToApplication(db: Db, userId: string, applicationId: string): Promise<number> {
  return forgetConsents(db, { userId, applicationId, linkedServiceProviders: serviceProvidersLinkedTo(applicationId) });
}

export type RevokeOutcome = "revoked" | "excluded" | "none";

/**
 * Ends the person's access to the application, and with it what they allowed it over every protocol (the caller
 * ends its OpenID Connect tokens): the individual grant goes, and when a rule would still let them in, an exclusion is
 * recorded.
 */
export async function revokeAccess(db: Db, userId: string, applicationId: string): Promise<RevokeOutcome> {
  return db.transaction().execute(async (tx) => {
    let outcome: RevokeOutcome = (await removeIndividualGrant(tx, userId, applicationId)) ? "revoked" : "none";
    if (await hasApplicationAccess(tx, userId, applicationId)) {
      await excludeFromApplication(tx, userId, applicationId);
      outcome = "excluded";
    }
    await forgetConsentsToApplication(tx, userId, applicationId);
    return outcome;
  });
}

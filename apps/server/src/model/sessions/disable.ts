import type { Db } from "../../platform/db/schema.ts";
import { forgetSamlConsents } from "../access/saml-consents.ts";
import { forgetTicketConsents } from "../access/ticket-consents.ts";
import { revokeOidcGrants } from "../oidc/grants.ts";
import { updateUser } from "../users/queries.ts";
import { endSessionsWithin, type SessionEnding, type Why } from "./end-sessions.ts";
import type { SignedOut } from "./sign-out-events.ts";

/**
 * A disabled person loses every session and every application's OpenID Connect tokens at once (endSessions),
 * and what they consented to. The protocols hear of it once the change is committed; how many sessions ended.
 */
export async function disableUser(ending: SessionEnding, id: string, actor: Omit<Why, "reason"> = {}): Promise<number> {
  const signedOut = await ending.db.transaction().execute((tx) => disableUserWithin(tx, id, ending.now, actor));
  await ending.events?.publish(signedOut);
  return signedOut.loginTimes.length;
}

/**
 * disableUser's statements, for a caller that already holds a transaction (SCIM's writes); answers what the
 * protocols are to hear after it commits.
 */
export async function disableUserWithin(
  tx: Db,
  id: string,
  now: Date,
  actor: Omit<Why, "reason"> = {},
): Promise<SignedOut> {
  await updateUser(tx, id, { status: "disabled" });
  const signedOut = await endSessionsWithin(tx, { userId: id }, { ...actor, reason: "disabled" }, now);
  // The grants ended with the sessions; the remembered OpenID Connect consents go too, as SAML's and tickets'.
  await revokeOidcGrants(tx, { userId: id });
  await forgetSamlConsents(tx, { userId: id });
  await forgetTicketConsents(tx, { userId: id });
  return signedOut;
}

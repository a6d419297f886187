import { newToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import type { ServiceProviderRow } from "./service-providers.ts";

/** An AuthnRequest waits this long for the person to sign in. */
export const pendingSeconds = 600;

/** Keeps an accepted request on the server while the person signs in; the browser carries only its id. */
export async function savePendingRequest(db: Db, request: AcceptedAuthnRequest, now: Date): Promise<string> {
  const id = newToken(24);
  await db.deleteFrom("saml_pending_requests").where("expires_at", "<", now).execute();
  await db
    .insertInto("saml_pending_requests")
    .values({
      id,
      sp_entity_id: request.sp.entity_id,
      request_id: request.requestId,
      acs_url: request.acsUrl,
      relay_state: request.relayState,
      force_authn: request.forceAuthn,
      mfa_requested: request.mfaRequested,
      created_at: now,
      expires_at: new Date(now.getTime() + pendingSeconds * 1000),
    })
    .execute();
  return id;
}

export async function findPendingRequest(db: Db, id: string, now: Date) {
  const row = await db.selectFrom("saml_pending_requests").selectAll().where("id", "=", id).executeTakeFirst();
  return row && row.expires_at.getTime() > now.getTime() ? row : undefined;
}

export type PendingRequest = NonNullable<Awaited<ReturnType<typeof findPendingRequest>>>;

/** Answered once: the row goes when the answer is made. */
export async function takePendingRequest(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("saml_pending_requests").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** An AuthnRequest that passed every check (protocols/saml/authn-request.ts), kept while the person signs in. */
export interface AcceptedAuthnRequest {
  sp: ServiceProviderRow;
  requestId: string;
  acsUrl: string;
  relayState: string | null;
  forceAuthn: boolean;
  isPassive: boolean;
  mfaRequested: boolean;
}

/** The person said no: the request is answered RequestDenied when the browser comes back to it. */
export async function declinePendingRequest(db: Db, id: string) {
  await db.updateTable("saml_pending_requests").set({ declined: true }).where("id", "=", id).execute();
}

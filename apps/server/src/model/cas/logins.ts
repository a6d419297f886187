import { newToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";

/** A /cas/login waits this long for the person to sign in, step up or answer the consent screen. */
export const pendingLoginSeconds = 600;

export interface CasLoginRequest {
  applicationId: string;
  /** The exact `service` the CAS client sent: the ticket is bound to it. */
  service: string;
  /** renew=true: only credentials presented after this request will do. */
  renew: boolean;
  /** method=POST: the ticket goes to the service in a form POST instead of the query. */
  post: boolean;
}

export interface PendingCasLogin extends CasLoginRequest {
  id: string;
  createdAt: Date;
}

/** Keeps a login on the server while the person signs in; the browser carries only its id. */
export async function savePendingLogin(db: Db, login: CasLoginRequest, now: Date): Promise<string> {
  const id = newToken(24);
  await db.deleteFrom("cas_pending_logins").where("expires_at", "<", now).execute();
  await db
    .insertInto("cas_pending_logins")
    .values({
      id,
      application_id: login.applicationId,
      service: login.service,
      renew: login.renew,
      post: login.post,
      created_at: now,
      expires_at: new Date(now.getTime() + pendingLoginSeconds * 1000),
    })
    .execute();
  return id;
}

/** The waiting login, unexpired. */
export async function findPendingLogin(db: Db, id: string, now: Date): Promise<PendingCasLogin | undefined> {
  const row = await db
    .selectFrom("cas_pending_logins")
    .selectAll()
    .where("id", "=", id)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    applicationId: row.application_id,
    service: row.service,
    renew: row.renew,
    post: row.post,
    createdAt: row.created_at,
  };
}

/** Answered once: the row goes when the ticket is issued. False when another tab answered it first. */
export async function takePendingLogin(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("cas_pending_logins").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

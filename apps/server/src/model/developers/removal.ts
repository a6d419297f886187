import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { forgetConsents } from "../access/consents.ts";
import { deleteApplication, setApplicationDeviceFlow } from "../apps/queries.ts";
import { deleteDeviceCodesOfClient, deletePayloadsOfClient, endOidcGrants } from "../oidc/grants.ts";
import { deleteUnredeemedTicketsOf } from "../tickets/cleanup.ts";

/**
 * The owner's two ways of ending what an application holds (issue 60): "sign everyone out" (it stays, every person
 * signs in and agrees again) and deleting it (nothing of it stays but its audit rows).
 */

/**
 * Ends every sign-in to the application at once: OpenID Connect grants with their codes, access and refresh tokens
 * and device codes, what people agreed to on every protocol (they are asked again), and tickets not yet redeemed.
 * Answers how many grants and tickets ended.
 */
export async function signEveryoneOut(db: Db, applicationId: string): Promise<number> {
  const run = async (tx: Db) => {
    const grants = await endOidcGrants(tx, { applicationId });
    // Codes and device codes waiting for their person belong to no grant yet.
    const waiting = await deletePayloadsOfClient(tx, applicationId);
    await forgetConsents(tx, { applicationId }, ["ticket"]);
    const tickets = await deleteUnredeemedTicketsOf(tx, applicationId);
    return grants + waiting + tickets;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** Whether the typed confirmation names the application (its name in either language, as the page shows it). */
export function confirmsDeletion(application: Pick<ApplicationRow, "title" | "title_en">, typed: string): boolean {
  const names = [application.title, application.title_en].map((name) => name.trim()).filter(Boolean);
  return names.includes(typed.trim());
}

/**
 * Deletes an owner's application: everyone is signed out first, then the row goes and with it (by the database's
 * cascades) its tickets, consents, owners, testers, invitations, reviews and changes. Audit rows stay, without it.
 */
export async function deleteDeveloperApplication(db: Db, application: ApplicationRow, typed: string) {
  if (!confirmsDeletion(application, typed)) throw new AppError("developer.confirmation_mismatch");
  return db.transaction().execute(async (tx) => {
    const ended = await signEveryoneOut(tx, application.id);
    await deleteApplication(tx, application.id);
    return ended;
  });
}

/** The owner turns the device authorization grant on or off; OpenID Connect stays on while anything uses it. */
export async function setDeviceFlow(db: Db, application: ApplicationRow, enabled: boolean, now: Date) {
  const oidcEnabled = enabled || application.redirect_uris.length > 0;
  return db.transaction().execute(async (tx) => {
    // Turned off: device codes waiting for their person end with it.
    if (!enabled) {
      await deleteDeviceCodesOfClient(tx, application.id);
    }
    if (!oidcEnabled) await endOidcGrants(tx, { applicationId: application.id });
    return setApplicationDeviceFlow(tx, application.id, { deviceFlow: enabled, oidcEnabled }, now);
  });
}

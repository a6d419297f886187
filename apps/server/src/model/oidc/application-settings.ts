import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { type ApplicationSettings, writeApplicationSettings } from "../apps/settings.ts";
import { endOidcGrants } from "./grants.ts";

/**
 * Changes these settings of the application (model/apps/settings.ts holds what may change) and answers its row as
 * it now is: one transaction (or part of the caller's), so a refused edit changes nothing. OpenID Connect turned off
 * (or left off) ends every grant and token the application holds, here beside the grants: model/apps imports no
 * other area. Throws MissingRedirectUriError when the application would be a client without a redirect URI.
 */
export function changeApplicationSettings(
  db: Db,
  application: ApplicationRow,
  settings: ApplicationSettings,
  now = new Date(),
): Promise<ApplicationRow> {
  const write = async (tx: Db) => {
    const changed = await writeApplicationSettings(tx, application, settings, now);
    if (settings.oidc !== undefined && !changed.oidc_enabled)
      await endOidcGrants(tx, { applicationId: application.id });
    return changed;
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}

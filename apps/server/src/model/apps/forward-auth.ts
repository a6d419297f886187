import { type ForwardAuthHeader, forwardAuthHeaderNames } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";
import { endSiteSessionsOf } from "../forward-auth/end-all.ts";

/** Whether a word is one of the person headers a site behind nginx may receive. */
export function isForwardAuthHeader(word: string): word is ForwardAuthHeader {
  return (forwardAuthHeaderNames as readonly string[]).includes(word);
}

/**
 * Makes the application a site behind nginx receiving these person headers (docs/nginx-auth-request.md), or, with
 * null, an ordinary application again: its hosts' cookies stop working at once.
 */
export async function setForwardAuthHeaders(
  db: Db,
  applicationId: string,
  headers: readonly ForwardAuthHeader[] | null,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable("applications")
      .set({ forward_auth_headers: headers === null ? null : [...headers], updated_at: new Date() })
      .where("id", "=", applicationId)
      .execute();
    if (headers === null) await endSiteSessionsOf(tx, applicationId);
  });
}

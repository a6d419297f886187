// Which applications are sites behind nginx (docs/nginx-auth-request.md): the application's person headers, kept on
// its row by model/apps, and the site's cookie sessions, kept here, change together.
import { type ForwardAuthHeader, forwardAuthHeaderNames } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";
import { setApplicationForwardAuthHeaders } from "../apps/queries.ts";
import { endSiteSessionsOf } from "./end-all.ts";

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
    await setApplicationForwardAuthHeaders(tx, applicationId, headers, new Date());
    if (headers === null) await endSiteSessionsOf(tx, applicationId);
  });
}

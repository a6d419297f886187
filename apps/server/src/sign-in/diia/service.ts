import { randomUUID } from "node:crypto";
import type { DiiaAppLink, DiiaCheckRequest, DiiaFailureReason } from "@kpi-id/contracts";
import type { Kysely } from "kysely";
import { findDiiaRequestStatus, handOutDiiaGrant, insertDiiaRequest } from "../../model/diia/requests.ts";
import { issueLoginGrant } from "../../model/sessions/grants.ts";
import type { Database } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { askedByPoller, type DiiaCaller, type DiiaPoller } from "./browser-binding.ts";
import type { DiiaClient } from "./client.ts";

export interface DiiaLinkSettings {
  branchId: string;
  offerId: string;
  requestTtlSeconds: number;
}

export interface DiiaContext {
  db: Kysely<Database>;
  client: DiiaClient;
  settings: DiiaLinkSettings;
  now: Date;
  /** Who asked (browser-binding.ts). */
  caller: DiiaCaller;
}

/** A finished request's grant can be collected this long after Diia's callback. */
const grantCollectionWindowMs = 5 * 60 * 1000;

/** A new sign-in request: Diia is given only the hash of our id and returns the deep link. */
export async function createAppLink({ db, client, settings, now, caller }: DiiaContext): Promise<DiiaAppLink> {
  const id = randomUUID();
  // GOST 34.311 (gost89) is loaded at the first Diia sign-in, not at start-up (issue 41).
  const { hashRequestId } = await import("./crypto/gost-hash.ts");
  const hashedRequestId = hashRequestId(id);
  let deepLink: string;
  try {
    deepLink = await client.createDeepLink(settings.branchId, {
      offerId: settings.offerId,
      requestId: hashedRequestId,
    });
  } catch (error) {
    throw new AppError("diia.unavailable", { cause: error });
  }
  const expiresAt = new Date(now.getTime() + settings.requestTtlSeconds * 1000);
  await insertDiiaRequest(db, { id, hashedRequestId, deepLink, caller, createdAt: now, expiresAt });
  // Diia's deep links are https universal links: a phone opens Diia, any other browser Diia's page for
  // the same request. Existing clients read the address as pageLink too.
  return { deepLink, pageLink: deepLink, requestId: id, createdAt: now.toISOString() };
}

/**
 * The polled status, for whoever asked for the deep link only (browser-binding.ts; anyone else is told
 * the request does not exist, so a leaked request id yields neither status nor grant).
 * Processing, Failed and Expired are one indexed read; only the first poll after a successful
 * callback writes: it issues the login grant and marks it issued, so the grant is handed out once.
 */
/** The stored failure as the person can act on it; a malformed or forged callback says nothing (it was not theirs). */
function failureReasonOf(code: string | null): DiiaFailureReason | undefined {
  if (code === "unknown_person" || code === "signer_certificate_absent") return code;
  const certificate = [
    "untrusted_certificate",
    "certificate_revoked",
    "revocation_unknown",
    "certificate_not_valid_now",
  ];
  return code && certificate.includes(code) ? "certificate" : undefined;
}

export async function checkRequest(
  db: Kysely<Database>,
  request: { id: string; poller: DiiaPoller },
  now: Date,
  loginGrantTtlSeconds: number,
): Promise<DiiaCheckRequest> {
  const { id } = request;
  const row = await findDiiaRequestStatus(db, id);
  if (!row || !askedByPoller(row, request.poller)) throw new AppError("diia.request_not_found");
  if (row.status === "Processing") return { status: now < row.expires_at ? "Processing" : "Expired" };
  if (row.status === "Failed") {
    const failure = failureReasonOf(row.failure_code);
    return failure ? { status: "Failed", failure } : { status: "Failed" };
  }
  if (row.status !== "Finished") return { status: row.status };
  if (row.grant_issued || !row.finished_at || now.getTime() - row.finished_at.getTime() > grantCollectionWindowMs) {
    return { status: "Finished" };
  }
  const sessionId = await handOutDiiaGrant(db, id, (trx, userId) =>
    issueLoginGrant(trx, { userId, authMethod: "DIIA" }, loginGrantTtlSeconds, now),
  );
  return sessionId ? { status: "Finished", sessionId } : { status: "Finished" };
}

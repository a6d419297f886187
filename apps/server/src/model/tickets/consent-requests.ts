import { type TicketConsentDatum, ticketConsentData } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";

/** Long enough to read the screen and follow the application's links, short enough that a stale one is gone. */
export const consentRequestSeconds = 600;

export interface TicketConsentRequest {
  id: string;
  userId: string;
  applicationId: string;
  /** The application's own value, returned unchanged to its callback. */
  state: string | undefined;
  /** The callback the link named (undefined: the first registered), checked again when the ticket is issued. */
  redirectUri: string | undefined;
  /** The registered callback it resolved to when the screen was shown. */
  callbackUrl: string;
  /** What the application's ticket carried when the request was made: what the screen names. */
  data: TicketConsentDatum[];
  /** A protocol's own way on after "allow" (a CAS login's /cas/continue/{id}), instead of a ticket. */
  continuePath?: string;
}

type NewRequest = Omit<TicketConsentRequest, "id">;

/**
 * Keeps a sign-in link that waits for the person's answer, on the server: the screen and its answer name only
 * this id, so neither can be pointed at another application, state or callback. The person's own stale ones go,
 * and so do their unanswered ones for the same application: opening its link again and again keeps one.
 */
export async function saveConsentRequest(db: Db, request: NewRequest, now: Date): Promise<string> {
  await db
    .deleteFrom("ticket_consent_requests")
    .where("user_id", "=", request.userId)
    .where((row) => row.or([row("expires_at", "<=", now), row("application_id", "=", request.applicationId)]))
    .execute();
  const row = await db
    .insertInto("ticket_consent_requests")
    .values({
      user_id: request.userId,
      application_id: request.applicationId,
      state: request.state ?? null,
      redirect_uri: request.redirectUri ?? null,
      callback_url: request.callbackUrl,
      data: request.data,
      continue_path: request.continuePath ?? null,
      created_at: now,
      expires_at: new Date(now.getTime() + consentRequestSeconds * 1000),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

type RequestRow = {
  id: string;
  user_id: string;
  application_id: string;
  state: string | null;
  redirect_uri: string | null;
  callback_url: string;
  data: string[];
  continue_path: string | null;
};

const isTicketDatum = (value: string): value is TicketConsentDatum =>
  (ticketConsentData as readonly string[]).includes(value);

function requestOf(row: RequestRow): TicketConsentRequest {
  return {
    id: row.id,
    userId: row.user_id,
    applicationId: row.application_id,
    state: row.state ?? undefined,
    redirectUri: row.redirect_uri ?? undefined,
    callbackUrl: row.callback_url,
    data: row.data.filter(isTicketDatum),
    ...(row.continue_path !== null && { continuePath: row.continue_path }),
  };
}

const columns = [
  "id",
  "user_id",
  "application_id",
  "state",
  "redirect_uri",
  "callback_url",
  "data",
  "continue_path",
] as const;

/** The person's waiting request, unexpired; another person's is as unknown as a made-up id. */
export async function findConsentRequest(db: Db, id: string, userId: string, now: Date) {
  const row = await db
    .selectFrom("ticket_consent_requests")
    .select(columns)
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row ? requestOf(row) : undefined;
}

/** Takes (reads and deletes, in one statement) the person's waiting request: it is answered once. */
export async function takeConsentRequest(db: Db, id: string, userId: string, now: Date) {
  const row = await db
    .deleteFrom("ticket_consent_requests")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("expires_at", ">", now)
    .returning(columns)
    .executeTakeFirst();
  return row ? requestOf(row) : undefined;
}

/** Forgets every request past its time (the cleanup's schedule). */
export async function pruneConsentRequests(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom("ticket_consent_requests").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

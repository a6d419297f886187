import { randomBytes } from "node:crypto";
import type { AuthMethod } from "@kpi-id/contracts";
import type { Selectable } from "kysely";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import type { CasTicketKind, CasTicketsTable } from "../../platform/db/schema-cas.ts";
import { everySessionId } from "../sessions/live.ts";
import { activePeopleIds } from "../users/contacts.ts";

/**
 * A CAS ticket's value: its kind's prefix ("ST-", "PT-", "PGT-", "PGTIOU-", as CAS Protocol 3.0 §3 requires) and
 * 256 bits from the CSPRNG in hex. Letters, digits and "-" only: mod_auth_cas refuses a ticket with "_" in it.
 */
export function newCasTicket(kind: CasTicketKind | "PGTIOU"): string {
  return `${kind}-${randomBytes(32).toString("hex")}`;
}

/** Who a ticket stands for and how they signed in: copied from the KPI ID session (or the granting ticket). */
export interface CasTicketSubject {
  applicationId: string;
  userId: string;
  sessionId: string | null;
  authMethod: AuthMethod;
  amr: readonly string[];
  /** When the person last proved who they are in that session. */
  authenticatedAt: Date;
  /** Issued from credentials presented for this very login (what `renew=true` asks at validation). */
  fromNewLogin: boolean;
}

export interface NewCasTicket extends CasTicketSubject {
  kind: CasTicketKind;
  /** ST, PT: the exact service it may be validated for. PGT: the service (or proxy callback) it was issued to. */
  service: string;
  /** The proxies a PT or PGT came through, the most recent first (CAS Protocol 3.0 §2.6.2). */
  proxies?: readonly string[];
}

/** Stores a new ticket (only its hash) and answers its value (made here unless the caller made it first). */
export async function issueCasTicket(
  db: Db,
  ticket: NewCasTicket,
  ttlSeconds: number,
  now: Date,
  value = newCasTicket(ticket.kind),
): Promise<string> {
  await db
    .insertInto("cas_tickets")
    .values({
      ticket_hash: hashToken(value),
      kind: ticket.kind,
      application_id: ticket.applicationId,
      service: ticket.service,
      user_id: ticket.userId,
      session_id: ticket.sessionId,
      auth_method: ticket.authMethod,
      amr: [...ticket.amr],
      authenticated_at: ticket.authenticatedAt,
      from_new_login: ticket.fromNewLogin,
      proxies: [...(ticket.proxies ?? [])],
      created_at: now,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000),
    })
    .execute();
  return value;
}

export interface UsedCasTicket extends CasTicketSubject {
  kind: CasTicketKind;
  service: string;
  proxies: string[];
}

const ticketColumns = [
  "kind",
  "application_id",
  "service",
  "user_id",
  "session_id",
  "auth_method",
  "amr",
  "authenticated_at",
  "from_new_login",
  "proxies",
] as const;

type TicketRow = Pick<Selectable<CasTicketsTable>, (typeof ticketColumns)[number]>;

function ticketOf(row: TicketRow): UsedCasTicket {
  return {
    kind: row.kind,
    applicationId: row.application_id,
    service: row.service,
    userId: row.user_id,
    sessionId: row.session_id,
    authMethod: row.auth_method,
    amr: row.amr,
    authenticatedAt: row.authenticated_at,
    fromNewLogin: row.from_new_login,
    proxies: row.proxies,
  };
}

/**
 * Spends a service or proxy ticket, whatever service the validation names: a ticket validated once, for any
 * service, never validates again (§3.1.1, §2.5.3 INVALID_SERVICE). One statement, so of two validations at once
 * only one wins. Unknown, spent, expired, a proxy-granting ticket, or a since-disabled person's: undefined.
 */
export async function spendCasTicket(db: Db, value: string, now: Date): Promise<UsedCasTicket | undefined> {
  const row = await db
    .updateTable("cas_tickets")
    .set({ consumed_at: now })
    .where("ticket_hash", "=", hashToken(value))
    .where("kind", "in", ["ST", "PT"])
    .where("consumed_at", "is", null)
    .where("expires_at", ">", now)
    .where("user_id", "in", activePeopleIds(db))
    .returning(ticketColumns)
    .executeTakeFirst();
  return row ? ticketOf(row) : undefined;
}

/** A live proxy-granting ticket (used any number of times while its KPI ID session lasts), of an active person. */
export async function findProxyGrantingTicket(db: Db, value: string, now: Date): Promise<UsedCasTicket | undefined> {
  const row = await db
    .selectFrom("cas_tickets")
    .select(ticketColumns)
    .where("ticket_hash", "=", hashToken(value))
    .where("kind", "=", "PGT")
    .where("expires_at", ">", now)
    .where("session_id", "in", everySessionId(db))
    .where("user_id", "in", activePeopleIds(db))
    .executeTakeFirst();
  return row ? ticketOf(row) : undefined;
}

/** Ends the proxy-granting tickets of KPI ID sessions that ended (their services can no longer act for the person). */
export async function endProxyGrantingTickets(db: Db, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await db.deleteFrom("cas_tickets").where("kind", "=", "PGT").where("session_id", "in", sessionIds).execute();
}

/** Forgets tickets past their time (the cleanup's schedule). */
export async function pruneCasTickets(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom("cas_tickets").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

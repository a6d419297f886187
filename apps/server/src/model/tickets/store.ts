// One-time tickets (model/tickets owns the table): issued at an app redirect, exchanged once by the application's
// server (protocols/tickets).
import type { AuthMethod } from "@kpi-id/contracts";
import { sql } from "kysely";
import { auditRowPerChange } from "../../platform/audit/in-statement.ts";
import type { AuditRow } from "../../platform/audit/record.ts";
import { hashToken, newToken } from "../../platform/crypto/tokens.ts";
import { precompiled } from "../../platform/db/precompiled.ts";
import type { Db } from "../../platform/db/schema.ts";
import { personRolesColumns, rolesFromColumns } from "../people/profile.ts";
import { signInAmr } from "../sessions/strength.ts";
import { activePeopleIds } from "../users/contacts.ts";

export interface NewTicket {
  applicationId: string;
  userId: string;
  authMethod: AuthMethod;
  /** The session's RFC 8176 values; the method's own when left out. */
  amr?: readonly string[];
  /** The KPI ID session it comes from: a site behind nginx binds its own cookie to it (forward-auth). */
  sessionId?: string;
}

/** A one-time ticket for one application; only its hash is stored. */
export async function issueTicket(db: Db, ticket: NewTicket, ttlSeconds: number, now: Date): Promise<string> {
  const token = newToken();
  await db
    .insertInto("tickets")
    .values({
      ticket_hash: hashToken(token),
      application_id: ticket.applicationId,
      user_id: ticket.userId,
      auth_method: ticket.authMethod,
      amr: [...signInAmr(ticket.authMethod, ticket.amr)],
      session_id: ticket.sessionId ?? null,
      created_at: now,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000),
    })
    .execute();
  return token;
}

/** What the exchange's audit row says besides the ticket's person and method, which the statement adds. */
type TicketAuditRow = Pick<AuditRow, "occurred_at" | "event_type" | "result" | "application_id" | "ip" | "user_agent">;

interface ExchangeValues extends Record<string, unknown> {
  ticketHash: Buffer;
  applicationId: string;
  now: Date;
  occurredAt: Date;
  eventType: TicketAuditRow["event_type"];
  result: TicketAuditRow["result"];
  auditApplicationId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** The exchange's one statement, built once (db/precompiled.ts): a ticket is exchanged at every sign-in. */
const exchangeStatement = precompiled((db, values: ExchangeValues) => {
  const roles = personRolesColumns(sql.ref<string>("users.id"));
  return (
    db
      .with("used", (cte) =>
        cte
          .updateTable("tickets")
          .set({ consumed_at: values.now })
          .where("ticket_hash", "=", values.ticketHash)
          .where("application_id", "=", values.applicationId)
          .where("consumed_at", "is", null)
          .where("expires_at", ">", values.now)
          .where("user_id", "in", activePeopleIds(db))
          .returning(["id", "user_id", "auth_method", "trace_id", "created_at", "amr"]),
      )
      // The success's audit row, with the ticket's person and method: the audit trail's owner lends the insert.
      .with("audit_row", () =>
        auditRowPerChange("used", {
          occurredAt: values.occurredAt,
          eventType: values.eventType,
          result: values.result,
          applicationId: values.auditApplicationId,
          ip: values.ip,
          userAgent: values.userAgent,
        }),
      )
      .selectFrom("used")
      .innerJoin("users", "users.id", "used.user_id")
      // Only what the answer says of the person: every column more is decoded at each sign-in (issue 63), and the
      // password hash has no business in the exchange.
      .select(["users.id", "users.full_name", "users.tax_id", "users.student_id", "users.employee_id"])
      .select([
        "used.id as ticket_id",
        "used.auth_method as ticket_auth_method",
        "used.trace_id as ticket_trace_id",
        "used.created_at as ticket_created_at",
        "used.amr as ticket_amr",
        roles.affiliations.as("roles_affiliations"),
        roles.records.as("roles_records"),
      ])
  );
});

/**
 * Marks the ticket used and returns it with its person and their campus roles, in one statement so
 * that of two concurrent redemptions only one wins, and in one round trip. The success's audit row
 * (`audit`, completed with the ticket's person and method) is written by the same statement, one commit.
 * Unknown, used, expired, another application's, or a since-disabled person's ticket: undefined, nothing written.
 */
export async function consumeTicket(db: Db, token: string, applicationId: string, now: Date, audit: TicketAuditRow) {
  const [row] = await exchangeStatement(db, {
    ticketHash: hashToken(token),
    applicationId,
    now,
    occurredAt: audit.occurred_at,
    eventType: audit.event_type,
    result: audit.result,
    auditApplicationId: audit.application_id ?? null,
    ip: audit.ip ?? null,
    userAgent: audit.user_agent ?? null,
  });
  if (!row) return undefined;
  const { ticket_id, ticket_auth_method, ticket_trace_id, ticket_created_at, ticket_amr, ...rest } = row;
  const { roles_affiliations, roles_records, ...user } = rest;
  const ticket = {
    id: ticket_id,
    user_id: user.id,
    auth_method: ticket_auth_method,
    trace_id: ticket_trace_id,
    created_at: ticket_created_at,
    amr: ticket_amr,
  };
  return { ticket, user, roles: rolesFromColumns({ affiliations: roles_affiliations, records: roles_records }) };
}

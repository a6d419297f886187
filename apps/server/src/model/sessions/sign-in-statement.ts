import type { Language } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { sql } from "kysely";
import type { RequestAuditEvent } from "../../platform/audit/record.ts";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { User } from "../../platform/db/schema.ts";
import { countAuditEvent, requestAuditedStatement } from "../../platform/http/audit.ts";
import { fromBrowser } from "../../platform/http/security.ts";
import { type NewSession, newSessionRow } from "./store.ts";

export interface StoredSignIn {
  sessionId: string;
  token: string;
  /** This was the person's first sign-in ever (nothing to compare a new browser with yet). */
  firstSignIn: boolean;
}

export interface SignInWrites {
  person: User;
  session: NewSession;
  /** The session cookie the browser came with: that session ends, a token planted before sign-in is worthless. */
  previousToken: string | undefined;
  /** The language of this request, kept on the person for mail sent without a request of theirs. */
  language: Language;
  audit: RequestAuditEvent;
}

/**
 * Every write of a finished sign-in in one statement, one round trip, all or nothing: the session the browser
 * came with ends, the new session starts, the person's language and first sign-in are noted (a no-op update
 * once both are current) and the audit row is written. The first sign-in is kept on the person, not read from
 * the audit log, which AUDIT_RETENTION_DAYS prunes; whether this is it is judged from the person read with the
 * grant: two first sign-ins racing both count as first, so neither mails "new device".
 */
export async function storeSignIn(request: FastifyRequest, writes: SignInWrites): Promise<StoredSignIn> {
  const { config, clock } = request.server;
  const now = clock();
  const { person, language } = writes;
  const { token, row } = newSessionRow(writes.session, config.sessions, now);
  // An empty cookie is no token; its hash names no session, so the delete then removes nothing.
  const previousHash = hashToken(writes.previousToken ?? "");
  const stored = await requestAuditedStatement(request, writes.audit, { waitForDisk: !fromBrowser(request) })
    .with("previous_session", (query) => query.deleteFrom("sessions").where("token_hash", "=", previousHash))
    .with("person_noted", (query) =>
      query
        .updateTable("users")
        .set({ language, first_signed_in_at: sql<Date>`coalesce(first_signed_in_at, ${now})` })
        .where("id", "=", person.id)
        .where((eb) => eb.or([eb("language", "is distinct from", language), eb("first_signed_in_at", "is", null)])),
    )
    .insertInto("sessions")
    .values(row)
    .returning("id")
    .executeTakeFirstOrThrow();
  countAuditEvent(request, writes.audit);
  return { sessionId: stored.id, token, firstSignIn: person.first_signed_in_at === null };
}

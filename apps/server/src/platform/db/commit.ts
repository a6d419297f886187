import { sql } from "kysely";

/**
 * For a RETURNING list: the statement's own transaction commits without waiting for the WAL to reach the disk
 * (PostgreSQL evaluates a data-modifying CTE's RETURNING for each row even when nothing reads it; the server's
 * setting is left alone). Only for rows whose loss in a PostgreSQL crash fails closed: a sign-in's grant and
 * session, which the person then makes again, and OpenID Connect codes and tokens as issued (oidc/adapter.ts).
 * Whatever such a session leads to outside (a ticket's issue, an OpenID Connect code's use, a SAML session, a
 * sign-out) commits durably, and a durable commit carries every earlier one to disk with it: the WAL is written in
 * order, so no application ever learns who signed in while the audit log could still forget the sign-in. A
 * sign-in a server makes itself (no Origin, no Sec-Fetch-Site: the existing integrations' server-side flow) is
 * written durably: that server learns who signed in from the answer. Never inside a transaction: the setting
 * would hold for every statement of it. See docs/operations.md, "What a database crash can forget".
 */
export const synchronousCommitOff = sql<string>`set_config('synchronous_commit', 'off', true)`;
export const commitWithoutWaitingForDisk = synchronousCommitOff.as("commit_without_waiting_for_disk");

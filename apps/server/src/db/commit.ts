import { sql } from "kysely";

/**
 * For a RETURNING list: the statement's own transaction commits without waiting for the WAL to reach the disk
 * (PostgreSQL evaluates a data-modifying CTE's RETURNING for each row even when nothing reads it; the server's
 * setting is left alone). Only for rows whose loss in a PostgreSQL crash fails closed: a sign-in's grant and
 * session, which the person then makes again. Whatever such a session leads to outside (a ticket, an OpenID
 * Connect code, a SAML assertion, a sign-out) commits durably, and a durable commit carries every earlier one to
 * disk with it: the WAL is written in order, so no application ever learns of a sign-in the audit log could
 * forget. See docs/operations.md, "What a database crash can forget".
 */
export const commitWithoutWaitingForDisk = sql<string>`set_config('synchronous_commit', 'off', true)`.as(
  "commit_without_waiting_for_disk",
);

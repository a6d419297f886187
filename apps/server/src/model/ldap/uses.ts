import type { QueryCreator } from "kysely";
import type { Database } from "../../platform/db/schema.ts";

/** Uses kept per application password: the five the account page shows, and enough to know returning clients. */
export const usesKeptPerPassword = 20;

/**
 * An accepted bind with an application password, as data-modifying CTEs on `query`: the statement that records
 * the bind's audit row notes the use (its last use, the use itself) and keeps only the latest uses, in the same
 * round trip and commit. The CTEs see the table as it was before the statement, so the new use is one of the kept.
 */
export function withApplicationPasswordUse(
  query: QueryCreator<Database>,
  use: { passwordId: string; userId: string; clientId: string | null; peer: string | null; now: Date },
): QueryCreator<Database> {
  return query
    .with("ldap_password_used", (cte) =>
      cte.updateTable("ldap_passwords").set({ last_used_at: use.now }).where("id", "=", use.passwordId),
    )
    .with("ldap_use_added", (cte) =>
      cte.insertInto("ldap_uses").values({
        password_id: use.passwordId,
        user_id: use.userId,
        client_id: use.clientId,
        used_at: use.now,
        peer: use.peer?.slice(0, 100) ?? null,
      }),
    )
    .with("ldap_uses_trimmed", (cte) =>
      cte.deleteFrom("ldap_uses").where("id", "in", (eb) =>
        eb
          .selectFrom("ldap_uses")
          .select("id")
          .where("password_id", "=", use.passwordId)
          .orderBy("used_at", "desc")
          .orderBy("id", "desc")
          .offset(usesKeptPerPassword - 1),
      ),
    );
}

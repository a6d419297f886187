import type { Language } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";

// What other areas ask of people's accounts to write to them or to pick people by their account's state; the
// statements stay here, as subqueries other areas' statements take whole (one round trip).

/** Someone to write to: their name, their addresses (given and confirmed), the language of their last sign-in. */
export interface Addressee {
  name: string;
  email: string | null;
  verified_email: string | null;
  language: Language | null;
}

/** These people as addressees, by id, with whether their account is active. */
export async function addresseesByIds(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, Addressee & { active: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("users")
    .select(["id", "full_name", "email", "verified_email", "language", "status"])
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        name: row.full_name,
        email: row.email,
        verified_email: row.verified_email,
        language: row.language,
        active: row.status === "active",
      },
    ]),
  );
}

/** The console's active admins as addressees. */
export function activeAdminAddressees(db: Db): Promise<Addressee[]> {
  return db
    .selectFrom("operator_roles")
    .innerJoin("users", "users.id", "operator_roles.user_id")
    .select(["users.full_name as name", "users.email", "users.verified_email", "users.language"])
    .where("operator_roles.role", "=", "admin")
    .where("users.status", "=", "active")
    .execute();
}

/** The ids of active people, as a subquery. */
export function activePeopleIds(db: Db) {
  return db.selectFrom("users").select("id").where("status", "=", "active");
}

/** The ids of people disabled and not yet erased, as a subquery. */
export function disabledPeopleIds(db: Db) {
  return db.selectFrom("users").select("id").where("status", "=", "disabled").where("anonymised_at", "is", null);
}

/** The ids of people who left: disabled or erased, as a subquery. */
export function leftPeopleIds(db: Db) {
  return db
    .selectFrom("users")
    .select("id")
    .where((eb) => eb.or([eb("status", "=", "disabled"), eb("anonymised_at", "is not", null)]));
}

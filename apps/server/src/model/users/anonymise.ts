// The account's side of erasure (model/privacy/erase.ts runs it in its transaction): the row stays as a nameless,
// disabled stub whose id keeps the audit rows and the applications' subject.
import type { Db, User } from "../../platform/db/schema.ts";

/** The row's personal fields; each one not already empty counts once in the erasure's `profileFields`. */
export const personalFields = [
  "full_name",
  "email",
  "verified_email",
  "tax_id",
  "student_id",
  "employee_id",
  "password_hash",
  "scim_external_id",
  "scim_attributes",
  "language",
  "first_signed_in_at",
] as const satisfies readonly (keyof User)[];

/** The name a nameless person carries: their id, so it is unique, stable and says nothing about them. */
export const erasedUsername = (userId: string) => `erased-${userId}`;

/** Empties the person's personal fields and disables them; hidden from SCIM from now on if not already. */
export async function anonymiseAccount(db: Db, person: User, now: Date): Promise<void> {
  await db
    .updateTable("users")
    .set({
      username: erasedUsername(person.id),
      full_name: erasedUsername(person.id),
      ...Object.fromEntries(personalFields.filter((field) => field !== "full_name").map((field) => [field, null])),
      status: "disabled",
      require_mfa: false,
      scim_deleted_at: person.scim_deleted_at ?? now,
      anonymised_at: now,
      updated_at: now,
    })
    .where("id", "=", person.id)
    .execute();
}

import type { Db } from "../db/schema.ts";

/**
 * What an import line can change about a person, as one comparable string: their fields, their
 * primary records and their applications. Equal before and after a line means "unchanged";
 * timestamps and the writer's name are left out, since every write touches those.
 */
export async function personSnapshot(db: Db, userId: string): Promise<string> {
  const [person, students, positions, applications] = await Promise.all([
    db
      .selectFrom("users")
      .select(["username", "full_name", "email", "tax_id", "student_id", "employee_id", "password_hash", "status"])
      .where("id", "=", userId)
      .executeTakeFirst(),
    db
      .selectFrom("student_records")
      .select(["student_id", "unit_id", "status", "is_primary"])
      .where("user_id", "=", userId)
      .orderBy("student_id")
      .execute(),
    db
      .selectFrom("employee_positions")
      .select(["employee_id", "unit_id", "status", "is_primary"])
      .where("user_id", "=", userId)
      .orderBy("employee_id")
      .execute(),
    db
      .selectFrom("user_applications")
      .select("application_id")
      .where("user_id", "=", userId)
      .orderBy("application_id")
      .execute(),
  ]);
  return JSON.stringify([person, students, positions, applications]);
}

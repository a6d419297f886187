import type { PersonRecord } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";
import { credentialThrottleKeys } from "../../platform/throttle/throttle.ts";

// The reads behind the console's person screen (surfaces/admin/people.ts): each one statement, run side by side.
// The person's open sessions are model/sessions' (live.ts), which the screen asks itself: users sit below sessions.

// The person's history: sign-ins and sessions, and the changes the university's systems made to them.
const historyEventTypes = [
  "sign_in",
  "session_start",
  "oidc_sign_in",
  "logout",
  "session_end",
  "account_unlocked",
  "scim_change",
  "people_imported",
];
const historyLength = 20;

/** The applications the person may enter, by title. */
export function applicationsOfPerson(db: Db, userId: string) {
  return db
    .selectFrom("user_applications")
    .innerJoin("applications", "applications.id", "user_applications.application_id")
    .select(["applications.id", "applications.name", "applications.title", "applications.title_en as titleEn"])
    .where("user_applications.user_id", "=", userId)
    .orderBy("applications.title")
    .execute();
}

/** The person's latest sign-ins, sessions and changes from the audit log. */
export function historyOfPerson(db: Db, userId: string) {
  return db
    .selectFrom("audit_events")
    .select(["occurred_at", "event_type", "result", "auth_method", "reason", "ip"])
    .where("user_id", "=", userId)
    .where("event_type", "in", historyEventTypes)
    .orderBy("occurred_at", "desc")
    .orderBy("id", "desc")
    .limit(historyLength)
    .execute();
}

/** The person's student records and employee positions with their units, primary first. */
export async function personRecordsOf(db: Db, userId: string): Promise<PersonRecord[]> {
  const [students, positions] = await Promise.all([
    db
      .selectFrom("student_records as r")
      .leftJoin("units as u", "u.id", "r.unit_id")
      .select(["r.student_id as id", "r.status", "r.is_primary", "r.speciality as title", "r.source"])
      .select(["u.code", "u.name_uk", "u.name_en"])
      .where("r.user_id", "=", userId)
      .orderBy("r.is_primary", "desc")
      .orderBy("r.student_id")
      .execute(),
    db
      .selectFrom("employee_positions as r")
      .leftJoin("units as u", "u.id", "r.unit_id")
      .select(["r.employee_id as id", "r.status", "r.is_primary", "r.position as title", "r.source"])
      .select(["u.code", "u.name_uk", "u.name_en"])
      .where("r.user_id", "=", userId)
      .orderBy("r.is_primary", "desc")
      .orderBy("r.employee_id")
      .execute(),
  ]);
  interface RecordRow {
    id: string;
    status: string;
    is_primary: boolean;
    title: string;
    source: string;
    code: string | null;
    name_uk: string | null;
    name_en: string | null;
  }
  const view = (kind: PersonRecord["kind"]) => (row: RecordRow) => ({
    kind,
    id: row.id,
    status: row.status,
    primary: row.is_primary,
    unit: row.code ? { code: row.code, nameUk: row.name_uk ?? row.code, nameEn: row.name_en ?? row.code } : null,
    title: row.title,
    source: row.source,
  });
  return [...students.map(view("student")), ...positions.map(view("employee"))];
}

/** A confirmed authenticator app and the number of passkeys: what a second-factor reset removes. */
export async function secondFactorsOf(db: Db, userId: string) {
  const [totp, passkeys] = await Promise.all([
    db.selectFrom("totp_factors").select("confirmed_at").where("user_id", "=", userId).executeTakeFirst(),
    db
      .selectFrom("webauthn_credentials")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { authenticator: Boolean(totp?.confirmed_at), passkeys: Number(passkeys.count) };
}

/** The account's counter of strangers' failed guesses (what `user unlock` deletes). */
export async function accountThrottle(db: Db, secret: string, username: string) {
  const [account] = credentialThrottleKeys(secret, { username, address: "" });
  const row = account
    ? await db
        .selectFrom("throttle_counters")
        .select(["failures", "blocked_until"])
        .where("key", "=", account.key)
        .executeTakeFirst()
    : undefined;
  return { failures: row?.failures ?? 0, lockedUntil: row?.blocked_until?.toISOString() ?? null };
}

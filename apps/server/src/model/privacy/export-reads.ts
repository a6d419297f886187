import type { PersonalData } from "@kpi-id/contracts";
import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { consentsGivenBy } from "../access/consents.ts";

// The reads behind the personal-data export (docs/privacy.md) that no other module answers: the surface
// composes them with the sessions, applications, activity, Wi-Fi and developers' parts.

export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

interface RecordRow {
  kind: "student" | "employee";
  id: string;
  unit: string | null;
  status: string;
  title: string;
  starts_on: string | null;
  ends_on: string | null;
  is_primary: boolean;
  source: string;
}

/** Student records and positions in one statement; dates are stored as ISO day text. */
export async function recordsOf(db: Db, userId: string): Promise<PersonalData["records"]> {
  const { rows } = await sql<RecordRow>`
    select 'student' as kind, r.student_id as id, r.speciality as title, u.name_uk as unit,
           r.status, r.starts_on, r.ends_on, r.is_primary, r.source
    from student_records r left join units u on u.id = r.unit_id where r.user_id = ${userId}
    union all
    select 'employee', r.employee_id, r.position, u.name_uk, r.status, r.starts_on, r.ends_on, r.is_primary, r.source
    from employee_positions r left join units u on u.id = r.unit_id where r.user_id = ${userId}`.execute(db);
  return rows.map((row) => ({
    kind: row.kind,
    id: row.id,
    unit: row.unit,
    status: row.status,
    title: row.title,
    startsOn: row.starts_on,
    endsOn: row.ends_on,
    primary: row.is_primary,
    source: row.source,
  }));
}

export async function signInMethodsOf(db: Db, user: { id: string; password_hash: string | null }) {
  const totp = await db
    .selectFrom("totp_factors")
    .select("confirmed_at")
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  const codes = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<string>().as("left"))
    .where("user_id", "=", user.id)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  const passkeys = await db
    .selectFrom("webauthn_credentials")
    .select(["name", "created_at", "last_used_at", "backup_eligible"])
    .where("user_id", "=", user.id)
    .orderBy("created_at")
    .execute();
  const google = await db
    .selectFrom("external_identities")
    .select("created_at")
    .where("user_id", "=", user.id)
    .execute();
  return {
    password: user.password_hash !== null,
    authenticatorApp: totp ? { confirmedAt: isoOrNull(totp.confirmed_at) } : null,
    recoveryCodesLeft: Number(codes.left),
    passkeys: passkeys.map((row) => ({
      name: row.name,
      createdAt: row.created_at.toISOString(),
      lastUsedAt: isoOrNull(row.last_used_at),
      synced: row.backup_eligible,
    })),
    // The Google account's subject is Google's id for the person; when it was linked is what they need.
    googleAccounts: google.map((row) => ({ linkedAt: row.created_at.toISOString() })),
  };
}

/** The consents the person gave over OpenID Connect and SAML (the ticket path's show with the applications). */
export async function consentsOf(db: Db, userId: string): Promise<PersonalData["consents"]> {
  const given = await consentsGivenBy(db, userId);
  return {
    openIdConnect: given.flatMap((consent) =>
      consent.protocol === "oidc"
        ? [{ application: consent.applicationTitle, scopes: consent.allowed, until: consent.until.toISOString() }]
        : [],
    ),
    saml: given.flatMap((consent) =>
      consent.protocol === "saml"
        ? [{ serviceProvider: consent.spEntityId, attributes: consent.allowed, givenAt: consent.givenAt.toISOString() }]
        : [],
    ),
  };
}

/** The person's account row, whole: the export shows its fields. */
export function accountRowOf(db: Db, userId: string) {
  return db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
}

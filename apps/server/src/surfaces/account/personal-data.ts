import type { PersonalData } from "@kpi-id/contracts";
import { sql } from "kysely";
import { developerApplicationsOf } from "../../model/developers/memberships.ts";
import { liveSessionsOf } from "../../model/sessions/live.ts";
import { listNetworkPasswords } from "../../model/wifi/passwords.ts";
import { wifiPasswordView } from "../../model/wifi/view.ts";
import type { Db } from "../../platform/db/schema.ts";
import { recentActivityOf } from "./activity.ts";
import { connectedApplicationsOf } from "./applications.ts";

/** The export carries the last year of security activity (the audit log keeps about that long). */
const activityDays = 365;
const activityLimit = 10_000;

/** What each section and profile field is, in both languages: the file explains itself. */
const labels: PersonalData["labels"] = {
  profile: { uk: "Профіль", en: "Profile" },
  username: { uk: "Логін", en: "Username" },
  fullName: { uk: "Повне ім'я", en: "Full name" },
  email: { uk: "Електронна пошта", en: "E-mail" },
  verifiedEmail: { uk: "Підтверджена електронна пошта", en: "Verified e-mail" },
  taxId: { uk: "РНОКПП (податковий номер)", en: "Tax id (RNOKPP)" },
  studentId: { uk: "Номер студентського квитка", en: "Student id" },
  employeeId: { uk: "Табельний номер", en: "Employee id" },
  status: { uk: "Стан облікового запису", en: "Account status" },
  createdAt: { uk: "Створено", en: "Created" },
  firstSignedInAt: { uk: "Перший вхід", en: "First sign-in" },
  records: { uk: "Навчання та посади", en: "Studies and positions" },
  signInMethods: { uk: "Способи входу (без секретів)", en: "Sign-in methods (no secrets)" },
  sessions: { uk: "Активні сеанси", en: "Active sessions" },
  applications: { uk: "Підключені застосунки", en: "Connected applications" },
  consents: { uk: "Надані згоди", en: "Consents given" },
  securityActivity: { uk: "Дії з безпеки за останній рік", en: "Security activity of the last year" },
  wifiPasswords: {
    uk: "Паролі Wi-Fi (eduroam), без самих паролів",
    en: "Wi-Fi (eduroam) passwords, without the passwords",
  },
  developerApplications: {
    uk: "Застосунки, якими ви володієте або які тестуєте (і запрошення до них)",
    en: "Applications you own or test (and invitations to them)",
  },
};

const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

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
async function recordsOf(db: Db, userId: string): Promise<PersonalData["records"]> {
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

async function signInMethodsOf(db: Db, user: { id: string; password_hash: string | null }) {
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

async function consentsOf(db: Db, userId: string): Promise<PersonalData["consents"]> {
  const openIdConnect = await db
    .selectFrom("oidc_consents")
    .innerJoin("applications", "applications.id", "oidc_consents.application_id")
    .select(["applications.title", "oidc_consents.scopes", "oidc_consents.expires_at"])
    .where("oidc_consents.user_id", "=", userId)
    .execute();
  const saml = await db
    .selectFrom("saml_consents")
    .select(["sp_entity_id", "attributes", "created_at"])
    .where("user_id", "=", userId)
    .execute();
  return {
    openIdConnect: openIdConnect.map((row) => ({
      application: row.title,
      scopes: row.scopes,
      until: row.expires_at.toISOString(),
    })),
    saml: saml.map((row) => ({
      serviceProvider: row.sp_entity_id,
      attributes: row.attributes,
      givenAt: row.created_at.toISOString(),
    })),
  };
}

/** The signed-in person's data (docs/privacy.md), read in one go for the account page's download. */
export async function personalDataOf(
  db: Db,
  userId: string,
  sessionId: string,
  now: Date,
  wifiRealm: string,
): Promise<PersonalData> {
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  return {
    exportedAt: now.toISOString(),
    labels,
    profile: {
      username: user.username,
      fullName: user.full_name,
      email: user.email,
      verifiedEmail: user.verified_email,
      taxId: user.tax_id,
      studentId: user.student_id,
      employeeId: user.employee_id,
      status: user.status,
      createdAt: user.created_at.toISOString(),
      firstSignedInAt: isoOrNull(user.first_signed_in_at),
    },
    records: await recordsOf(db, userId),
    signInMethods: await signInMethodsOf(db, user),
    sessions: await liveSessionsOf(db, userId, sessionId, now),
    applications: await connectedApplicationsOf(db, userId, now),
    consents: await consentsOf(db, userId),
    securityActivity: await recentActivityOf(db, userId, now, { days: activityDays, limit: activityLimit }),
    wifiPasswords: (await listNetworkPasswords(db, userId)).map((password) =>
      wifiPasswordView(password, user.username, wifiRealm),
    ),
    developerApplications: await developerApplicationsOf(db, userId, now),
  };
}

import type { PersonalData } from "@kpi-id/contracts";
import { connectedApplicationsOf } from "../../model/connections/applications.ts";
import { developerApplicationsOf } from "../../model/developers/memberships.ts";
import { recordsForExport } from "../../model/people/person-data.ts";
import { accountRowOf, consentsOf, isoOrNull, signInMethodsOf } from "../../model/privacy/export-reads.ts";
import { liveSessionsOf } from "../../model/sessions/live.ts";
import { listNetworkPasswords } from "../../model/wifi/passwords.ts";
import { wifiPasswordView } from "../../model/wifi/view.ts";
import type { Db } from "../../platform/db/schema.ts";
import { recentActivityOf } from "./activity.ts";

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

/** The signed-in person's data (docs/privacy.md), read in one go for the account page's download. */
export async function personalDataOf(
  db: Db,
  userId: string,
  sessionId: string,
  now: Date,
  wifiRealm: string,
): Promise<PersonalData> {
  const user = await accountRowOf(db, userId);
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
    records: await recordsForExport(db, userId),
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

import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { revokeAllRoles } from "./operator-roles.ts";
import { revokeAllUnitRoles } from "./unit-roles.ts";

/**
 * Console roles, the university-wide ones and those held in units (counted together). The account row itself becomes a nameless stub last of all (model/privacy/erase.ts, with
 * anonymise.ts and retired-usernames.ts), after every other area and the audit rows. The download shows the row's
 * fields and whether a password is set (never its hash).
 */
export const personData: PersonDataArea = {
  area: "users",
  erase: async (db, person) => ({
    consoleRoles: (await revokeAllRoles(db, person.id)) + Number(await revokeAllUnitRoles(db, person.id)),
  }),
  exportOf: async (_db, person) => ({
    profile: {
      username: person.username,
      fullName: person.full_name,
      email: person.email,
      verifiedEmail: person.verified_email,
      taxId: person.tax_id,
      studentId: person.student_id,
      employeeId: person.employee_id,
      status: person.status,
      createdAt: person.created_at.toISOString(),
      firstSignedInAt: person.first_signed_in_at?.toISOString() ?? null,
    },
    signInMethods: { password: person.password_hash !== null },
  }),
  labels: {
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
    signInMethods: { uk: "Способи входу (без секретів)", en: "Sign-in methods (no secrets)" },
  },
};

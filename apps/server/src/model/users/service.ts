import { PASSWORD_MAX_LENGTH, text } from "@kpi-id/contracts";
import { z } from "zod";
import type { PasswordHasher } from "../../platform/crypto/password.ts";
import { positionStatuses, studentStatuses } from "../../platform/db/people-schema.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { insertFirstRecords } from "../people/records.ts";
import { findUnitByCode } from "../people/units.ts";
import { setPersonPrimaryPosition, setPersonPrimaryStudentRecord } from "./primary-records.ts";
import { findUserById, findUserByUsername, insertUser, updateUser } from "./queries.ts";
import { isRetiredUsername } from "./retired-usernames.ts";
import { PersonRuleError } from "./rule-error.ts";

const optionalField = (schema: z.ZodType<string, string>) =>
  z
    .string()
    .nullish()
    .transform((value) => (value == null || value.trim() === "" ? null : value.trim()))
    .pipe(schema.nullable());

/** RNOKPP: the Ukrainian taxpayer number, ten digits. */
export const taxIdSchema = text().regex(/^\d{10}$/, "must be 10 digits (RNOKPP)");

// NIST SP 800-63B: at least 8 characters, no composition rules, long passphrases welcome.
export const passwordSchema = text().min(8, "must be at least 8 characters").max(PASSWORD_MAX_LENGTH);

// Each field's rule, once: a new person (personSchema) and changes to one (personChangesSchema) share them.
const fields = {
  fullName: text().trim().min(1).max(200),
  email: z.email(),
  taxId: taxIdSchema,
  studentId: text().max(64),
  employeeId: text().max(64),
};

export const personSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .regex(/^[\p{L}\p{N}._@-]+$/u, "letters, digits, '.', '_', '-' and '@' only"),
  fullName: fields.fullName,
  email: optionalField(fields.email),
  taxId: optionalField(fields.taxId),
  studentId: optionalField(fields.studentId),
  employeeId: optionalField(fields.employeeId),
});
export type PersonInput = z.input<typeof personSchema>;
export type Person = z.output<typeof personSchema>;

/** Changes to a person found by username: a field left out stays as it is, null clears it. */
export const personChangesSchema = z.object({
  username: personSchema.shape.username,
  fullName: fields.fullName.optional(),
  email: fields.email.nullable().optional(),
  taxId: fields.taxId.nullable().optional(),
  studentId: fields.studentId.nullable().optional(),
  employeeId: fields.employeeId.nullable().optional(),
});
export type PersonChanges = z.input<typeof personChangesSchema>;

/**
 * What CSV and the CLI may say of the primary records beyond their ids: the unit's code and the status.
 * Undefined leaves it as it is; null clears the unit.
 */
export interface PrimaryRecordDetails {
  studentUnit?: string | null;
  studentStatus?: string;
  employeeUnit?: string | null;
  employeeStatus?: string;
}

async function unitIdFor(db: Db, code: string | null | undefined, field: string): Promise<string | null | undefined> {
  if (code === undefined || code === null) return code;
  const unit = await findUnitByCode(db, code);
  if (!unit) throw new PersonRuleError("unknown_unit", field, `${field}: unknown unit '${code}'`);
  return unit.id;
}

/**
 * Puts the ids and details named onto the person's primary student record and employee position
 * (people/records.ts), the model every writer shares; users.student_id/employee_id follow from it.
 */
async function applyPrimaryRecords(
  db: Db,
  userId: string,
  ids: { studentId?: string | null; employeeId?: string | null },
  details: PrimaryRecordDetails,
  source: string,
): Promise<void> {
  z.object({
    studentStatus: z.enum(studentStatuses).optional(),
    employeeStatus: z.enum(positionStatuses).optional(),
  }).parse(details);
  const studentUnit = await unitIdFor(db, details.studentUnit, "studentUnit");
  const employeeUnit = await unitIdFor(db, details.employeeUnit, "employeeUnit");
  const user = await findUserById(db, userId);
  const studentId = ids.studentId === undefined ? user?.student_id : ids.studentId;
  if (ids.studentId !== undefined || studentUnit !== undefined || details.studentStatus !== undefined) {
    if (studentId === undefined || (studentId === null && ids.studentId === undefined)) {
      throw new PersonRuleError("record_id_required", "studentId", "studentId: required to describe a student record");
    }
    await setPersonPrimaryStudentRecord(
      db,
      userId,
      { id: studentId, unitId: studentUnit, status: details.studentStatus },
      source,
    );
  }
  const employeeId = ids.employeeId === undefined ? user?.employee_id : ids.employeeId;
  if (ids.employeeId !== undefined || employeeUnit !== undefined || details.employeeStatus !== undefined) {
    if (employeeId === undefined || (employeeId === null && ids.employeeId === undefined)) {
      throw new PersonRuleError(
        "record_id_required",
        "employeeId",
        "employeeId: required to describe an employee position",
      );
    }
    await setPersonPrimaryPosition(
      db,
      userId,
      { id: employeeId, unitId: employeeUnit, status: details.employeeStatus },
      source,
    );
  }
}

type ClearableField = "email" | "taxId" | "studentId" | "employeeId";

/** The people table's columns for a person's fields; an undefined value is left out of an update (Kysely). */
function personColumns(person: { fullName?: string } & Partial<Record<ClearableField, string | null>>) {
  return {
    full_name: person.fullName,
    email: person.email,
    tax_id: person.taxId,
    student_id: person.studentId,
    employee_id: person.employeeId,
  };
}

/**
 * An anonymised person's username is never given again (docs/privacy.md): an application's account keyed by it
 * would pass to a stranger, and a source system re-sending the person would bring back someone erased.
 */
async function refuseRetiredUsername(db: Db, username: string): Promise<void> {
  if (await isRetiredUsername(db, username)) {
    throw new PersonRuleError("username_retired", "username", "username: belonged to a person whose data was erased");
  }
}

export async function createUser(
  db: Db,
  hasher: PasswordHasher,
  input: PersonInput,
  password?: string,
  details: PrimaryRecordDetails = {},
  source = "cli",
): Promise<User> {
  const person = personSchema.parse(input);
  await refuseRetiredUsername(db, person.username);
  const passwordHash = password === undefined ? null : await hasher.hash(passwordSchema.parse(password));
  const user = await insertUser(db, {
    username: person.username,
    password_hash: passwordHash,
    ...personColumns(person),
    full_name: person.fullName,
  });
  const ids = { studentId: person.studentId ?? undefined, employeeId: person.employeeId ?? undefined };
  if (ids.studentId === undefined && ids.employeeId === undefined && Object.keys(details).length === 0) return user;
  const studentDetails = details.studentUnit !== undefined || details.studentStatus !== undefined;
  const employeeDetails = details.employeeUnit !== undefined || details.employeeStatus !== undefined;
  if ((studentDetails && !ids.studentId) || (employeeDetails && !ids.employeeId)) {
    // Details without the record's id: the general path refuses them with record_id_required.
    await applyPrimaryRecords(db, user.id, ids, details, source);
    return (await findUserById(db, user.id)) ?? user;
  }
  // A new person has no records yet: insert them, as the general path would, without reading first.
  const student = ids.studentId
    ? {
        id: ids.studentId,
        unitId: await unitIdFor(db, details.studentUnit, "studentUnit"),
        status: details.studentStatus,
      }
    : undefined;
  const position = ids.employeeId
    ? {
        id: ids.employeeId,
        unitId: await unitIdFor(db, details.employeeUnit, "employeeUnit"),
        status: details.employeeStatus,
      }
    : undefined;
  await insertFirstRecords(db, user.id, { student, position }, source);
  return user;
}

export type UpsertOutcome = { outcome: "created" | "updated"; user: User };

/**
 * Creates the person (the full name is then required) or changes only the fields given, so a
 * re-import with blank cells leaves what it does not name; the password is set only when given.
 */
export async function upsertUser(
  db: Db,
  hasher: PasswordHasher,
  input: PersonChanges,
  password?: string,
  details: PrimaryRecordDetails = {},
  source = "cli",
  /** The person as the caller just read them (an import's batch), or null when known to be new. */
  known?: User | null,
): Promise<UpsertOutcome> {
  const changes = personChangesSchema.parse(input);
  const existing = known === undefined ? await findUserByUsername(db, changes.username) : (known ?? undefined);
  if (!existing) {
    if (changes.fullName === undefined) {
      throw new PersonRuleError("full_name_required", "fullName", "fullName: required for a new person");
    }
    const user = await createUser(db, hasher, { ...changes, fullName: changes.fullName }, password, details, source);
    return { outcome: "created", user };
  }
  if (existing.anonymised_at) {
    throw new PersonRuleError("username_retired", "username", "username: names a person whose data was erased");
  }
  const passwordHash = password === undefined ? undefined : await hasher.hash(passwordSchema.parse(password));
  // Only what differs is written: a re-import of an unchanged line writes nothing (nor moves updated_at).
  const columns = { ...personColumns(changes), ...(passwordHash ? { password_hash: passwordHash } : {}) };
  const changed = Object.fromEntries(
    Object.entries(columns).filter(
      ([column, value]) => value !== undefined && value !== existing[column as keyof typeof existing],
    ),
  );
  const user = Object.keys(changed).length > 0 ? await updateUser(db, existing.id, changed) : existing;
  const touchesRecords =
    changes.studentId !== undefined || changes.employeeId !== undefined || Object.keys(details).length > 0;
  if (!touchesRecords) return { outcome: "updated", user: user ?? existing };
  await applyPrimaryRecords(db, existing.id, changes, details, source);
  return { outcome: "updated", user: (await findUserById(db, existing.id)) ?? user ?? existing };
}

export async function setPassword(
  db: Db,
  hasher: PasswordHasher,
  username: string,
  password: string,
): Promise<User | undefined> {
  const user = await findUserByUsername(db, username);
  if (!user) return undefined;
  const passwordHash = await hasher.hash(passwordSchema.parse(password));
  return updateUser(db, user.id, { password_hash: passwordHash });
}

import { PASSWORD_MAX_LENGTH, text } from "@kpi-id/contracts";
import { z } from "zod";
import type { PasswordHasher } from "../crypto/password.ts";
import type { Db, User } from "../db/schema.ts";
import { findUserByUsername, insertUser, updateUser } from "./queries.ts";

const optionalField = (schema: z.ZodType<string, string>) =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === "" ? null : value.trim()))
    .pipe(schema.nullable());

/** RNOKPP: the Ukrainian taxpayer number, ten digits. */
export const taxIdSchema = text().regex(/^\d{10}$/, "must be 10 digits (RNOKPP)");

// NIST SP 800-63B: at least 8 characters, no composition rules, long passphrases welcome.
export const passwordSchema = text().min(8, "must be at least 8 characters").max(PASSWORD_MAX_LENGTH);

export const personSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .regex(/^[\p{L}\p{N}._@-]+$/u, "letters, digits, '.', '_', '-' and '@' only"),
  fullName: text().trim().min(1).max(200),
  email: optionalField(z.email()),
  taxId: optionalField(taxIdSchema),
  studentId: optionalField(text().max(64)),
  employeeId: optionalField(text().max(64)),
});
export type PersonInput = z.input<typeof personSchema>;
export type Person = z.output<typeof personSchema>;

function personColumns(person: Person) {
  return {
    full_name: person.fullName,
    email: person.email,
    tax_id: person.taxId,
    student_id: person.studentId,
    employee_id: person.employeeId,
  };
}

export async function createUser(db: Db, hasher: PasswordHasher, input: PersonInput, password?: string): Promise<User> {
  const person = personSchema.parse(input);
  const passwordHash = password === undefined ? null : await hasher.hash(passwordSchema.parse(password));
  return insertUser(db, { username: person.username, password_hash: passwordHash, ...personColumns(person) });
}

export type UpsertOutcome = { outcome: "created" | "updated"; user: User };

/** Creates the person or updates their fields; the password is set only when given. */
export async function upsertUser(
  db: Db,
  hasher: PasswordHasher,
  input: PersonInput,
  password?: string,
): Promise<UpsertOutcome> {
  const person = personSchema.parse(input);
  const existing = await findUserByUsername(db, person.username);
  if (!existing) return { outcome: "created", user: await createUser(db, hasher, input, password) };
  const passwordHash = password === undefined ? undefined : await hasher.hash(passwordSchema.parse(password));
  const user = await updateUser(db, existing.id, {
    ...personColumns(person),
    ...(passwordHash ? { password_hash: passwordHash } : {}),
  });
  return { outcome: "updated", user: user ?? existing };
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

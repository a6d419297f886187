import type { PersonChangesRequest, PersonDetail, PersonRecord } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { googleSubjectsOf } from "../../model/google/identities.ts";
import { rolesOf } from "../../model/users/operator-roles.ts";
import { findUserById } from "../../model/users/queries.ts";
import { upsertUser } from "../../model/users/service.ts";
import type { PasswordHasher } from "../../platform/crypto/password.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { verifiedAddressOf } from "../../platform/http/notify.ts";
import { credentialThrottleKeys } from "../../platform/throttle/throttle.ts";

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

export async function requirePerson(db: Db, id: string): Promise<User> {
  const user = await findUserById(db, id);
  if (!user) throw new AppError("admin.person_not_found");
  return user;
}

/** Everything the person screen shows, in one answer; never the tax id itself. */
export async function personDetail(app: FastifyInstance, user: User): Promise<PersonDetail> {
  const { db, config } = app;
  const now = app.clock();
  const [applications, sessions, signIns, throttle, googleSubjects, roles, secondFactor, records] = await Promise.all([
    db
      .selectFrom("user_applications")
      .innerJoin("applications", "applications.id", "user_applications.application_id")
      .select(["applications.id", "applications.name", "applications.title", "applications.title_en as titleEn"])
      .where("user_applications.user_id", "=", user.id)
      .orderBy("applications.title")
      .execute(),
    db
      .selectFrom("sessions")
      .select(["id", "auth_method", "created_at", "last_seen_at", "ip", "user_agent"])
      .where("user_id", "=", user.id)
      .where("idle_expires_at", ">", now)
      .where("absolute_expires_at", ">", now)
      .orderBy("last_seen_at", "desc")
      .execute(),
    db
      .selectFrom("audit_events")
      .select(["occurred_at", "event_type", "result", "auth_method", "reason", "ip"])
      .where("user_id", "=", user.id)
      .where("event_type", "in", historyEventTypes)
      .orderBy("occurred_at", "desc")
      .orderBy("id", "desc")
      .limit(historyLength)
      .execute(),
    accountThrottle(db, config.sessionSecret, user.username),
    googleSubjectsOf(db, user.id),
    rolesOf(db, user.id),
    secondFactorsOf(db, user.id),
    recordsOf(db, user.id),
  ]);
  return {
    id: user.id,
    username: user.username,
    fullName: user.full_name,
    email: user.email,
    studentId: user.student_id,
    employeeId: user.employee_id,
    status: user.status,
    hasTaxId: user.tax_id !== null,
    createdAt: user.created_at.toISOString(),
    roles,
    applications,
    sessions: sessions.map((row) => ({
      id: row.id,
      method: row.auth_method,
      startedAt: row.created_at.toISOString(),
      lastActiveAt: row.last_seen_at.toISOString(),
      address: row.ip ?? "",
      userAgent: row.user_agent ?? "",
    })),
    signIns: signIns.map((row) => ({
      occurredAt: row.occurred_at.toISOString(),
      type: row.event_type,
      result: row.result,
      method: row.auth_method,
      reason: row.reason,
      address: row.ip,
    })),
    throttle,
    googleSubjects,
    emailVerified: verifiedAddressOf(user) !== undefined,
    secondFactor,
    provisioning: {
      // An erased person's stub is hidden from SCIM (scim_deleted_at) but managed by no one.
      managed:
        user.anonymised_at === null &&
        (user.scim_external_id !== null ||
          user.scim_deleted_at !== null ||
          records.some((record) => record.source === "scim")),
      externalId: user.scim_external_id,
      removedAt: user.scim_deleted_at?.toISOString() ?? null,
    },
    records,
    erasedAt: user.anonymised_at?.toISOString() ?? null,
  };
}

/** The person's student records and employee positions with their units, primary first. */
async function recordsOf(db: Db, userId: string): Promise<PersonRecord[]> {
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
async function secondFactorsOf(db: Db, userId: string) {
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
async function accountThrottle(db: Db, secret: string, username: string) {
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

/** Profile changes through the same rules as `user create` and `user import`. */
export async function updateProfile(
  db: Db,
  hasher: PasswordHasher,
  user: User,
  changes: PersonChangesRequest,
): Promise<User> {
  try {
    const { user: updated } = await upsertUser(db, hasher, { username: user.username, ...changes });
    return updated;
  } catch (error) {
    if (error instanceof z.ZodError) {
      const details = error.issues.map((issue) => ({ path: `body.${issue.path.join(".")}`, message: issue.message }));
      throw new AppError("request.validation_failed", { details });
    }
    if ((error as { code?: string }).code === "23505") throw new AppError("admin.username_taken");
    throw error;
  }
}

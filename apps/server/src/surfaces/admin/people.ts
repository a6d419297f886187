import type { HeldUnitRoleView, PersonChangesRequest, PersonDetail } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { googleSubjectsOf } from "../../model/google/identities.ts";
import { personRecordsOf } from "../../model/people/person-records.ts";
import { openSessionRowsOf } from "../../model/sessions/live.ts";
import { rolesOf } from "../../model/users/operator-roles.ts";
import {
  accountThrottle,
  applicationsOfPerson,
  historyOfPerson,
  secondFactorsOf,
} from "../../model/users/person-reads.ts";
import { findUserById } from "../../model/users/queries.ts";
import { upsertUser } from "../../model/users/service.ts";
import { type HeldUnitRole, unitRolesOf } from "../../model/users/unit-roles.ts";
import type { PasswordHasher } from "../../platform/crypto/password.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";

export async function requirePerson(db: Db, id: string): Promise<User> {
  const user = await findUserById(db, id);
  if (!user) throw new AppError("admin.person_not_found");
  return user;
}

export function heldUnitRoleView(held: HeldUnitRole): HeldUnitRoleView {
  return {
    role: held.role,
    unit: { id: held.unitId, code: held.unitCode, nameUk: held.unitNameUk, nameEn: held.unitNameEn },
  };
}

/** Everything the person screen shows, in one answer; never the tax id itself. */
export async function personDetail(app: FastifyInstance, user: User): Promise<PersonDetail> {
  const { db, config } = app;
  const now = app.clock();
  const [applications, sessions, signIns, throttle, googleSubjects, roles, unitRoles, secondFactor, records] =
    await Promise.all([
      applicationsOfPerson(db, user.id),
      openSessionRowsOf(db, user.id, now),
      historyOfPerson(db, user.id),
      accountThrottle(db, config.sessionSecret, user.username),
      googleSubjectsOf(db, user.id),
      rolesOf(db, user.id),
      unitRolesOf(db, user.id),
      secondFactorsOf(db, user.id),
      personRecordsOf(db, user.id),
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
    unitRoles: unitRoles.map(heldUnitRoleView),
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

import { type DeveloperInvitation, developerInvitationDays, developerTesterLimit } from "@kpi-id/contracts";
import { sql } from "kysely";
import type { Db, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { lockApplication } from "../apps/for-developers.ts";
import { onlyActivePersonNamed } from "../users/queries.ts";
import { type ApplicationRole, peopleTables } from "./people.ts";

const dayMs = 24 * 60 * 60 * 1000;

type Invitee = Pick<User, "id" | "email" | "verified_email" | "language">;

/**
 * The one active person with exactly this username or e-mail address, or undefined: nobody, someone disabled,
 * or an address several people share. The owner never learns which (issue 56, point 4).
 */
async function personNamed(db: Db, named: string): Promise<Invitee | undefined> {
  return onlyActivePersonNamed(db, named);
}

async function isMember(db: Db, applicationId: string, role: ApplicationRole, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom(peopleTables[role])
    .select("user_id")
    .where("application_id", "=", applicationId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Testers and waiting tester invitations besides the one named: an invitation past 25 is refused. */
async function assertTesterRoom(db: Db, applicationId: string, named: string, now: Date) {
  const counted = await db
    .selectNoFrom((query) => [
      query
        .selectFrom("application_testers")
        .select(sql<string>`count(*)`.as("n"))
        .where("application_id", "=", applicationId)
        .as("testers"),
      query
        .selectFrom("application_invitations")
        .select(sql<string>`count(*)`.as("n"))
        .where("application_id", "=", applicationId)
        .where("role", "=", "tester")
        .where("expires_at", ">", now)
        .where(sql<string>`lower(named)`, "<>", named.toLowerCase())
        .as("invited"),
    ])
    .executeTakeFirstOrThrow();
  if (Number(counted.testers) + Number(counted.invited) >= developerTesterLimit) {
    throw new AppError("developer.tester_limit");
  }
}

export interface SentInvitation {
  id: string;
  /** Whom it reached; undefined when it reached nobody (the owner's answer is the same either way). */
  invitee?: Invitee;
  expiresAt: Date;
}

/**
 * Invites the person named (exact username or e-mail address) to be a co-owner or tester. The invitation row
 * is written whether or not anyone holds the name, so the owners' list and answer are the same; it names a
 * person only when exactly one active person holds it and is not a member in that role already. Inviting the
 * same name again renews it. The application row is locked, so two invitations at once cannot pass 25 testers.
 */
export async function invite(
  db: Db,
  applicationId: string,
  role: ApplicationRole,
  named: string,
  invitedBy: string,
  now: Date,
): Promise<SentInvitation> {
  const expiresAt = new Date(now.getTime() + developerInvitationDays * dayMs);
  return db.transaction().execute(async (tx) => {
    await lockApplication(tx, applicationId);
    await tx
      .deleteFrom("application_invitations")
      .where("application_id", "=", applicationId)
      .where("expires_at", "<=", now)
      .execute();
    if (role === "tester") await assertTesterRoom(tx, applicationId, named, now);
    const person = await personNamed(tx, named);
    const invitee = person && !(await isMember(tx, applicationId, role, person.id)) ? person : undefined;
    const values = { user_id: invitee?.id ?? null, invited_by: invitedBy, invited_at: now, expires_at: expiresAt };
    const row = await tx
      .insertInto("application_invitations")
      .values({ application_id: applicationId, role, named, ...values })
      .onConflict((conflict) =>
        conflict.expression(sql`application_id, role, lower(named)`).doUpdateSet({ ...values, named }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, invitee, expiresAt };
  });
}

/** The application's invitations that wait for an answer, oldest first, as its owners see them. */
export async function pendingInvitations(db: Db, applicationId: string, now: Date): Promise<DeveloperInvitation[]> {
  const rows = await db
    .selectFrom("application_invitations")
    .select(["id", "role", "named", "invited_at", "expires_at"])
    .where("application_id", "=", applicationId)
    .where("expires_at", ">", now)
    .orderBy("invited_at")
    .orderBy("named")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    role: row.role,
    named: row.named,
    invitedAt: row.invited_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  }));
}

/** An owner takes an invitation back; 404 developer.invitation_not_found for one not of this application. */
export async function withdrawInvitation(db: Db, applicationId: string, invitationId: string) {
  const row = await db
    .deleteFrom("application_invitations")
    .where("id", "=", invitationId)
    .where("application_id", "=", applicationId)
    .returning(["role", "user_id"])
    .executeTakeFirst();
  if (!row) throw new AppError("developer.invitation_not_found");
  return row;
}

/** The background clean-up: invitations past their expiry go (they were already shown to nobody). */
export async function deleteExpiredInvitations(db: Db, now: Date): Promise<number> {
  const deleted = await db.deleteFrom("application_invitations").where("expires_at", "<=", now).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

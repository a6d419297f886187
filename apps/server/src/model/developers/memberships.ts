import { type DeveloperMemberships, developerTesterLimit, type PersonalData } from "@kpi-id/contracts";
import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { applicationsIn, lockApplication } from "../apps/for-developers.ts";
import { applicationNamesByIds } from "../apps/queries.ts";
import { lockPerson, peopleNamesByIds } from "../users/queries.ts";
import { type ApplicationRole, peopleTables } from "./people.ts";
import { applicationSummary } from "./view.ts";

/** The person's waiting invitations (newest first) and the applications they test, for their developers' page. */
export async function membershipsOf(db: Db, userId: string, now: Date): Promise<DeveloperMemberships> {
  const waiting = await db
    .selectFrom("application_invitations")
    .select(["id", "role", "expires_at", "application_id", "invited_by"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", now)
    .orderBy("invited_at", "desc")
    .execute();
  const titles = await applicationNamesByIds(
    db,
    waiting.map((row) => row.application_id),
  );
  const inviters = await peopleNamesByIds(
    db,
    waiting.flatMap((row) => row.invited_by ?? []),
  );
  const invitations = waiting.flatMap((row) => {
    const application = titles.get(row.application_id);
    if (!application) return [];
    return [
      {
        id: row.id,
        role: row.role,
        title: application.title,
        titleEn: application.titleEn,
        invitedBy: (row.invited_by && inviters.get(row.invited_by)?.username) || "",
        expiresAt: row.expires_at.toISOString(),
      },
    ];
  });
  const tested = await db
    .selectFrom("application_testers")
    .select("application_id")
    .where("user_id", "=", userId)
    .orderBy("added_at", "desc")
    .execute();
  const applications = new Map(
    (
      await applicationsIn(
        db,
        tested.map((row) => row.application_id),
      )
    ).map((row) => [row.id, row]),
  );
  const testing = tested.flatMap((row) => applications.get(row.application_id) ?? []);
  return { invitations, testing: testing.map(applicationSummary) };
}

async function countRows(
  db: Db,
  table: (typeof peopleTables)[ApplicationRole],
  column: "user_id" | "application_id",
  value: string,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select(sql<string>`count(*)`.as("n"))
    .where(column, "=", value)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface Answered {
  applicationId: string;
  role: ApplicationRole;
}

/**
 * The person's own waiting invitation, locked unless told otherwise; 404 developer.invitation_not_found otherwise
 * (or expired).
 */
async function ownInvitation(db: Db, userId: string, invitationId: string, now: Date, lock = true) {
  const query = db
    .selectFrom("application_invitations")
    .select(["application_id", "role"])
    .where("id", "=", invitationId)
    .where("user_id", "=", userId)
    .where("expires_at", ">", now);
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw new AppError("developer.invitation_not_found");
  return row;
}

/**
 * Accepts an invitation. The limits are checked now, when the person agrees: an owner past
 * DEVELOPER_MAX_APPLICATIONS is refused (409 developer.limit_reached; the invitation waits, so they may leave
 * another application and accept), a tester past 25 likewise (developer.tester_limit). The person's and the
 * application's rows are locked for the counts, as registering does.
 */
export async function acceptInvitation(
  db: Db,
  userId: string,
  invitationId: string,
  maxApplications: number,
  now: Date,
): Promise<Answered> {
  return db.transaction().execute(async (tx) => {
    // Rows are locked in the order invite() takes them, the application before its invitation, or the two
    // deadlock: the invitation is read unlocked for its application, then locked and read again.
    const { application_id: applicationId } = await ownInvitation(tx, userId, invitationId, now, false);
    await lockPerson(tx, userId);
    await lockApplication(tx, applicationId);
    const invitation = await ownInvitation(tx, userId, invitationId, now);
    const table = peopleTables[invitation.role];
    if (invitation.role === "owner") {
      const owned = await countRows(tx, "application_owners", "user_id", userId);
      if (owned >= maxApplications) throw new AppError("developer.limit_reached");
    } else {
      const testers = await countRows(tx, "application_testers", "application_id", applicationId);
      if (testers >= developerTesterLimit) throw new AppError("developer.tester_limit");
    }
    await tx
      .insertInto(table)
      .values({ application_id: applicationId, user_id: userId, added_at: now })
      .onConflict((conflict) => conflict.columns(["application_id", "user_id"]).doNothing())
      .execute();
    await tx.deleteFrom("application_invitations").where("id", "=", invitationId).execute();
    return { applicationId, role: invitation.role };
  });
}

/**
 * Declines an invitation: the person no longer sees it and nothing changed. The row stays, reaching nobody, as an
 * invitation to a name nobody holds does: deleting it would drop it from the owners' list before its expiry and so
 * tell them a real, active person holds the name.
 */
export async function declineInvitation(db: Db, userId: string, invitationId: string, now: Date): Promise<Answered> {
  return db.transaction().execute(async (tx) => {
    const invitation = await ownInvitation(tx, userId, invitationId, now);
    await tx.updateTable("application_invitations").set({ user_id: null }).where("id", "=", invitationId).execute();
    return { applicationId: invitation.application_id, role: invitation.role };
  });
}

/** "Download my data": the applications the person owns or tests, and invitations waiting for their answer. */
export async function developerApplicationsOf(
  db: Db,
  userId: string,
  now: Date,
): Promise<PersonalData["developerApplications"]> {
  const member = (role: ApplicationRole) =>
    db
      .selectFrom(peopleTables[role])
      .select(["application_id", "added_at as at"])
      .where("user_id", "=", userId)
      .execute();
  const [ownedRows, testedRows, invitedRows] = await Promise.all([
    member("owner"),
    member("tester"),
    db
      .selectFrom("application_invitations")
      .select(["application_id", "role", "expires_at"])
      .where("user_id", "=", userId)
      .where("expires_at", ">", now)
      .execute(),
  ]);
  const names = await applicationNamesByIds(
    db,
    [...ownedRows, ...testedRows, ...invitedRows].map((row) => row.application_id),
  );
  // Each row with its application's title; one deleted meanwhile is left out, as the join left it out.
  const titled = <Row extends { application_id: string }>(rows: Row[]) =>
    rows.flatMap((row) => {
      const title = names.get(row.application_id)?.title;
      return title === undefined ? [] : [{ ...row, title }];
    });
  const [owned, tested, invited] = [titled(ownedRows), titled(testedRows), titled(invitedRows)];
  const asMember = (role: ApplicationRole) => (row: { title: string; at: Date }) => ({
    title: row.title,
    role,
    status: "member" as const,
    memberSince: row.at.toISOString(),
    invitationExpiresAt: null,
  });
  return [
    ...owned.map(asMember("owner")),
    ...tested.map(asMember("tester")),
    ...invited.map((row) => ({
      title: row.title,
      role: row.role,
      status: "invited" as const,
      memberSince: null,
      invitationExpiresAt: row.expires_at.toISOString(),
    })),
  ];
}

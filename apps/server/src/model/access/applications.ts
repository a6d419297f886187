import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import type { ApplicationId } from "../apps/gate.ts";
import { affiliationsWithAncestry } from "../people/fragments.ts";

/**
 * The operator's part of who may use an application (issue 39): its rules (affiliation, unit with or without
 * sub-units, record status: every condition a rule gives must hold for one of the person's records), individual
 * grants, and individual exclusions, which win over both. That answers for a live application; the application's
 * own gate (live, in testing, suspended: model/apps) and the people it names (model/developers) join these fragments
 * in model/admission, which every protocol asks. Nothing here is cached, so a rule change takes effect at once; the
 * apps list that GET /user keeps in memory (sessions/cache.ts) is dropped when a trigger announces the change.
 */

/**
 * The ids of the applications the rules and grants give the person, as one SQL subquery (application_id): the
 * person's few affiliation rows are joined with the rules once, so the apps list costs one statement however many
 * applications there are.
 */
export function ruledApplicationIds(userId: RawBuilder<unknown> | string): RawBuilder<string> {
  return sql<string>`(
      select granted.application_id from user_applications granted where granted.user_id = ${userId}
      union
      select rule.application_id
      from ${affiliationsWithAncestry()} person
      join access_rules rule on
        (rule.affiliation is null or rule.affiliation = person.affiliation)
        and (rule.status is null or rule.status = person.status)
        and (rule.unit_id is null or rule.unit_id = person.unit_id
          or (rule.include_subunits and rule.unit_id = any(person.ancestry)))
      where person.user_id = ${userId}
      except
      select excluded.application_id from access_exclusions excluded where excluded.user_id = ${userId}
    )`;
}

/** The operator's rules, grants and exclusions: whether they let the person use the application if it is live. */
export function ruledAccess(userId: string, applicationId: ApplicationId): RawBuilder<boolean> {
  return sql<boolean>`(
      not exists (select 1 from access_exclusions where user_id = ${userId} and application_id = ${applicationId})
      and (
        exists (select 1 from user_applications where user_id = ${userId} and application_id = ${applicationId})
        or exists (
          select 1
          from access_rules rule
          join ${affiliationsWithAncestry()} person on person.user_id = ${userId}
          where rule.application_id = ${applicationId}
            and (rule.affiliation is null or rule.affiliation = person.affiliation)
            and (rule.status is null or rule.status = person.status)
            and (rule.unit_id is null or rule.unit_id = person.unit_id
              or (rule.include_subunits and rule.unit_id = any(person.ancestry)))
        )
      ))`;
}

/** Whether the person (an id of the caller's statement) holds an individual grant to the application. */
export function grantedIndividually(userId: RawBuilder<unknown>, applicationId: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select granted.user_id from user_applications granted
    where granted.user_id = ${userId} and granted.application_id = ${applicationId})`;
}

/** The ids of the applications granted to the person by name, as an SQL subquery. */
export function grantedApplicationIds(userId: string): RawBuilder<string> {
  return sql<string>`(select granted.application_id from user_applications granted where granted.user_id = ${userId})`;
}

/** The applications granted to the person by name, as a JSON array of ids in order (an import's snapshot). */
export function grantsSnapshot(userId: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(select coalesce(json_agg(a.application_id order by a.application_id), '[]'::json)
     from user_applications a where a.user_id = ${userId})`;
}

/**
 * Gives the person access by name: an individual grant, lifting any exclusion. True when something
 * changed, so callers audit a real grant and not every repeated import of the same line.
 */
export async function grantAccess(db: Db, userId: string, applicationId: string): Promise<boolean> {
  const lifted = await db
    .deleteFrom("access_exclusions")
    .where("user_id", "=", userId)
    .where("application_id", "=", applicationId)
    .executeTakeFirst();
  const inserted = await db
    .insertInto("user_applications")
    .values({ user_id: userId, application_id: applicationId })
    .onConflict((conflict) => conflict.columns(["user_id", "application_id"]).doNothing())
    .executeTakeFirst();
  return Number(lifted.numDeletedRows) > 0 || Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** grantAccess for a person created in the same transaction: they have no grant and no exclusion yet. */
export async function grantAccessToNewPerson(db: Db, userId: string, applicationId: string): Promise<boolean> {
  const inserted = await db
    .insertInto("user_applications")
    .values({ user_id: userId, application_id: applicationId })
    .onConflict((conflict) => conflict.columns(["user_id", "application_id"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Takes back the person's individual grant to the application; true when there was one (revokeAccess's part). */
export async function removeIndividualGrant(db: Db, userId: string, applicationId: string): Promise<boolean> {
  const result = await db
    .deleteFrom("user_applications")
    .where("user_id", "=", userId)
    .where("application_id", "=", applicationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** An individual exclusion: the person loses the application whatever the rules and grants say. */
export async function excludeFromApplication(db: Db, userId: string, applicationId: string): Promise<void> {
  await db
    .insertInto("access_exclusions")
    .values({ user_id: userId, application_id: applicationId })
    .onConflict((conflict) => conflict.columns(["user_id", "application_id"]).doNothing())
    .execute();
}

/** Every application the person was given and every exclusion naming them (erasure); how many rows went. */
export async function removeAllAccessOf(db: Db, userId: string): Promise<number> {
  const given = await db.deleteFrom("user_applications").where("user_id", "=", userId).executeTakeFirst();
  const excluded = await db.deleteFrom("access_exclusions").where("user_id", "=", userId).executeTakeFirst();
  return Number(given.numDeletedRows) + Number(excluded.numDeletedRows);
}

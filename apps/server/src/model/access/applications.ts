import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { affiliationsWithAncestry } from "../people/fragments.ts";
import { forgetConsents } from "./consents.ts";

/**
 * Who may use which application, decided here for every protocol (ticket, OpenID Connect, SAML):
 * at sign-in, at app redirect, at token use, and in the apps list. Access is the application's rules
 * (affiliation, unit with or without sub-units, record status: every condition a rule gives must hold for
 * one of the person's records), or an individual grant; an individual exclusion wins over both. That is for a live
 * application; one in testing, in review or rejected (developers' page, issue 39) lets in only its owners and
 * named testers, and a suspended one nobody.
 * Nothing here is cached, so a rule change takes effect at once; the apps list that GET /user keeps in memory
 * (sessions/cache.ts) is dropped when a trigger announces the change.
 */

/**
 * The ids of the applications a person may use, as one SQL fragment: the person's few affiliation rows are
 * joined with the rules once, so the apps list costs one statement however many applications there are.
 */
export function accessibleApplicationIds(userId: RawBuilder<unknown> | string): RawBuilder<string> {
  return sql<string>`(
    select ruled.application_id
    from (
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
    ) ruled
    join applications live on live.id = ruled.application_id and live.lifecycle = 'live' and live.suspended_at is null
    union
    select named.application_id
    from (
      select owner.application_id from application_owners owner where owner.user_id = ${userId}
      union
      select tester.application_id from application_testers tester where tester.user_id = ${userId}
    ) named
    join applications testing on testing.id = named.application_id
      and testing.lifecycle <> 'live' and testing.suspended_at is null
  )`;
}

/** An application's id: a value, or an SQL expression of the statement the access check is part of. */
type ApplicationId = RawBuilder<unknown> | string;

/** Whether the person is one of the application's owners or named testers, as one SQL expression. */
function namedTester(userId: string, applicationId: ApplicationId): RawBuilder<boolean> {
  return sql<boolean>`(
    exists (select 1 from application_owners where user_id = ${userId} and application_id = ${applicationId})
    or exists (select 1 from application_testers where user_id = ${userId} and application_id = ${applicationId}))`;
}

/** Whether the person may use the application now, as one SQL expression (its parameters bound in it). */
export function applicationAccess(userId: string, applicationId: ApplicationId): RawBuilder<boolean> {
  return sql<boolean>`coalesce((
    select case
      when gate.suspended_at is not null then false
      when gate.lifecycle <> 'live' then ${namedTester(userId, applicationId)}
      else ${ruledAccess(userId, applicationId)}
    end
    from applications gate where gate.id = ${applicationId}), false)`;
}

/** The operator's rules, grants and exclusions: who may use a live application. */
function ruledAccess(userId: string, applicationId: ApplicationId): RawBuilder<boolean> {
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

/** Whether the person may use the application now. */
export async function hasApplicationAccess(db: Db, userId: string, applicationId: string): Promise<boolean> {
  const result = await sql<{ allowed: boolean }>`select ${applicationAccess(userId, applicationId)} as allowed`.execute(
    db,
  );
  return result.rows[0]?.allowed === true;
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

export type RevokeOutcome = "revoked" | "excluded" | "none";

/**
 * Ends the person's access to the application, and with it the application's OpenID Connect tokens for
 * them and what they allowed it over SAML and tickets: the individual grant goes, and when a rule would still let them in, an exclusion is recorded.
 */
export async function revokeAccess(db: Db, userId: string, applicationId: string): Promise<RevokeOutcome> {
  return db.transaction().execute(async (tx) => {
    const result = await tx
      .deleteFrom("user_applications")
      .where("user_id", "=", userId)
      .where("application_id", "=", applicationId)
      .executeTakeFirst();
    let outcome: RevokeOutcome = Number(result.numDeletedRows) > 0 ? "revoked" : "none";
    if (await hasApplicationAccess(tx, userId, applicationId)) {
      await excludeFromApplication(tx, userId, applicationId);
      outcome = "excluded";
    }
    await forgetConsents(tx, { userId, applicationId });
    return outcome;
  });
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

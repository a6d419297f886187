import { type RawBuilder, sql } from "kysely";
import { z } from "zod";
import { recordAuditEvent } from "../../platform/audit/record.ts";
import { type AccessRule, affiliations, recordStatuses } from "../../platform/db/people-schema.ts";
import type { Db } from "../../platform/db/schema.ts";
import { affiliationsWithAncestry } from "../people/fragments.ts";
import { unitNames } from "../people/units.ts";
import { excludeFromApplication } from "./applications.ts";
import { forgetConsents } from "./consents.ts";

/**
 * Editing an application's access rules: what the CLI calls today and the operators' console will call.
 * Every change is audited and takes effect at once (access is decided from the rules at each check).
 */

export const accessRuleSchema = z
  .object({
    affiliation: z.enum(affiliations).nullish(),
    unitId: z.uuid().nullish(),
    includeSubunits: z.boolean().default(true),
    status: z.enum(recordStatuses as [string, ...string[]]).nullish(),
  })
  .refine((rule) => rule.affiliation || rule.unitId || rule.status, {
    message: "a rule needs an affiliation, a unit or a status",
  });
/** A rule as an operator writes it; checked against accessRuleSchema. */
export interface AccessRuleInput {
  affiliation?: string | null;
  unitId?: string | null;
  includeSubunits?: boolean;
  status?: string | null;
}

/** Who made the change, for the audit row: an operator's name at the CLI, a console user's id. */
export interface RuleChangeActor {
  actor: string;
  userId?: string | null;
  /** The console's operator, with where the request came from. */
  actorId?: string;
  ip?: string;
  userAgent?: string;
}

function actorFields(by: RuleChangeActor) {
  return { reason: by.actor, actorId: by.actorId, ip: by.ip, userAgent: by.userAgent };
}

export interface DescribedRule {
  id: string;
  affiliation: string | null;
  unitId: string | null;
  unitCode: string | null;
  /** The unit's names in both languages: a screen shows the one in its own (the English one may be empty). */
  unitName: string | null;
  unitNameEn: string | null;
  includeSubunits: boolean;
  status: string | null;
}

export async function listAccessRules(db: Db, applicationId: string): Promise<DescribedRule[]> {
  const rows = await db
    .selectFrom("access_rules")
    .leftJoin(unitNames(db).as("unit"), "unit.id", "access_rules.unit_id")
    .select([
      "access_rules.id",
      "access_rules.affiliation",
      "access_rules.unit_id",
      "unit.code",
      "unit.name_uk",
      "unit.name_en",
      "access_rules.include_subunits",
      "access_rules.status",
    ])
    .where("access_rules.application_id", "=", applicationId)
    .orderBy("access_rules.created_at")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    affiliation: row.affiliation,
    unitId: row.unit_id,
    unitCode: row.code,
    unitName: row.name_uk,
    unitNameEn: row.name_en,
    includeSubunits: row.include_subunits,
    status: row.status,
  }));
}

export class DuplicateRuleError extends Error {}

export async function addAccessRule(
  db: Db,
  applicationId: string,
  input: AccessRuleInput,
  by: RuleChangeActor,
): Promise<AccessRule> {
  const rule = accessRuleSchema.parse(input);
  const row = await db
    .insertInto("access_rules")
    .values({
      application_id: applicationId,
      affiliation: rule.affiliation ?? null,
      unit_id: rule.unitId ?? null,
      include_subunits: rule.includeSubunits,
      status: (rule.status ?? null) as AccessRule["status"],
    })
    .onConflict((conflict) => conflict.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new DuplicateRuleError("the application has this rule already");
  await audit(db, "access_rule_added", applicationId, by, row);
  return row;
}

/**
 * An application approved without a rule gets the default one (every active employee and every studying student:
 * `status` of a current record), so it works for the campus at once; one that has rules keeps them.
 */
export async function addDefaultRulesIfNone(db: Db, applicationId: string): Promise<void> {
  const rules = await db.selectFrom("access_rules").select("id").where("application_id", "=", applicationId).execute();
  if (rules.length > 0) return;
  await db
    .insertInto("access_rules")
    .values([
      { application_id: applicationId, status: "active" },
      { application_id: applicationId, status: "studying" },
    ])
    .execute();
}

/** Removes one rule by id; false when the application has no such rule. */
export async function removeAccessRule(
  db: Db,
  applicationId: string,
  ruleId: string,
  by: RuleChangeActor,
): Promise<boolean> {
  if (!z.uuid().safeParse(ruleId).success) return false;
  const row = await db
    .deleteFrom("access_rules")
    .where("id", "=", ruleId)
    .where("application_id", "=", applicationId)
    .returningAll()
    .executeTakeFirst();
  if (!row) return false;
  await audit(db, "access_rule_removed", applicationId, by, row);
  return true;
}

/** The ids of the people the application's rules let in (a select of `user_id`; grants and exclusions aside). */
export function peopleGivenByRules(applicationId: string): RawBuilder<{ user_id: string }> {
  return sql<{ user_id: string }>`select person.user_id
      from access_rules rule
      join ${affiliationsWithAncestry()} person on
        (rule.affiliation is null or rule.affiliation = person.affiliation)
        and (rule.status is null or rule.status = person.status)
      where rule.application_id = ${applicationId}
        and (rule.unit_id is null or rule.unit_id = person.unit_id
          or (rule.include_subunits and rule.unit_id = any(person.ancestry)))`;
}

/** Whether a rule names the unit: a unit's removal (model/people/units.ts, removeUnit) refuses one that is. */
export function rulesNameUnit(unitId: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from access_rules where unit_id = ${unitId})`;
}

/**
 * The ids of the people the application's rules, grants and exclusions let in now, as an SQL subquery of
 * `user_id` (model/users counts the active ones among them: countPeopleWithAccess).
 */
export function peopleAllowed(applicationId: string): RawBuilder<{ user_id: string }> {
  return sql<{ user_id: string }>`(
      select user_id from user_applications where application_id = ${applicationId}
      union
      ${peopleGivenByRules(applicationId)}
      except
      select user_id from access_exclusions where application_id = ${applicationId}
    )`;
}

/** An individual exclusion, audited: the person loses the application whatever rules and grants say. */
export async function excludePerson(db: Db, userId: string, applicationId: string, by: RuleChangeActor) {
  await excludeFromApplication(db, userId, applicationId);
  await forgetConsents(db, { userId, applicationId }, ["oidc"]);
  await recordAuditEvent(db, {
    type: "access_revoked",
    result: "success",
    userId,
    applicationId,
    ...actorFields(by),
    details: { exclusion: true },
  });
}

/** Lifts an individual exclusion, audited: the rules and grants decide again. False when there was none. */
export async function liftExclusion(db: Db, userId: string, applicationId: string, by: RuleChangeActor) {
  const lifted = await db
    .deleteFrom("access_exclusions")
    .where("user_id", "=", userId)
    .where("application_id", "=", applicationId)
    .executeTakeFirst();
  if (Number(lifted.numDeletedRows) === 0) return false;
  await recordAuditEvent(db, {
    type: "access_granted",
    result: "success",
    userId,
    applicationId,
    ...actorFields(by),
    details: { exclusionLifted: true },
  });
  return true;
}

/** The ids of the people excluded from the application by name, as an SQL subquery (model/users lists them). */
export function excludedPeople(applicationId: string): RawBuilder<string> {
  return sql<string>`(select excluded.user_id from access_exclusions excluded where excluded.application_id = ${applicationId})`;
}

async function audit(
  db: Db,
  type: "access_rule_added" | "access_rule_removed",
  applicationId: string,
  by: RuleChangeActor,
  rule: AccessRule,
) {
  await recordAuditEvent(db, {
    type,
    result: "success",
    userId: by.userId ?? null,
    applicationId,
    ...actorFields(by),
    details: {
      ruleId: rule.id,
      affiliation: rule.affiliation,
      unitId: rule.unit_id,
      includeSubunits: rule.include_subunits,
      status: rule.status,
    },
  });
}

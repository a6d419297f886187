import { sql } from "kysely";
import type { Unit } from "../../platform/db/people-schema.ts";
import type { Db } from "../../platform/db/schema.ts";
import { touchUnit, type UnitInput, upsertUnit } from "../people/units.ts";
import { scimVisibleUsernames } from "../users/scim-candidates.ts";

/**
 * Pushed groups (migration 0530): a group Entra ID or Okta created over SCIM without KPI ID's unit extension
 * keeps the members the client pushes (PATCH members add/remove, PUT with members). Every other unit's members
 * follow from the people's records (protocols/scim/group-model.ts) and stay read-only.
 */

export interface MemberRow {
  unit_id: string;
  user_id: string;
  username: string;
}

/** Which of these units are pushed groups. */
export async function pushedUnitIds(db: Db, unitIds: string[]): Promise<Set<string>> {
  if (unitIds.length === 0) return new Set();
  const rows = await db.selectFrom("scim_pushed_groups").select("unit_id").where("unit_id", "in", unitIds).execute();
  return new Set(rows.map((row) => row.unit_id));
}

/** The pushed members of these groups, people deleted over SCIM left out, by username. */
export async function pushedMembers(db: Db, unitIds: string[]): Promise<MemberRow[]> {
  if (unitIds.length === 0) return [];
  const rows = await db
    .selectFrom("scim_group_members")
    .select(["unit_id", "user_id"])
    .where("unit_id", "in", unitIds)
    .execute();
  return withUsernames(db, rows);
}

/** Members with their usernames, ordered by them as the database orders them; people deleted over SCIM are left out. */
export async function withUsernames(
  db: Db,
  rows: readonly { unit_id: string; user_id: string }[],
): Promise<MemberRow[]> {
  const names = await scimVisibleUsernames(
    db,
    rows.map((row) => row.user_id),
  );
  const rank = new Map([...names.keys()].map((id, index) => [id, index]));
  return rows
    .flatMap((row) => {
      const username = names.get(row.user_id);
      return username === undefined ? [] : [{ ...row, username, rank: rank.get(row.user_id) ?? 0 }];
    })
    .sort((a, b) => a.rank - b.rank)
    .map(({ rank: _rank, ...row }) => row);
}

export async function markPushed(db: Db, unitId: string, pushedBy: string): Promise<void> {
  await db
    .insertInto("scim_pushed_groups")
    .values({ unit_id: unitId, pushed_by: pushedBy })
    .onConflict((conflict) => conflict.column("unit_id").doNothing())
    .execute();
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Makes the group's members exactly these Users (by id). A value that is no User SCIM shows is answered as
 * `missing` (the protocol refuses it, naming it) and nothing changes; else how many were added and removed.
 */
export async function replacePushedMembers(
  db: Db,
  unitId: string,
  values: string[],
): Promise<{ missing: string } | { added: number; removed: number }> {
  const wanted = [...new Set(values.map((value) => value.trim().toLowerCase()))];
  const unknown = wanted.find((value) => !uuidPattern.test(value));
  if (unknown !== undefined) return { missing: unknown };
  const found = await scimVisibleUsernames(db, wanted);
  const known = new Set([...found.keys()].map((id) => id.toLowerCase()));
  const missing = wanted.find((value) => !known.has(value));
  if (missing) return { missing };
  const current = await db.selectFrom("scim_group_members").select("user_id").where("unit_id", "=", unitId).execute();
  const had = new Set(current.map((row) => row.user_id.toLowerCase()));
  const toRemove = [...had].filter((id) => !known.has(id));
  const toAdd = [...known].filter((id) => !had.has(id));
  if (toRemove.length > 0)
    await db
      .deleteFrom("scim_group_members")
      .where("unit_id", "=", unitId)
      .where(sql<string>`lower(user_id::text)`, "in", toRemove)
      .execute();
  if (toAdd.length > 0)
    await db
      .insertInto("scim_group_members")
      .values(toAdd.map((userId) => ({ unit_id: unitId, user_id: userId })))
      .execute();
  return { added: toAdd.length, removed: toRemove.length };
}

/** A group as a SCIM client writes it: its unit, and, for a pushed group, who pushed it and its members. */
export interface PushedGroupWrite {
  unit: UnitInput;
  /** A group of people a client pushed (its members are the client's), not one of the university's units. */
  pushed: boolean;
  /** The SCIM token's name, recorded on a pushed group. */
  pushedBy: string;
  /** The members' user ids, when they change (a pushed group only). */
  members?: readonly string[];
}

class MissingMember extends Error {
  readonly id: string;
  constructor(id: string) {
    super(`no User '${id}'`);
    this.id = id;
  }
}

/**
 * Writes the group in one transaction: a group whose members are refused (a User that is not there) is not half
 * made, and answers `{ missing }` then. A unit's own refusal (UnitError) is thrown. The unit's version (ETag)
 * follows its row: a change of members touches it.
 */
export async function writePushedGroup(
  db: Db,
  group: PushedGroupWrite,
): Promise<{ unit: Unit; created: boolean; changed?: { added: number; removed: number } } | { missing: string }> {
  try {
    return await db.transaction().execute(async (tx) => {
      const written = await upsertUnit(tx, group.unit);
      if (!group.pushed) return written;
      await markPushed(tx, written.unit.id, group.pushedBy);
      if (group.members === undefined) return written;
      const counts = await replacePushedMembers(tx, written.unit.id, [...group.members]);
      if ("missing" in counts) throw new MissingMember(counts.missing);
      const unit = await touchUnit(tx, written.unit.id, new Date());
      return { unit, created: written.created, changed: counts };
    });
  } catch (error) {
    if (error instanceof MissingMember) return { missing: error.id };
    throw error;
  }
}

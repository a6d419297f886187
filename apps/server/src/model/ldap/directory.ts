import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { accessibleApplicationIds } from "../admission/applications.ts";
import { currentUnitCodesOf, unitsWithMembers } from "../people/fragments.ts";
import { byAffiliationOrder } from "../people/records.ts";
import { activePeople, activePeopleWithAffiliations, activeUsernamesWhere } from "../users/for-lists.ts";

// What the directory should hold, read from KPI ID in a few set-wide statements (protocols/ldap/sync.ts compares
// it with slapd). Only people who may sign in are in it: disabled, departed and erased people are left out.

export interface DirectoryPerson {
  id: string;
  username: string;
  fullName: string;
  email: string | null;
  affiliations: string[];
  /** uidNumber, and gidNumber of the person's own group: given once, never reused (ldap_posix_numbers). */
  number: number;
}

export interface DirectoryGroup {
  /** The group's cn: a unit's code, or `access-<client>` for the people a client's application lets in. */
  name: string;
  kind: "unit" | "access";
  description: string;
  number: number;
  /** The members' usernames. */
  members: string[];
}

// Records that still tie a person to a unit (a graduate or a former employee is no longer a member).
const currentStatuses = ["studying", "academic_leave", "active", "on_leave"];

/** Gives a POSIX number to each subject that has none yet; a number once given stays with its subject. */
async function giveNumbers(db: Db, kind: "person" | "unit" | "client", ids: string[]): Promise<Map<string, number>> {
  if (ids.length > 0) {
    await db
      .insertInto("ldap_posix_numbers")
      .values(ids.map((id) => ({ subject_kind: kind, subject_id: id })))
      .onConflict((conflict) => conflict.columns(["subject_kind", "subject_id"]).doNothing())
      .execute();
  }
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom("ldap_posix_numbers")
          .select(["subject_id", "number"])
          .where("subject_kind", "=", kind)
          .where("subject_id", "in", ids)
          .execute();
  return new Map(rows.map((row) => [row.subject_id, Number(row.number)]));
}

/** Everyone who may sign in (or those of `ids` who may), with their affiliations and POSIX number. */
export async function directoryPeople(db: Db, ids?: string[]): Promise<DirectoryPerson[]> {
  if (ids?.length === 0) return [];
  const rows = await activePeopleWithAffiliations(db, ids);
  const numbers = await giveNumbers(
    db,
    "person",
    rows.map((row) => row.id),
  );
  return rows.flatMap((row) => {
    const number = numbers.get(row.id);
    if (number === undefined) return [];
    return [
      {
        id: row.id,
        username: row.username,
        fullName: row.full_name,
        email: row.email,
        affiliations: byAffiliationOrder(row.affiliations),
        number,
      },
    ];
  });
}

const accessGroupName = (clientName: string) => `access-${clientName}`;

/**
 * The units with their current members, and for each client tied to an application the people it lets in; with
 * `names`, only the groups of those names (one person's change touches a few).
 */
export async function directoryGroups(db: Db, names?: string[]): Promise<DirectoryGroup[]> {
  if (names?.length === 0) return [];
  const units = await unitsWithMembers(db, currentStatuses, activePeople(), names);
  const clients = await db
    .selectFrom("ldap_clients")
    .select(["id", "name", "title", "application_id"])
    .where("application_id", "is not", null)
    // An array, not `in (…)`: the list may be empty (no access group touched).
    .$if(names !== undefined, (query) => query.where(sql<boolean>`'access-' || name = any(${names ?? []}::text[])`))
    .orderBy("name")
    .execute();
  const unitNumbers = await giveNumbers(
    db,
    "unit",
    units.map((unit) => unit.id),
  );
  const clientNumbers = await giveNumbers(
    db,
    "client",
    clients.map((client) => client.id),
  );
  const groups: DirectoryGroup[] = units.map((unit) => ({
    name: unit.code,
    kind: "unit",
    description: unit.name_en || unit.name_uk,
    number: unitNumbers.get(unit.id) ?? 0,
    members: unit.members,
  }));
  for (const client of clients) {
    const applicationId = client.application_id ?? "";
    // The one access decision (model/access), for every person at once.
    const members = await activeUsernamesWhere(
      db,
      (userId) => sql<boolean>`${applicationId}::uuid in ${accessibleApplicationIds(userId)}`,
    );
    groups.push({
      name: accessGroupName(client.name),
      kind: "access",
      description: `People ${client.title} lets in`,
      number: clientNumbers.get(client.id) ?? 0,
      members,
    });
  }
  return groups;
}

/**
 * The groups `ids` should be in now: their current units, and the access groups of the clients whose application
 * lets them in. The groups they were in are read from the directory (person-sync.ts): together, those a change
 * to these people can touch.
 */
export async function groupNamesOf(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const unitCodes = await currentUnitCodesOf(db, ids, currentStatuses);
  // Each of the people as an id of this statement (no table of theirs named): the one access decision per person.
  const clients = await db
    .selectFrom("ldap_clients")
    .select("name")
    .where("application_id", "is not", null)
    .where(
      sql<boolean>`exists (select 1 from unnest(${ids}::uuid[]) as changed_person(id)
        where ldap_clients.application_id in ${accessibleApplicationIds(sql.ref("changed_person.id"))})`,
    )
    .execute();
  return [...unitCodes, ...clients.map((client) => accessGroupName(client.name))];
}

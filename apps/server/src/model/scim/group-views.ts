import type { Db } from "../../platform/db/schema.ts";
import { currentMembersOfUnits, unitCodes } from "../people/records-of-people.ts";
import { pushedMembers, pushedUnitIds, withUsernames } from "./group-members.ts";

/**
 * What SCIM's view of these units (groups) needs, in the statements it always took: which are pushed groups,
 * the members that follow from people's current records (by username, people deleted over SCIM left out), every unit's code (for parents) and the pushed
 * groups' own members.
 */
export async function groupMemberRows(db: Db, ids: string[]) {
  const pushed = await pushedUnitIds(db, ids);
  const [current, all, pushedRows] = await Promise.all([
    currentMembersOfUnits(db, ids),
    unitCodes(db),
    pushedMembers(db, [...pushed]),
  ]);
  return { pushed, members: await withUsernames(db, current), all, pushedRows };
}

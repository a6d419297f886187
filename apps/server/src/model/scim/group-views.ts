import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { type MemberRow, pushedMembers, pushedUnitIds } from "./group-members.ts";

/**
 * What SCIM's view of these units (groups) needs, in the statements it always took: which are pushed groups,
 * the members that follow from people's current records, every unit's code (for parents) and the pushed
 * groups' own members.
 */
export async function groupMemberRows(db: Db, ids: string[]) {
  const pushed = await pushedUnitIds(db, ids);
  const [members, all, pushedRows] = await Promise.all([
    sql<MemberRow>`select distinct r.unit_id, u.id as user_id, u.username
        from (select unit_id, user_id from student_records where status in ('studying', 'academic_leave')
              union all select unit_id, user_id from employee_positions where status in ('active', 'on_leave')) r
        join users u on u.id = r.user_id
        where r.unit_id = any(${ids}::uuid[]) and u.scim_deleted_at is null
        order by u.username`.execute(db),
    db.selectFrom("units").select(["id", "code"]).execute(),
    pushedMembers(db, [...pushed]),
  ]);
  return { pushed, members: members.rows, all, pushedRows };
}

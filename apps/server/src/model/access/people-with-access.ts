import { type RawBuilder, sql } from "kysely";
import { peopleGivenByRules } from "./rules.ts";

/**
 * Who the application lets in and how, as an SQL subquery of `user_id`, `granted`, `ruled`: individual grants,
 * what the rules give, less exclusions. model/users pages through the people (peopleWithAccess), as access sits
 * below the people's accounts.
 */
export function accessOfPeople(
  applicationId: string,
): RawBuilder<{ user_id: string; granted: boolean; ruled: boolean }> {
  return sql<{ user_id: string; granted: boolean; ruled: boolean }>`(with allowed as (
      select user_id, true as granted, false as ruled from user_applications where application_id = ${applicationId}
      union all
      select distinct ruled.user_id, false, true from (${peopleGivenByRules(applicationId)}) ruled
    )
    select user_id, bool_or(granted) as granted, bool_or(ruled) as ruled from allowed
    where user_id not in (select user_id from access_exclusions where application_id = ${applicationId})
    group by user_id)`;
}

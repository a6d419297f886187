import { type RawBuilder, sql } from "kysely";
import type { ApplicationId } from "../apps/gate.ts";

// The people an application names (its owners and testers): the only ones it lets in while it is not live (issue
// 39). Offered as SQL fragments so model/admission keeps the access check one statement.

/** Whether the person is one of the application's owners or named testers, as one SQL expression. */
export function namedOnApplication(userId: string, applicationId: ApplicationId): RawBuilder<boolean> {
  return sql<boolean>`(
    exists (select 1 from application_owners where user_id = ${userId} and application_id = ${applicationId})
    or exists (select 1 from application_testers where user_id = ${userId} and application_id = ${applicationId}))`;
}

/** The ids of the applications naming the person as an owner or a tester, as an SQL subquery (application_id). */
export function applicationsNaming(userId: RawBuilder<unknown> | string): RawBuilder<string> {
  return sql<string>`(
      select owner.application_id from application_owners owner where owner.user_id = ${userId}
      union
      select tester.application_id from application_testers tester where tester.user_id = ${userId}
    )`;
}

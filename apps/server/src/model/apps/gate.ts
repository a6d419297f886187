import { type RawBuilder, sql } from "kysely";

// The application's own part of who may use it (issue 39): a suspended application lets nobody in, a live one
// those access's rules let in, one in testing, in review or rejected only those the developers' page names. Offered
// as SQL fragments with the other parts lent by the caller (model/admission), so the whole decision stays one
// statement while this area names only its table.

/** An application's id: a value, or an SQL expression of the statement the check is part of. */
export type ApplicationId = RawBuilder<unknown> | string;

/**
 * Whether the application lets the person in, as one SQL expression: false when it is suspended or there is none,
 * else `live` (the rules' answer) for a live application and `testing` (its named people's) for any other.
 */
export function gateAnswer(
  applicationId: ApplicationId,
  answers: { live: RawBuilder<boolean>; testing: RawBuilder<boolean> },
): RawBuilder<boolean> {
  return sql<boolean>`coalesce((
    select case
      when gate.suspended_at is not null then false
      when gate.lifecycle <> 'live' then ${answers.testing}
      else ${answers.live}
    end
    from applications gate where gate.id = ${applicationId}), false)`;
}

/**
 * Of the application ids two subqueries answer (each naming its column application_id), the live ones among `live`
 * and those in testing, in review or rejected among `testing`, none suspended: as one SQL subquery of ids.
 */
export function openApplicationIds(among: {
  live: RawBuilder<string>;
  testing: RawBuilder<string>;
}): RawBuilder<string> {
  return sql<string>`(
    select ruled.application_id
    from ${among.live} ruled
    join applications live on live.id = ruled.application_id and live.lifecycle = 'live' and live.suspended_at is null
    union
    select named.application_id
    from ${among.testing} named
    join applications testing on testing.id = named.application_id
      and testing.lifecycle <> 'live' and testing.suspended_at is null
  )`;
}

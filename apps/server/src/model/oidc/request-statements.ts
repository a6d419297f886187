// The two statements of an OpenID Connect request's memory (protocols/oidc/request-memory.ts): a row read with the
// grant and session it names, and the request's deferred writes sent as one statement before its answer leaves.
import { type RawBuilder, sql } from "kysely";
import { auditRowsInsert } from "../../platform/audit/in-statement.ts";
import type { AuditRow } from "../../platform/audit/record.ts";
import { oidcPayloadsAnnouncedByWriter } from "../../platform/cache/feed.ts";
import { synchronousCommitOff } from "../../platform/db/commit.ts";
import type { Db } from "../../platform/db/schema.ts";
import type { PayloadRowInput } from "./payloads.ts";

/** One oidc_payloads row as the adapter writes it (the payload as JSON text, the id as stored). */
export interface StoredPayloadRow extends PayloadRowInput {
  consumed_at: Date | null;
}

interface PayloadKey {
  type: string;
  id: string;
}

/** A request's writes, the last of each row's: removals, uses, upserts (with whether newly issued), audit rows. */
export interface DeferredWrites {
  destroyed: readonly PayloadKey[];
  consumed: readonly (PayloadKey & { at: Date })[];
  upserts: readonly { row: StoredPayloadRow; issued: boolean }[];
  audits: readonly AuditRow[];
}

/**
 * The deferred writes as one statement (data-modifying CTEs; the audit rows' insert lent by platform/audit). It
 * commits without waiting for the disk only when it holds nothing but newly issued codes and tokens (adapter.ts,
 * issuedTokenModels); a use or a removal makes it durable. Its writer (the request's memory) tells this process'
 * token cache what changed, entry by entry, so the statement ends with the mark that holds no cache back.
 */
export async function writeDeferred(db: Db, { destroyed, consumed, upserts, audits }: DeferredWrites): Promise<void> {
  const pairs = (list: readonly PayloadKey[]) => sql.join(list.map(({ type, id }) => sql`(${type}, ${id})`));
  const ctes = [];
  if (audits.length) ctes.push(sql`audited as (${auditRowsInsert(db, audits)})`);
  if (destroyed.length)
    ctes.push(sql`destroyed as (delete from oidc_payloads where (type, id) in (${pairs(destroyed)}))`);
  if (consumed.length) {
    const at = consumed[0]?.at;
    ctes.push(
      sql`consumed as (update oidc_payloads set consumed_at = coalesce(consumed_at, ${at}::timestamptz) where (type, id) in (${pairs(consumed)}))`,
    );
  }
  const quick = destroyed.length === 0 && consumed.length === 0 && upserts.every((write) => write.issued);
  const main = upserts.length
    ? sql`insert into oidc_payloads (type, id, payload, grant_id, user_code, uid, expires_at, consumed_at)
        values ${sql.join(upserts.map(({ row }) => sql`(${row.type}, ${row.id}, ${row.payload}::jsonb, ${row.grant_id}::text, ${row.user_code}::text, ${row.uid}::text, ${row.expires_at}::timestamptz, ${row.consumed_at}::timestamptz)`))}
        on conflict (type, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
          user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at,
          consumed_at = coalesce(oidc_payloads.consumed_at, excluded.consumed_at)
        ${quick ? sql`returning ${synchronousCommitOff}` : sql``}`
    : sql`select 1`;
  const statement = ctes.length ? sql`with ${sql.join(ctes)} ${main}` : main;
  await sql`${statement} ${sql.raw(oidcPayloadsAnnouncedByWriter)}`.execute(db);
}

/** A row `selectPayloadWithRelated` answers: the one asked for (`found`) or one it names. */
export type RelatedPayloadRow = Omit<StoredPayloadRow, "payload"> & {
  payload: Record<string, unknown>;
  found: boolean;
  /** For an interaction read with a person: whether they may use its application. */
  allowed: boolean | null;
};

/** The application an interaction is for, as a uuid (null when its client_id is none: then no access). */
const interactionClient = sql`(case when found.payload#>>'{params,client_id}'
  ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
  then (found.payload#>>'{params,client_id}')::uuid end)`;

/** Whether the request's person may use an application (its id an expression of this statement), as SQL. */
export type AccessOfPerson = (applicationId: RawBuilder<unknown>) => RawBuilder<boolean>;

/**
 * A row by type and id, with the grant and the provider session it names, in one statement (read in the same
 * snapshot). With `accessOf` (an interaction read once the request's KPI ID session is known: model/admission lends
 * its person's check) the row brings whether that person may use its application.
 */
export async function selectPayloadWithRelated(
  db: Db,
  type: string,
  id: string,
  accessOf: AccessOfPerson | undefined,
): Promise<RelatedPayloadRow[]> {
  const allowed = accessOf ? accessOf(interactionClient) : sql`null::boolean`;
  const { rows } = await sql<RelatedPayloadRow>`
    with found as (select * from oidc_payloads where type = ${type} and id = ${id})
    select true as found, found.*, ${allowed} as allowed from found
    union all
    select false, grant_row.*, null from found join oidc_payloads grant_row on grant_row.type = 'Grant'
      and grant_row.id in (found.payload->>'grantId', found.payload#>>'{result,consent,grantId}')
    union all
    select false, session_row.*, null from found join oidc_payloads session_row on session_row.type = 'Session'
      and session_row.uid in (found.payload->>'sessionUid', found.payload#>>'{session,uid}')`.execute(db);
  return rows;
}

import type { AuthMethod } from "@kpi-id/contracts";
import type { Kysely, QueryCreator } from "kysely";
import { hashToken, newToken } from "../../platform/crypto/tokens.ts";
import { commitWithoutWaitingForDisk } from "../../platform/db/commit.ts";
import type { Database, User } from "../../platform/db/schema.ts";

export interface GrantedLogin {
  userId: string;
  authMethod: AuthMethod;
  /** RFC 8176 values proven; empty for the method's own strength. */
  amr?: readonly string[];
  /** The person still owes a second factor (/api/auth/second-factor) before the exchange. */
  secondFactorDue?: boolean;
}

export interface ConsumedLogin extends GrantedLogin {
  /** The person, read in the same statement that consumed the grant. */
  person: User;
}

/**
 * A one-time login grant: what a credential check (password, Diia) hands to the
 * browser as `sessionId`, to be exchanged once for a session cookie. `db` may carry a CTE
 * (the sign-in's audit row, audit/record.ts `auditedStatement`) to write with it.
 */
export async function issueLoginGrant(
  db: QueryCreator<Database>,
  login: GrantedLogin,
  ttlSeconds: number,
  now: Date = new Date(),
): Promise<string> {
  const grant = newToken();
  await db
    .insertInto("login_grants")
    .values({
      grant_hash: hashToken(grant),
      user_id: login.userId,
      auth_method: login.authMethod,
      amr: [...(login.amr ?? [])],
      second_factor_due: login.secondFactorDue ?? false,
      created_at: now,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000),
    })
    .execute();
  return grant;
}

/**
 * Consumes a grant atomically: of two concurrent attempts only one wins. The grant's person comes
 * back with it, from the same statement (grants are deleted with their person).
 * Unknown, used and expired grants, and those still owing a second factor, all give undefined.
 * `waitForDisk: false` only for a browser's exchange (auth/routes.ts; db/commit.ts says why).
 */
export async function consumeLoginGrant(
  db: Kysely<Database>,
  grant: string,
  now: Date,
  { waitForDisk }: { waitForDisk: boolean },
): Promise<ConsumedLogin | undefined> {
  const row = await db
    .with("consumed", (query) =>
      query
        .updateTable("login_grants")
        .set({ consumed_at: now })
        .where("grant_hash", "=", hashToken(grant))
        .where("consumed_at", "is", null)
        .where("expires_at", ">", now)
        .where("second_factor_due", "=", false)
        // A use a crash forgets lets only the browser holding the grant exchange it again (commitWithoutWaitingForDisk).
        .$if(!waitForDisk, (update) => update.returning(commitWithoutWaitingForDisk))
        .returning(["user_id", "auth_method", "amr"]),
    )
    .selectFrom("consumed")
    .innerJoin("users", "users.id", "consumed.user_id")
    .selectAll("users")
    .select(["consumed.auth_method as grant_auth_method", "consumed.amr as grant_amr"])
    .executeTakeFirst();
  if (!row) return undefined;
  const { grant_auth_method, grant_amr, ...person } = row;
  return { userId: person.id, authMethod: grant_auth_method, amr: grant_amr, person };
}

/** The person a live grant still waiting for its second factor belongs to, and what its first factor proved. */
export async function grantOwingSecondFactor(db: Kysely<Database>, grant: string, now: Date) {
  return db
    .selectFrom("login_grants")
    .select(["user_id", "amr"])
    .where("grant_hash", "=", hashToken(grant))
    .where("consumed_at", "is", null)
    .where("expires_at", ">", now)
    .where("second_factor_due", "=", true)
    .executeTakeFirst();
}

/** The second factor proven: the grant may now be exchanged, with the strength it reached. */
export async function settleSecondFactor(db: Kysely<Database>, grant: string, amr: readonly string[]) {
  await db
    .updateTable("login_grants")
    .set({ second_factor_due: false, amr: [...amr] })
    .where("grant_hash", "=", hashToken(grant))
    .where("second_factor_due", "=", true)
    .execute();
}

/** The person's login grants not yet exchanged (erasure); answers how many there were. */
export async function deleteLoginGrantsOf(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db.deleteFrom("login_grants").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

import { type AuthMethod, authMethods, claimsByScope } from "@kpi-id/contracts";
import type { Kysely } from "kysely";
import type { Account, ClaimsParameterMember, FindAccount } from "oidc-provider";
import { personWithAccess } from "../../model/admission/with-access.ts";
import { isUuid } from "../../model/apps/queries.ts";
import { splitFullName } from "../../model/people/names.ts";
import { type PersonRoles, personRoles, rolesClaims, rolesFromColumns } from "../../model/people/profile.ts";
import { signInAmr } from "../../model/sessions/strength.ts";
import { findUserById } from "../../model/users/queries.ts";
import { machineryOn } from "../../platform/bench-switches.ts";
import { readFresh, readThrough, storeRead } from "../../platform/cache/feed-cache.ts";
import type { Database, User } from "../../platform/db/schema.ts";
import type { AccountCache, AccountRow } from "./account-cache.ts";
import { rememberAccess, requestAccess } from "./request-access.ts";
import { currentOidcMemory } from "./request-memory.ts";
import { aloneInFlight } from "./requests-in-flight.ts";

/**
 * Which claims each scope releases: the table in contracts, which the developers' page lists too. A scope that
 * releases none (offline_access) stays out, as the provider's `scopes` name it already.
 */
export const scopeClaims: Record<string, string[] | null> = {
  // The library's defaults for claims about the authentication itself; sid serves back-channel logout.
  acr: null,
  auth_time: null,
  iss: null,
  sid: null,
  ...Object.fromEntries(
    Object.entries(claimsByScope)
      .filter(([, claims]) => claims.length > 0)
      .map(([scope, claims]) => [scope, [...claims]]),
  ),
};

/** The first `amr` value of each method's sign-in (RFC 8176 where one fits); the audit reads the method back from it. */
export const amrByAuthMethod = Object.fromEntries(
  authMethods.map((method) => [method, signInAmr(method)[0]]),
) as Record<AuthMethod, string>;

/** True only while the person's address is the one KPI ID saw proven (migration 0020). */
export function emailVerified(user: User): boolean {
  return Boolean(user.email && user.verified_email?.toLowerCase() === user.email.toLowerCase());
}

/** `roles` with the affiliation scope they are released under (`kpi` scope only). */
export function userClaims(
  user: User,
  roles?: { roles: PersonRoles; affiliationScope: string },
): Record<string, unknown> {
  const claims: Record<string, unknown> = {
    sub: user.id,
    name: user.full_name,
    ...splitFullName(user.full_name),
  };
  if (user.email) {
    claims.email = user.email;
    claims.email_verified = emailVerified(user);
  }
  if (user.student_id) claims.kpi_student_id = user.student_id;
  if (user.employee_id) claims.kpi_employee_id = user.employee_id;
  if (user.tax_id) claims.kpi_tax_id = user.tax_id;
  if (roles) Object.assign(claims, rolesClaims(roles.roles, roles.affiliationScope));
  return claims;
}

const includesKpiScope = (scope: string | undefined) => scope?.split(" ").includes("kpi") ?? false;

/**
 * The person and, with a token, whether they may use its application now and (under the `kpi` scope, whose
 * claims need them) their campus roles, all in one statement; undefined when there is no such person.
 */
async function findAccountRow(
  db: Kysely<Database>,
  userId: string,
  token: { clientId?: string; scope?: string } | undefined,
): Promise<AccountRow | undefined> {
  if (!token?.clientId) {
    const user = await findUserById(db, userId);
    return user && { user, allowed: true };
  }
  const withRoles = includesKpiScope(token.scope);
  const row = await personWithAccess(db, userId, token.clientId, withRoles);
  if (!row) return undefined;
  const { allowed, affiliations, records, ...user } = row;
  return {
    user,
    allowed: Boolean(allowed),
    roles: withRoles ? rolesFromColumns({ affiliations, records }) : undefined,
  };
}

const accountKey = (userId: string, token: { clientId: string; scope?: string }) =>
  `${userId} ${token.clientId} ${includesKpiScope(token.scope) ? "roles" : ""}`;

/** With a token, the row from the instance's memory when it is there (the provider asks at every use of one). */
function cachedAccountRow(
  db: Kysely<Database>,
  cache: AccountCache | undefined,
  userId: string,
  token: { clientId?: string; scope?: string } | undefined,
): Promise<AccountRow | undefined> {
  if (!cache || !token?.clientId) return findAccountRow(db, userId, token);
  const { clientId, scope } = token;
  return readThrough(cache, accountKey(userId, { clientId, scope }), () => findAccountRow(db, userId, token));
}

/**
 * At the authorization endpoint (no token yet): the person and whether they may use the requesting application.
 * The person of the request's KPI ID session is the one the provider's session follows (kpi-session.ts), read by
 * this request already, and a resumed interaction's read brought their access (request-memory.ts); otherwise both
 * are read from the table in one statement. The access prompt and the grant take the answer from the request
 * (request-access.ts); the row is kept in the instance's memory for the code's use at the token endpoint that
 * follows (the same key as the token's, whose scope is the one asked for here) unless something changed since
 * the request began.
 */
async function authorizationAccountRow(
  db: Kysely<Database>,
  cache: AccountCache | undefined,
  userId: string,
  token: { clientId: string; scope: string },
): Promise<AccountRow | undefined> {
  const { clientId } = token;
  const memory = currentOidcMemory();
  const person = memory?.person;
  if (person?.id === userId && !includesKpiScope(token.scope)) {
    const row: AccountRow = { user: { ...person }, allowed: await requestAccess(db, userId, clientId) };
    if (cache && memory?.accountsMark !== undefined)
      storeRead(cache, accountKey(userId, token), row, memory.accountsMark);
    return row;
  }
  const read = () => findAccountRow(db, userId, token);
  const row = cache ? readFresh(cache, accountKey(userId, token), read) : read();
  rememberAccess(
    userId,
    clientId,
    row.then((found) => found?.allowed === true),
  );
  return row;
}

/**
 * `sub` is the person's uuid: stable for life, never reused, the same for every application.
 * The provider asks for the account at every use of a code, refresh token or access token
 * (`token`): a disabled person, or one whose access to the token's application has ended,
 * is then "not found", so the token endpoint answers invalid_grant and userinfo invalid_token.
 */
export function createFindAccount(db: Kysely<Database>, affiliationScope: string, cache?: AccountCache): FindAccount {
  return async (ctx, sub, token): Promise<Account | undefined> => {
    if (!isUuid(sub)) return undefined;
    const clientId = token ? undefined : ctx?.oidc?.client?.clientId;
    const account =
      clientId && isUuid(clientId)
        ? await authorizationAccountRow(db, cache, sub, { clientId, scope: String(ctx.oidc.params?.scope ?? "") })
        : await cachedAccountRow(db, cache, sub, token);
    // Without a token the person's access is the access prompt's question (access.ts), not a reason to forget them.
    if (account?.user.status !== "active" || (token && !account.allowed)) return undefined;
    const { user } = account;
    // The provider filters these by the granted scopes and claims. With a token, the roles were read with the
    // person when its scope holds kpi (the scopes claims are made for are never wider than the token's); without
    // one (the authorization endpoint), they are read here when the claims ask for them.
    const roles = async (): Promise<PersonRoles> => account.roles ?? (await personRoles(db, user.id));
    return {
      accountId: user.id,
      claims: async (use: string, scope: string, _claims: { [key: string]: null | ClaimsParameterMember }) => {
        // The token endpoint asks for the ID token's claims once it has saved every code and token it issues
        // (oidc-provider's grants: the use, the access and refresh tokens, then the ID token): their one write
        // commits while the ID token is signed, when nothing else would fill the wait (requests-in-flight.ts).
        if (use === "id_token" && machineryOn("early-write") && aloneInFlight()) currentOidcMemory()?.startFlush(db);
        return userClaims(user, includesKpiScope(scope) ? { roles: await roles(), affiliationScope } : undefined) as {
          sub: string;
        };
      },
    };
  };
}

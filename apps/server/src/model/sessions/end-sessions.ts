import { recordAuditEvent } from "../../platform/audit/record.ts";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import {
  type EndingSessions,
  endsEveryGrant,
  type PendingSignOut,
  type SignOutParticipants,
  type SignOutReason,
} from "./sign-out.ts";

/**
 * Whose sessions end: every one of the person's, all but the asking browser's (`except`), or one (`only`); the
 * browser's own (`token`, its cookie); or the ones a SAML LogoutRequest names (`sessionIds`).
 */
export type Whose =
  | { userId: string; except?: string; only?: string }
  | { token: string }
  | { sessionIds: readonly string[] };

/** Who asked, for the audit row: an operator's id, the address and browser of the request. */
export interface Why {
  reason: SignOutReason;
  actorId?: string;
  /** The unit a unit admin or unit helpdesk acted in (issue 79). */
  unitId?: string;
  ip?: string;
  userAgent?: string;
}

export interface SessionEnding {
  db: Db;
  now: Date;
  /** The protocols taking part (sign-out.ts, `app.signOut`); the CLI names only those it can run without the app. */
  signOut?: Pick<SignOutParticipants, "withinTransaction">;
}

/** The ended sessions' owners, one entry per session (a browser sign-out audits each). */
export interface EndedSessions extends PendingSignOut {
  users: string[];
}

/** The browser that signs itself out: its cookies, and where it goes last when it can be sent on (sign-out.ts). */
export interface Browser {
  returnTo?: string;
  cookie: NonNullable<EndingSessions["cookie"]>;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The sessions that end, locked until the transaction ends so that a second path at once finds them gone. */
async function lockSessions(tx: Db, who: Whose) {
  let query = tx.selectFrom("sessions").select(["id", "user_id", "created_at", "strong_at"]).forUpdate();
  if ("token" in who) query = query.where("token_hash", "=", hashToken(who.token));
  else if ("sessionIds" in who) {
    if (who.sessionIds.length === 0) return [];
    query = query.where("id", "in", who.sessionIds);
  } else {
    query = query.where("user_id", "=", who.userId);
    if (who.except) query = query.where("id", "!=", who.except);
    if (who.only) query = query.where("id", "=", who.only);
  }
  return query.execute();
}

type LockedSession = Awaited<ReturnType<typeof lockSessions>>[number];

/** The locked sessions by person; a person named (`userId`) is there even with none, for the grants that end. */
function byPerson(who: Whose, rows: LockedSession[]): Map<string, LockedSession[]> {
  const people = new Map<string, LockedSession[]>();
  if ("userId" in who) people.set(who.userId, []);
  for (const row of rows) people.set(row.user_id, [...(people.get(row.user_id) ?? []), row]);
  return people;
}

const loginTimesOf = (rows: LockedSession[]) => [
  ...new Set(rows.flatMap((row) => [row.created_at, ...(row.strong_at ? [row.strong_at] : [])]).map(seconds)),
];

/**
 * The statements of ending sessions, for a caller that holds a transaction: every participant's part (what each
 * protocol removes with them) while the sessions are still there, then the sessions, the login grants `why`
 * calls for and one `session_end` audit row per person (a browser's own sign-out is audited by its entry point).
 * Answers what is left to tell after the commit; call its tellApplications once committed.
 */
export async function endSessionsWithin(
  tx: Db,
  ending: Omit<SessionEnding, "db">,
  who: Whose,
  why: Why,
  browser?: Browser,
): Promise<EndedSessions> {
  const rows = await lockSessions(tx, who);
  const pending: Omit<PendingSignOut, "count">[] = [];
  for (const [userId, sessions] of byPerson(who, rows)) {
    const sessionIds = sessions.map((row) => row.id);
    const each: EndingSessions = {
      userId,
      sessionIds,
      loginTimes: loginTimesOf(sessions),
      reason: why.reason,
      browser: browser?.returnTo === undefined ? undefined : { returnTo: browser.returnTo },
      cookie: browser?.cookie,
    };
    if (ending.signOut) pending.push(await ending.signOut.withinTransaction(tx, each));
    if (sessionIds.length > 0) await tx.deleteFrom("sessions").where("id", "in", sessionIds).execute();
    if (endsEveryGrant[why.reason]) await tx.deleteFrom("login_grants").where("user_id", "=", userId).execute();
    // A session named that was not there (or not the person's) ended nothing: the caller answers 404, unrecorded.
    const namedButMissing = "userId" in who && who.only !== undefined && sessionIds.length === 0;
    if (why.reason !== "signed_out" && !namedButMissing)
      await recordAuditEvent(tx, {
        type: "session_end",
        result: "success",
        userId,
        reason: why.reason,
        actorId: why.actorId,
        unitId: why.unitId,
        ip: why.ip,
        userAgent: why.userAgent,
        occurredAt: ending.now,
      });
  }
  return {
    count: rows.length,
    users: rows.map((row) => row.user_id),
    browserPath: pending.find((each) => each.browserPath)?.browserPath,
    tellApplications: async () => {
      await Promise.all(pending.map((each) => each.tellApplications()));
    },
  };
}

/** Runs in its own transaction unless the caller's database handle already is one. */
const inTransaction = <T>(db: Db, work: (tx: Db) => Promise<T>) =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

/**
 * Ends sessions, the one way for every caller: a browser signing out through any protocol (`token`, `sessionIds`;
 * `browser` when the browser itself is signing out), and a person's sessions
 * ended by the account page, the console, a password change or reset, a second factor reset, disabling, erasure.
 * endSessionsWithin's statements in one transaction, then the applications are told (sign-out.ts): the answer
 * that says "signed out" comes after they were, or gave up.
 */
export async function signOutSessions(
  ending: SessionEnding,
  who: Whose,
  why: Why,
  browser?: Browser,
): Promise<EndedSessions> {
  const ended = await inTransaction(ending.db, (tx) => endSessionsWithin(tx, ending, who, why, browser));
  await ended.tellApplications();
  return ended;
}

/** All of a person's sessions (or all but one, or one): signOutSessions for a person. Answers how many ended. */
export async function endSessions(
  ending: SessionEnding,
  who: Extract<Whose, { userId: string }>,
  why: Why,
): Promise<number> {
  return (await signOutSessions(ending, who, why)).count;
}

// The work that crosses areas on the operator's schedule (issue 76: its transactions are the model's): the clean-up
// of expired rows of every area (surfaces/maintenance runs it every ten minutes) and, in reseal.ts, the resealing
// of what SESSION_SECRET's keys seal. Each area deletes its own rows, as its person-data record says (issue 74).

import { deleteAuditPastRetention, deleteSignInHistoryPastRetention } from "../../platform/audit/retention.ts";
import { inTransactionUnderLock } from "../../platform/db/advisory-lock.ts";
import type { PersonDataArea } from "../../platform/db/person-data.ts";
import type { Db } from "../../platform/db/schema.ts";
import { personDataAreas } from "../privacy/areas.ts";
import { anonymiseLeavers } from "../privacy/leavers.ts";
import { type PruneCounts, pruneExpired } from "../sessions/prune.ts";
import { deleteOldImportJobs } from "../users/import-jobs.ts";
import { deleteWifiUsesPastRetention } from "../wifi/uses.ts";

export interface CleanupCounts extends PruneCounts {
  tickets: number;
  diiaRequests: number;
  oidcPayloads: number;
  resetTokens: number;
  auditEvents: number;
  signInHistory: number;
  /** Wi-Fi uses (access point, hashed device) past the sign-in history's retention. */
  wifiUses: number;
  /** Wi-Fi sessions without accounting for model/wifi/sessions.ts's wifiSessionIdleHours. */
  wifiSessions: number;
  importJobs: number;
  /** Ticket sign-in links that waited on the consent screen past their time. */
  ticketConsentRequests: number;
  /** Invitations to applications of the developers' page past their 14 days. */
  expiredInvitations: number;
  /** People who left long ago, anonymised this run (each also has its own `person_erased` audit row). */
  anonymisedPeople: number;
}

/** The counts the model areas' and the protocols' records answer (the rest the clean-up counts itself). */
const recordsCounts = [
  "tickets",
  "ticketConsentRequests",
  "diiaRequests",
  "oidcPayloads",
  "resetTokens",
  "wifiSessions",
  "expiredInvitations",
] as const;
type RecordsCount = (typeof recordsCounts)[number];

/** Anything with expired rows of its own to delete: a model area's record, or a protocol's (protocols/record.ts). */
export type CleanUpPart = Pick<PersonDataArea, "cleanUp">;

export interface CleanupOptions {
  /** AUDIT_RETENTION_DAYS: audit rows older than this go; 0 (the default here) keeps them. */
  auditRetentionDays?: number;
  /** SIGN_IN_HISTORY_RETENTION_DAYS; 0 (the default here) leaves sign-in rows to auditRetentionDays. */
  signInHistoryRetentionDays?: number;
  /** ANONYMISE_LEFT_AFTER_DAYS; 0 (the default here) anonymises no one. */
  anonymiseLeftAfterDays?: number;
  /** Parts above the model with rows of their own to clean (the protocols' records, passed by the surface). */
  parts?: readonly CleanUpPart[];
}

// One number all instances agree on ("KPID"); the federation refresh takes "KPIF" (model/saml/federations.ts).
const cleanupLockKey = 0x4b504944;

// An import's report names the people of its lines: kept a month for the operator's questions.
const importJobKeepMs = 30 * 24 * 60 * 60 * 1000;

/** The counts the records answer, each named in CleanupCounts (a record that stops answering one reads 0 here). */
function ownCounts(own: Record<string, number>): Pick<CleanupCounts, RecordsCount> {
  return Object.fromEntries(recordsCounts.map((name) => [name, own[name] ?? 0])) as Pick<CleanupCounts, RecordsCount>;
}

/**
 * Deletes expired rows if no other instance is doing it right now. The transaction-scoped
 * advisory lock is released by commit or rollback, and by PostgreSQL itself if this
 * instance dies mid-way, so a crashed instance never blocks the others' clean-up.
 * Answers undefined when another instance holds the lock.
 */
export async function cleanUpExpired(
  db: Db,
  now: Date,
  {
    auditRetentionDays = 0,
    signInHistoryRetentionDays = 0,
    anonymiseLeftAfterDays = 0,
    parts = [],
  }: CleanupOptions = {},
): Promise<CleanupCounts | undefined> {
  return inTransactionUnderLock(db, cleanupLockKey, async (trx) => {
    const { throttleCounters, ...pruned } = await pruneExpired(trx, now);
    // Each model area's and each protocol's own expired rows, as their records say (person-data.ts, record.ts).
    const own: Record<string, number> = {};
    for (const part of [...personDataAreas, ...parts]) Object.assign(own, await part.cleanUp?.(trx, now));
    const auditEvents = await deleteAuditPastRetention(trx, now, auditRetentionDays);
    const signInHistory = await deleteSignInHistoryPastRetention(trx, now, signInHistoryRetentionDays);
    const wifiUses = await deleteWifiUsesPastRetention(trx, now, {
      signInHistoryDays: signInHistoryRetentionDays,
      auditDays: auditRetentionDays,
    });
    const importJobs = await deleteOldImportJobs(trx, new Date(now.getTime() - importJobKeepMs));
    const leavers = await anonymiseLeavers(trx, now, anonymiseLeftAfterDays);
    return {
      ...pruned,
      ...ownCounts(own),
      throttleCounters,
      auditEvents,
      signInHistory,
      wifiUses,
      importJobs,
      anonymisedPeople: leavers.people,
    };
  });
}

import type { FastifyInstance } from "fastify";
import { deleteExpiredInvitations } from "../../model/developers/invitations.ts";
import { deleteOldDiiaRequests } from "../../model/diia/requests.ts";
import { anonymiseLeavers } from "../../model/privacy/leavers.ts";
import { deleteExpiredResetTokens } from "../../model/recovery/tokens.ts";
import { type PruneCounts, pruneExpired } from "../../model/sessions/prune.ts";
import { deleteExpiredTickets } from "../../model/tickets/cleanup.ts";
import { pruneConsentRequests } from "../../model/tickets/consent-requests.ts";
import { deleteOldImportJobs } from "../../model/users/import-jobs.ts";
import { deleteIdleWifiSessions } from "../../model/wifi/sessions.ts";
import { deleteWifiUsesPastRetention } from "../../model/wifi/uses.ts";
import { deleteAuditPastRetention, deleteSignInHistoryPastRetention } from "../../platform/audit/retention.ts";
import { inTransactionUnderLock } from "../../platform/db/advisory-lock.ts";
import type { Db } from "../../platform/db/schema.ts";
import { deleteExpiredOidcPayloads } from "../../protocols/oidc/adapter.ts";
import { guestJobOf, runGuestJob } from "./guests.ts";

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

export interface CleanupOptions {
  /** AUDIT_RETENTION_DAYS: audit rows older than this go; 0 (the default here) keeps them. */
  auditRetentionDays?: number;
  /** SIGN_IN_HISTORY_RETENTION_DAYS; 0 (the default here) leaves sign-in rows to auditRetentionDays. */
  signInHistoryRetentionDays?: number;
  /** ANONYMISE_LEFT_AFTER_DAYS; 0 (the default here) anonymises no one. */
  anonymiseLeftAfterDays?: number;
}

// One number all instances agree on ("KPID"); the federation refresh takes "KPIF" (saml/federation.ts).
const cleanupLockKey = 0x4b504944;

// A finished or expired Diia request is kept a day for support questions, then goes.
const diiaKeepMs = 24 * 60 * 60 * 1000;
// An import's report names the people of its lines: kept a month for the operator's questions.
const importJobKeepMs = 30 * 24 * 60 * 60 * 1000;

/**
 * Deletes expired rows if no other instance is doing it right now. The transaction-scoped
 * advisory lock is released by commit or rollback, and by PostgreSQL itself if this
 * instance dies mid-way, so a crashed instance never blocks the others' clean-up.
 * Answers undefined when another instance holds the lock.
 */
export async function cleanUpExpired(
  db: Db,
  now: Date,
  { auditRetentionDays = 0, signInHistoryRetentionDays = 0, anonymiseLeftAfterDays = 0 }: CleanupOptions = {},
): Promise<CleanupCounts | undefined> {
  return inTransactionUnderLock(db, cleanupLockKey, async (trx) => {
    const { throttleCounters, ...pruned } = await pruneExpired(trx, now);
    const tickets = await deleteExpiredTickets(trx, now);
    const diiaRequests = await deleteOldDiiaRequests(trx, new Date(now.getTime() - diiaKeepMs));
    const oidcPayloads = await deleteExpiredOidcPayloads(trx, now);
    const resetTokens = await deleteExpiredResetTokens(trx, now);
    const auditEvents = await deleteAuditPastRetention(trx, now, auditRetentionDays);
    const signInHistory = await deleteSignInHistoryPastRetention(trx, now, signInHistoryRetentionDays);
    const wifiUses = await deleteWifiUsesPastRetention(trx, now, {
      signInHistoryDays: signInHistoryRetentionDays,
      auditDays: auditRetentionDays,
    });
    const wifiSessions = await deleteIdleWifiSessions(trx, now);
    const importJobs = await deleteOldImportJobs(trx, new Date(now.getTime() - importJobKeepMs));
    const expiredInvitations = await deleteExpiredInvitations(trx, now);
    const leavers = await anonymiseLeavers(trx, now, anonymiseLeftAfterDays);
    const ticketConsentRequests = await pruneConsentRequests(trx, now);
    return {
      ...pruned,
      tickets,
      throttleCounters,
      diiaRequests,
      oidcPayloads,
      resetTokens,
      auditEvents,
      signInHistory,
      wifiUses,
      wifiSessions,
      importJobs,
      ticketConsentRequests,
      expiredInvitations,
      anonymisedPeople: leavers.people,
    };
  });
}

const cleanupIntervalMs = 10 * 60 * 1000;

/** Every ten minutes while the app runs, one instance at a time; failures are logged, never thrown. */
export function scheduleCleanup(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  const runOnce = async () => {
    try {
      const { auditRetentionDays, signInHistoryRetentionDays, anonymiseLeftAfterDays } = app.config;
      const counts = await cleanUpExpired(app.db, app.clock(), {
        auditRetentionDays,
        signInHistoryRetentionDays,
        anonymiseLeftAfterDays,
      });
      if (counts) app.log.info({ removed: counts }, "expired rows cleaned up");
      else app.log.debug("clean-up skipped: another instance holds the lock");
      // Guests' reminders, ends and erasure claim their rows one by one: every instance may run them.
      const guests = await runGuestJob(guestJobOf(app));
      if (Object.values(guests).some((count) => count > 0)) app.log.info({ guests }, "guests' job ran");
    } catch (error) {
      app.log.warn({ err: error }, "clean-up failed; the next run tries again");
    }
  };
  app.addHook("onReady", async () => {
    timer = setInterval(runOnce, cleanupIntervalMs);
    // Clean-up never keeps the process alive on its own.
    timer.unref();
  });
  app.addHook("onClose", async () => clearInterval(timer));
}

import type { FastifyInstance } from "fastify";
import { markGuestEnded } from "../../model/guests/changes.ts";
import {
  claimReminder,
  type DueReminder,
  dueReminders,
  expiredGuestIds,
  guestsOfLeftSponsors,
  guestsPastRetention,
  handOverToOperators,
  operatorsToTell,
} from "../../model/guests/lifecycle.ts";
import { addressed, guestEndingNotice, handedOverNotice, sponsorEndingNotice } from "../../model/guests/mail.ts";
import { eraseAfterRetention } from "../../model/privacy/erase-ended.ts";
import { disableUser } from "../../model/sessions/disable.ts";
import type { SignOutParticipants } from "../../model/sessions/sign-out.ts";
import { recordAuditEvent } from "../../platform/audit/record.ts";
import type { GuestsConfig } from "../../platform/config/index.ts";
import type { Db } from "../../platform/db/schema.ts";
import { type OutgoingMail, sendInBackground } from "../../platform/mail/mailer.ts";

/** What the guests' job needs: the database, the time, the protocols to tell, where mail goes. */
export interface GuestJob {
  db: Db;
  now: Date;
  guests: Pick<GuestsConfig, "eraseAfterDays">;
  publicUrl: string;
  signOut?: Pick<SignOutParticipants, "withinTransaction">;
  send: (mail: OutgoingMail | undefined) => void;
}

export interface GuestJobCounts {
  reminded: number;
  ended: number;
  erased: number;
  handedOver: number;
}

async function remind(job: GuestJob, due: DueReminder): Promise<boolean> {
  if (!(await claimReminder(job.db, due.guestId, due.days))) return false;
  const facts = (language: "uk" | "en") => ({
    guest: due.guest.name,
    endsAt: due.endsAt,
    days: due.days,
    accountUrl: `${job.publicUrl}/${language}/account#guests`,
  });
  job.send(addressed(due.guest, (language) => guestEndingNotice(language, facts(language))));
  if (due.sponsor) job.send(addressed(due.sponsor, (language) => sponsorEndingNotice(language, facts(language))));
  await recordAuditEvent(job.db, {
    type: "guest_reminded",
    result: "success",
    userId: due.guestId,
    reason: `days.${due.days}`,
    occurredAt: job.now,
  });
  return true;
}

async function endExpired(job: GuestJob, guestId: string): Promise<boolean> {
  if (!(await markGuestEnded(job.db, guestId, job.now))) return false;
  // The one disable path: sessions and tokens end, Wi-Fi is disconnected and refused, SCIM reads active=false.
  await disableUser({ db: job.db, now: job.now, signOut: job.signOut }, guestId);
  await recordAuditEvent(job.db, {
    type: "guest_ended",
    result: "success",
    userId: guestId,
    reason: "expired",
    occurredAt: job.now,
  });
  return true;
}

async function handOver(job: GuestJob): Promise<number> {
  let count = 0;
  const operators = await operatorsToTell(job.db);
  for (const left of await guestsOfLeftSponsors(job.db)) {
    const handed = await handOverToOperators(job.db, left.guestIds, job.now);
    if (handed.length === 0) continue;
    count += handed.length;
    await recordAuditEvent(job.db, {
      type: "guest_handed_over",
      result: "success",
      userId: left.sponsorId,
      reason: "sponsor_left",
      occurredAt: job.now,
      details: { guests: handed },
    });
    for (const operator of operators) {
      job.send(
        addressed(operator, (language) =>
          handedOverNotice(language, left.sponsorName, handed.length, `${job.publicUrl}/${language}/admin/guests`),
        ),
      );
    }
  }
  return count;
}

/**
 * One run of the guests' job: sponsors who left hand their guests to the operators (who are told), reminders
 * go 14 and 3 days before an end, guests whose end came are disabled, and ended guests past
 * GUEST_ERASE_AFTER_DAYS are erased. Each step claims its row first, so instances running it at once act once.
 */
export async function runGuestJob(job: GuestJob): Promise<GuestJobCounts> {
  const handedOver = await handOver(job);
  let reminded = 0;
  for (const due of await dueReminders(job.db, job.now)) if (await remind(job, due)) reminded += 1;
  let ended = 0;
  for (const guestId of await expiredGuestIds(job.db, job.now)) if (await endExpired(job, guestId)) ended += 1;
  let erased = 0;
  for (const guestId of await guestsPastRetention(job.db, job.now, job.guests.eraseAfterDays)) {
    if (await eraseAfterRetention(job.db, guestId, job.now, "guest.ended")) erased += 1;
  }
  return { reminded, ended, erased, handedOver };
}

/** The job with the app's own database, clock, protocols and mailer. */
export function guestJobOf(app: FastifyInstance): GuestJob {
  return {
    db: app.db,
    now: app.clock(),
    guests: app.config.guests,
    publicUrl: app.config.publicUrl,
    signOut: app.signOut,
    send: (mail) => sendInBackground(app, mail),
  };
}

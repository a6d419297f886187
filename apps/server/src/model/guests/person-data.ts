import type { PersonDataArea } from "../../platform/db/person-data.ts";
import type { Db } from "../../platform/db/schema.ts";
import { guestsForConsole, guestsOfSponsor } from "./views.ts";

/**
 * Erasure of a guest: their invitation, units, applications and the guest row with its reason. Named one by one:
 * erasure keeps the account row as a stub, so `on delete cascade` never fires (and an erased guest's row would be
 * picked by the retention job again and again). A sponsor's guests keep the sponsor's id, a stub's now: the
 * guests' job hands them to the operators as it does when a sponsor leaves.
 */
async function removeGuestRowsOf(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("guest_invitations").where("user_id", "=", userId).execute();
  await db.deleteFrom("guest_units").where("user_id", "=", userId).execute();
  await db.deleteFrom("guest_applications").where("user_id", "=", userId).execute();
  await db.deleteFrom("guests").where("user_id", "=", userId).execute();
}

// Everything a sponsor ever sponsored, ended guests too: the download is the whole record, not the card's recent.
const everEnded = new Date(0);

/** A guest's stay (who sponsors them, why, until when), and the guests a sponsor sponsors. */
export const personData: PersonDataArea = {
  area: "guests",
  erase: async (db, person) => {
    await removeGuestRowsOf(db, person.id);
    return {};
  },
  exportOf: async (db, person) => {
    const [own] = await guestsForConsole(db, { guestId: person.id }, false);
    const sponsored = await guestsOfSponsor(db, person.id, false, everEnded);
    return {
      guest: own
        ? {
            sponsor: own.sponsor?.name ?? null,
            reason: own.reason,
            state: own.state,
            since: own.createdAt,
            endsAt: own.endsAt,
            units: own.units.map((unit) => unit.name),
            applications: own.applications.map((application) => application.name),
          }
        : null,
      sponsoredGuests: sponsored.map((guest) => ({
        fullName: guest.fullName,
        state: guest.state,
        since: guest.createdAt,
        endsAt: guest.endsAt,
      })),
    };
  },
  labels: {
    guest: { uk: "Ваш гостьовий доступ (хто запросив, навіщо, до коли)", en: "Your guest stay (sponsor, reason, end)" },
    sponsoredGuests: { uk: "Гості, яких ви запросили", en: "Guests you sponsor" },
  },
};

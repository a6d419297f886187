import type { Environment } from "./schema.ts";

/** Sponsored guests (docs/visitors.md): who may sponsor, for how long, how many, how long an ended guest is kept. */
export interface GuestsConfig {
  /** GUEST_MAX_DAYS: the furthest end a sponsor may give or extend to, in days from today (at most 366). */
  maxDays: number;
  /** GUEST_SPONSOR_UNITS: unit codes; when set, only staff with an active position in one of them (or below) sponsor. */
  sponsorUnits: string[];
  /** GUEST_LIMIT_PER_SPONSOR: current guests one sponsor may hold. */
  perSponsor: number;
  /** GUEST_LIMIT_PER_UNIT: current guests one unit may hold. */
  perUnit: number;
  /** GUEST_INVITATIONS_PER_HOUR: invitations one sponsor may send an hour (through the throttle). */
  invitationsPerHour: number;
  /** GUEST_INVITATION_DAYS: how long an invitation link stays good. */
  invitationDays: number;
  /** GUEST_ERASE_AFTER_DAYS: an ended guest's personal data is erased this long after their end; 0 never. */
  eraseAfterDays: number;
}

export function readGuestsConfig(environment: Environment): GuestsConfig {
  return {
    maxDays: environment.GUEST_MAX_DAYS,
    sponsorUnits: environment.GUEST_SPONSOR_UNITS,
    perSponsor: environment.GUEST_LIMIT_PER_SPONSOR,
    perUnit: environment.GUEST_LIMIT_PER_UNIT,
    invitationsPerHour: environment.GUEST_INVITATIONS_PER_HOUR,
    invitationDays: environment.GUEST_INVITATION_DAYS,
    eraseAfterDays: environment.GUEST_ERASE_AFTER_DAYS,
  };
}

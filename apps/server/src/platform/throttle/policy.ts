/**
 * How many failed credential checks a key may have before it waits, and for
 * how long. docs/operations.md ("Throttling of sign-in attempts") describes the
 * same numbers for operators.
 */
export interface ThrottleRule {
  /** Failures allowed without any delay. */
  freeFailures: number;
  /** The delay after the first failure past the free ones; it doubles with each further failure. */
  firstDelaySeconds: number;
  /** The longest a delay grows to. */
  maxDelaySeconds: number;
  /** From this many failures on every failure locks the key; without one the key only ever waits (no wall). */
  lock?: { afterFailures: number; seconds: number };
  /** When the count starts again from zero: this long after the key's last failure, or after its first. */
  forgetAfterSeconds: number;
  forgetFrom: "lastFailure" | "firstFailure";
}

export const throttlePolicy = {
  // One account, tried from a browser that never signed in to it: a person mistyping is never slowed;
  // guessing is slowed to one try per 15 minutes. A stranger's guesses hold only such browsers.
  account: {
    freeFailures: 3,
    firstDelaySeconds: 1,
    maxDelaySeconds: 15 * 60,
    lock: { afterFailures: 10, seconds: 15 * 60 },
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "lastFailure",
  },
  // One browser that signed in to the account before (its device cookie): held by its own failures only.
  device: {
    freeFailures: 5,
    firstDelaySeconds: 1,
    maxDelaySeconds: 15 * 60,
    lock: { afterFailures: 10, seconds: 15 * 60 },
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "lastFailure",
  },
  // One address (an IPv6 /64): a campus NAT carries thousands of people, so 300 failures an hour (from
  // the first) are free; past them each failure makes the address wait a little longer, up to a minute,
  // and never locks it. Returning browsers (device cookies) do not count here at all.
  ip: {
    freeFailures: 300,
    firstDelaySeconds: 1,
    maxDelaySeconds: 60,
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "firstFailure",
  },
  // Password reset mail, per typed address and per account: every request counts (it sends mail),
  // three an hour go at once, then they wait, so nobody can bomb a mailbox through KPI ID.
  recoveryMail: {
    freeFailures: 3,
    firstDelaySeconds: 5 * 60,
    maxDelaySeconds: 60 * 60,
    lock: { afterFailures: 6, seconds: 60 * 60 },
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "firstFailure",
  },
  // Password reset requests from one address (a campus NAT carries many people).
  recoveryIp: {
    freeFailures: 20,
    firstDelaySeconds: 60,
    maxDelaySeconds: 60 * 60,
    lock: { afterFailures: 50, seconds: 60 * 60 },
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "firstFailure",
  },
  // Device codes (/{lang}/device) typed by one signed-in person: five wrong ones are free, then each waits
  // twice as long up to a minute; forgotten 15 minutes after the last. Never a lock: a person who mistypes
  // waits seconds, a guesser gets about one code a minute.
  deviceCodePerson: {
    freeFailures: 5,
    firstDelaySeconds: 2,
    maxDelaySeconds: 60,
    forgetAfterSeconds: 15 * 60,
    forgetFrom: "lastFailure",
  },
  // From one address (a lecture hall behind one NAT types many codes at once).
  deviceCodeIp: {
    freeFailures: 50,
    firstDelaySeconds: 1,
    maxDelaySeconds: 60,
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "firstFailure",
  },
  // Everyone together, against guessing spread over many accounts and addresses: past 1,000 wrong codes
  // an hour, each wrong code makes everyone wait at most 5 seconds, so nobody is kept out for long
  // while a guesser gets at most about 700 codes an hour out of 10^8.
  deviceCodeAll: {
    freeFailures: 1000,
    firstDelaySeconds: 1,
    maxDelaySeconds: 5,
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "firstFailure",
  },
  // Invitations to an application sent by one person (developers' page): every invitation counts, ten an hour
  // go at once, then each waits twice as long up to an hour. Nobody can try addresses and names without end.
  invitationPerson: {
    // The attempt is counted before the check: nine counted free, so the tenth still goes and the eleventh waits.
    freeFailures: 9,
    firstDelaySeconds: 60,
    maxDelaySeconds: 60 * 60,
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "firstFailure",
  },
  // Invitations to one typed name or address, whoever sends them: three an hour, so nobody is bombed with
  // invitation mail. It only holds back invitations: the person's own sign-in and answers never count here.
  invitationTarget: {
    freeFailures: 2,
    firstDelaySeconds: 5 * 60,
    maxDelaySeconds: 60 * 60,
    forgetAfterSeconds: 60 * 60,
    forgetFrom: "firstFailure",
  },
} as const satisfies Record<string, ThrottleRule>;

/** How long a browser's device cookie lasts after its last sign-in, and how many accounts it remembers. */
export const deviceCookiePolicy = { lifetimeDays: 180, accountsPerBrowser: 5 } as const;

/** Seconds the key must wait after its `failures`-th failure in a row. */
export function delayAfterFailures(rule: ThrottleRule, failures: number): number {
  if (rule.lock && failures >= rule.lock.afterFailures) return rule.lock.seconds;
  if (failures <= rule.freeFailures) return 0;
  return Math.min(rule.firstDelaySeconds * 2 ** (failures - rule.freeFailures - 1), rule.maxDelaySeconds);
}

import type { Db } from "../../platform/db/schema.ts";
import { unlockAccount } from "../../platform/throttle/throttle.ts";
import { ldapNameThrottleKey, ldapThrottleKey } from "../ldap/throttle.ts";
import { wifiDeviceKey, wifiNameThrottleKey } from "../wifi/secrets.ts";

/**
 * Lifts what strangers' guesses hold on one person, on every way in that counts them by name: the sign-in's password
 * and second-factor counters, and Wi-Fi's and LDAP's counters of the name from unknown devices and client addresses.
 * A helpdesk that unlocks a person whose lab login or laptop is held by someone's guesses expects all of it gone.
 * The owner's known browsers, devices and client machines are counted apart and were never held. True when something
 * was lifted.
 */
export function unlockPerson(
  db: Db,
  secrets: { sessionSecret: string; pairwiseSalt: string },
  person: { id: string; username: string },
): Promise<boolean> {
  return unlockAccount(db, secrets.sessionSecret, person, [
    wifiNameThrottleKey(wifiDeviceKey(secrets.pairwiseSalt), person.username),
    ldapNameThrottleKey(ldapThrottleKey(secrets.pairwiseSalt), person.username),
  ]);
}

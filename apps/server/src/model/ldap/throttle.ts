import { createHmac, hkdfSync } from "node:crypto";
import { throttlePolicy } from "../../platform/throttle/policy.ts";
import type { ThrottleKey } from "../../platform/throttle/throttle.ts";

/**
 * The key the LDAP throttle's counters are kept under: derived from SAML_PAIRWISE_SALT like Wi-Fi's device key,
 * so a SESSION_SECRET rotation neither forgets a person's known client machines nor restarts the counts.
 */
export function ldapThrottleKey(pairwiseSalt: string): string {
  return Buffer.from(hkdfSync("sha256", pairwiseSalt, "kpi-id ldap", "throttle-key", 32)).toString("base64url");
}

const keyOf = (secret: string, kind: string, value: string) =>
  createHmac("sha256", secret).update(`${kind}\0${value}`, "utf8").digest("base64url");

/** The counter of a name's failed binds from unknown client addresses (what an operator's unlock lifts). */
export function ldapNameThrottleKey(secret: string, name: string): string {
  return `ldap-name:${keyOf(secret, "ldap-name", name.toLowerCase())}`;
}

/**
 * The LDAP throttle, with the sign-in throttle's rules (platform/throttle/policy.ts). A client address the person
 * bound from before (a lab machine, the Nextcloud server) is counted by itself alone, as a browser's device cookie
 * is for sign-ins: a stranger's guesses hold the name for unknown addresses, never the owner's known clients.
 * Unknown addresses are counted per name (the account rule) and per address (the ip rule: a lab machine or a
 * Nextcloud server carries many people, so it waits a little and is never locked).
 */
export function ldapThrottleKeys(
  secret: string,
  attempt: { name: string; peer?: string; knownPeer?: boolean },
): ThrottleKey[] {
  // The known client's key names the person by username (never given to anyone else, even after erasure), so the
  // keys are ready before the person is read, and the read and the take are one statement (bind-lookup.ts).
  if (attempt.knownPeer === true && attempt.peer !== undefined) {
    return [
      {
        key: `ldap-known:${keyOf(secret, "ldap-known", `${attempt.name.toLowerCase()}\0${attempt.peer}`)}`,
        rule: throttlePolicy.device,
      },
    ];
  }
  const keys: ThrottleKey[] = [{ key: ldapNameThrottleKey(secret, attempt.name), rule: throttlePolicy.account }];
  if (attempt.peer !== undefined) {
    keys.push({ key: `ldap-peer:${keyOf(secret, "ldap-peer", attempt.peer)}`, rule: throttlePolicy.ip });
  }
  return keys;
}

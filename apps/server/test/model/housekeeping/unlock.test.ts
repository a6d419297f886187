import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unlockPerson } from "../../../src/model/housekeeping/unlock.ts";
import { ldapThrottleKey, ldapThrottleKeys } from "../../../src/model/ldap/throttle.ts";
import { wifiDeviceKey } from "../../../src/model/wifi/secrets.ts";
import { wifiThrottleKeys } from "../../../src/model/wifi/throttle.ts";
import type { Db } from "../../../src/platform/db/schema.ts";
import { throttlePolicy } from "../../../src/platform/throttle/policy.ts";
import { credentialThrottleKeys, type ThrottleKey, takeAttempt } from "../../../src/platform/throttle/throttle.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { databaseKinds } from "../../support/databases.ts";

const secrets = {
  sessionSecret: "unlock-session-secret-0123456789-abcdefghijklmn",
  pairwiseSalt: "unlock-pairwise-salt-0123456789-abcdefghijklmn",
};
const person = { id: "5f0c7a52-8d1e-4c3b-9a6f-0123456789ab", username: "held.person" };
const start = new Date("2026-11-29T08:00:00Z");

/** A stranger's guesses at one counter until it locks (each waiting out its delay); when the lock began. */
async function guessUntilLocked(db: Db, key: ThrottleKey): Promise<Date> {
  let now = start;
  for (let counted = 0; counted < throttlePolicy.account.lock.afterFailures; ) {
    const decision = await takeAttempt(db, [key], now);
    if (decision.allowed) counted += 1;
    else now = new Date(now.getTime() + decision.retryAfterSeconds * 1000);
  }
  return now;
}

// The helpdesk's Unlock (and `user unlock`) lifts what strangers' guesses hold on the person's name on every way in
// that counts by name: the sign-in's password, Wi-Fi's network passwords from unknown devices, LDAP's binds from
// unknown client addresses. Before, only the first went, and a lab login held by someone's guesses stayed held.
describe.each(databaseKinds)("an operator's unlock on %s", (kind) => {
  let t: TestApp;
  let held: Record<string, ThrottleKey>;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    const [password] = credentialThrottleKeys(secrets.sessionSecret, { username: person.username, address: "" });
    const [wifi] = await wifiThrottleKeys(t.app.db, wifiDeviceKey(secrets.pairwiseSalt), {
      username: "Held.Person",
    });
    const [ldap] = ldapThrottleKeys(ldapThrottleKey(secrets.pairwiseSalt), { name: "held.person", peer: "192.0.2.9" });
    if (!password || !wifi || !ldap) throw new Error("each way in names the person's counter first");
    held = { password, wifi, ldap };
  });
  afterAll(() => t.close());

  it("lifts the sign-in's, Wi-Fi's and LDAP's holds on the name at once, and says when nothing was held", async () => {
    let lockedAt = start;
    for (const key of Object.values(held)) lockedAt = await guessUntilLocked(t.app.db, key);
    for (const [way, key] of Object.entries(held)) {
      expect(await takeAttempt(t.app.db, [key], lockedAt), way).toMatchObject({ allowed: false });
    }
    expect(await unlockPerson(t.app.db, secrets, person)).toBe(true);
    for (const [way, key] of Object.entries(held)) {
      expect(await takeAttempt(t.app.db, [key], lockedAt), way).toEqual({ allowed: true });
    }
    const other = { id: "0b7e2c11-3f4a-4d5e-8f60-fedcba987654", username: "never.held" };
    expect(await unlockPerson(t.app.db, secrets, other)).toBe(false);
  });
});

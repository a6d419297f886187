import type { Db } from "../../platform/db/schema.ts";
import { throttlePolicy } from "../../platform/throttle/policy.ts";
import type { ThrottleKey } from "../../platform/throttle/throttle.ts";
import { stationHash, throttleKeyOf, wifiNameThrottleKey } from "./secrets.ts";

/**
 * The Wi-Fi throttle, with the sign-in throttle's rules (platform/throttle/policy.ts). A device (its
 * Calling-Station-Id) that signed this person in before is counted by itself alone, like a browser's device
 * cookie: a stranger's guesses lock the name for unknown devices, never for the owner's phone. Unknown devices
 * are counted per name (the account rule) and per device (the account rule too: one device trying many names).
 * Everything is keyed with `deviceKey` (wifiDeviceKey), not SESSION_SECRET's newest key: a rotation neither
 * forgets the owner's devices (which would leave the owner behind a stranger's lock) nor resets the counts.
 */
export async function wifiThrottleKeys(
  db: Db,
  deviceKey: string,
  attempt: { username: string; userId?: string; station?: string },
): Promise<ThrottleKey[]> {
  const station = attempt.station ? stationHash(deviceKey, attempt.station) : undefined;
  if (attempt.userId !== undefined && station !== undefined) {
    const known = await db
      .selectFrom("wifi_uses")
      .select("id")
      .where("user_id", "=", attempt.userId)
      .where("station_hash", "=", station)
      .limit(1)
      .executeTakeFirst();
    if (known) {
      return [
        {
          key: `wifi-device:${throttleKeyOf(deviceKey, "wifi-device", `${attempt.userId}\0${station}`)}`,
          rule: throttlePolicy.device,
        },
      ];
    }
  }
  const keys: ThrottleKey[] = [{ key: wifiNameThrottleKey(deviceKey, attempt.username), rule: throttlePolicy.account }];
  if (station !== undefined) keys.push({ key: `wifi-station:${station}`, rule: throttlePolicy.account });
  return keys;
}

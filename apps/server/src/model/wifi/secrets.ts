/// <reference path="./js-md4.d.ts" />
import { createHmac, hkdfSync, randomInt } from "node:crypto";
import md4 from "js-md4";
import { keysOf, newestKey, type SecretRing } from "../../platform/crypto/key-ring.ts";
import { seal } from "../../platform/crypto/seal.ts";

/** The purpose NT hashes are sealed for (crypto/seal.ts); `secrets reseal` seals them again under it. */
export const ntHashSealPurpose = "wifi-nt-hash";

// Lower-case letters and digits a person cannot mistake for one another (no 0/o, 1/l/i) on a phone's keyboard.
const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
const groups = 4;
const groupLength = 5;

/**
 * A new network password: four groups of five characters from 31, about 99 bits from the CSPRNG, e.g.
 * `k3m9x-pq7ra-…`. Typed into a phone once, then kept by the device.
 */
export function generateNetworkPassword(): string {
  const group = () => Array.from({ length: groupLength }, () => alphabet[randomInt(alphabet.length)]).join("");
  return Array.from({ length: groups }, group).join("-");
}

/** The device part of a PEAP identity (username+device@realm): six characters, random, unique per person. */
export function generateDeviceTag(): string {
  return Array.from({ length: 6 }, () => alphabet[randomInt(alphabet.length)]).join("");
}

/** Each ring key's derived hash key, kept: HKDF costs about 20 µs a call, and a bind or a PAP check needs it. */
const hashKeys = new Map<string, Buffer>();

function hashKey(sessionSecret: string): Buffer {
  let key = hashKeys.get(sessionSecret);
  if (!key) {
    // The ring holds a few keys; a process that was handed many (tests) starts the cache again.
    if (hashKeys.size >= 16) hashKeys.clear();
    key = Buffer.from(hkdfSync("sha256", sessionSecret, "kpi-id wifi", "network-password-hash", 32));
    hashKeys.set(sessionSecret, key);
  }
  return key;
}

/**
 * A network password as stored for TTLS/PAP: HMAC-SHA256 of its NT hash under a key derived from SESSION_SECRET.
 * The passwords are random with about 99 bits, so there is no dictionary for argon2's cost to slow down; a keyed
 * hash keeps a copy of the database from being checked offline at all, and lets the check be one index lookup
 * (docs/eduroam.md). Keyed over the NT hash rather than the password so that `secrets reseal` can make it again
 * under a new key from the sealed NT hash, without the password, before an old key is removed.
 */
export function networkPasswordHash(sessionSecret: string, ntHashHex: string): string {
  return createHmac("sha256", hashKey(sessionSecret)).update(`nt\0${ntHashHex}`, "utf8").digest("base64url");
}

/**
 * The first form of the PAP hash (0.4.0's first Wi-Fi commit): HMAC of the password itself. Still matched, so a
 * password made then keeps working; a match makes the row again in today's form (model/wifi/radius.ts), and
 * `secrets reseal` makes it again from the sealed NT hash.
 */
function passwordKeyedHash(sessionSecret: string, password: string): string {
  return createHmac("sha256", hashKey(sessionSecret)).update(password, "utf8").digest("base64url");
}

/**
 * The password's hash under each key of the ring, newest first, then in the first form under each key: a row
 * not yet resealed or made again still matches. The newest key's hash in today's form comes first.
 */
export function networkPasswordHashes(ring: SecretRing, password: string): string[] {
  const nt = ntHash(password);
  const keys = keysOf(ring);
  return [...keys.map((key) => networkPasswordHash(key, nt)), ...keys.map((key) => passwordKeyedHash(key, password))];
}

/**
 * What a network password is stored as, both under the ring's newest key: its PAP hash and its sealed NT hash.
 * Written together (at creation, by `secrets reseal`, after a PAP sign-in matched an older key), so a row whose
 * hash is the newest key's also has its NT hash sealed under that key.
 */
export function storedNetworkPassword(ring: SecretRing, ntHashHex: string) {
  const key = newestKey(ring);
  return { secret_hash: networkPasswordHash(key, ntHashHex), nt_hash_sealed: seal(key, ntHashSealPurpose, ntHashHex) };
}

/** MSCHAPv2's NT hash: MD4 of the password in UTF-16LE, as FreeRADIUS's mschap module takes it (hex). */
export function ntHash(password: string): string {
  return md4
    .create()
    .update(new Uint8Array(Buffer.from(password, "utf16le")))
    .hex();
}

/**
 * The key a device's address and the Wi-Fi throttle's counters are kept under: derived from SAML_PAIRWISE_SALT,
 * which stays the same across SESSION_SECRET rotations (the configuration refuses two keys without it pinned),
 * so a person's known devices stay known, and counts stay counted, when a key is added or removed.
 */
export function wifiDeviceKey(pairwiseSalt: string): string {
  return Buffer.from(hkdfSync("sha256", pairwiseSalt, "kpi-id wifi", "device-key", 32)).toString("base64url");
}

/**
 * The Wi-Fi throttle's counter of a name's failed guesses from unknown devices (model/wifi/throttle.ts), keyed like
 * its others; here so an operator's unlock (model/housekeeping/unlock.ts) can name it.
 */
export function wifiNameThrottleKey(deviceKey: string, username: string): string {
  return `wifi-name:${throttleKeyOf(deviceKey, "wifi-name", username.toLowerCase())}`;
}

/** One of the Wi-Fi throttle's keys: a keyed hash, so the counters' table never holds a name or a device. */
export function throttleKeyOf(deviceKey: string, kind: string, value: string): string {
  return createHmac("sha256", deviceKey).update(`${kind}\0${value}`, "utf8").digest("base64url");
}

/** A device's address as kept: keyed, so a returning device is known without storing its MAC address. */
export function stationHash(deviceKey: string, station: string): string {
  const normalised = station.toLowerCase().replace(/[^0-9a-f]/g, "");
  return createHmac("sha256", deviceKey).update(`station\0${normalised}`, "utf8").digest("base64url");
}

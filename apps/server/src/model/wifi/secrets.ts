/// <reference path="./js-md4.d.ts" />
import { createHmac, hkdfSync, randomInt } from "node:crypto";
import md4 from "js-md4";
import { keysOf, newestKey, type SecretRing } from "../../platform/crypto/key-ring.ts";

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

function hashKey(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", sessionSecret, "kpi-id wifi", "network-password-hash", 32));
}

/**
 * A network password as stored: HMAC-SHA256 under a key derived from SESSION_SECRET. The passwords are random
 * with about 99 bits, so there is no dictionary for argon2's cost to slow down; a keyed hash keeps a copy of
 * the database from being checked offline at all, and lets the check be one index lookup (docs/eduroam.md).
 */
export function networkPasswordHash(sessionSecret: string, password: string): string {
  return createHmac("sha256", hashKey(sessionSecret)).update(password, "utf8").digest("base64url");
}

/** The hash under each key of the ring, newest first: a password made before a rotation still matches. */
export function networkPasswordHashes(ring: SecretRing, password: string): string[] {
  return keysOf(ring).map((key) => networkPasswordHash(key, password));
}

/** The hash a new password is stored under (the ring's newest key). */
export function newNetworkPasswordHash(ring: SecretRing, password: string): string {
  return networkPasswordHash(newestKey(ring), password);
}

/** MSCHAPv2's NT hash: MD4 of the password in UTF-16LE, as FreeRADIUS's mschap module takes it (hex). */
export function ntHash(password: string): string {
  return md4
    .create()
    .update(new Uint8Array(Buffer.from(password, "utf16le")))
    .hex();
}

/** A device's address as kept: keyed, so a returning device is known without storing its MAC address. */
export function stationHash(sessionSecret: string, station: string): string {
  const normalised = station.toLowerCase().replace(/[^0-9a-f]/g, "");
  return createHmac("sha256", hashKey(sessionSecret)).update(`station\0${normalised}`, "utf8").digest("base64url");
}

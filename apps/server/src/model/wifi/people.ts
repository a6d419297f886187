import { createHmac } from "node:crypto";
import { isStorableText } from "@kpi-id/contracts";
import type { Db, User } from "../../platform/db/schema.ts";
import { affiliationsOf } from "../people/records.ts";
import { findUserByUsername } from "../users/queries.ts";

/** Why a Wi-Fi sign-in was refused: the console counts failures by these, and the audit row keeps them. */
export type WifiRefusal =
  | "other_realm"
  | "unknown_person"
  | "person_disabled"
  | "wifi_off"
  | "no_password"
  | "wrong_password"
  | "throttled";

/** A Wi-Fi name: username@realm, or username+device@realm naming one network password (PEAP needs it). */
export interface WifiIdentity {
  username: string;
  device?: string;
}

/** The person part of an inner identity in our realm; undefined for any other realm or none. */
export function parseWifiIdentity(userName: string, realm: string): WifiIdentity | undefined {
  const at = userName.lastIndexOf("@");
  if (at <= 0 || userName.slice(at + 1).toLowerCase() !== realm) return undefined;
  const local = userName.slice(0, at);
  const plus = local.lastIndexOf("+");
  if (plus < 0) return { username: local };
  const device = local.slice(plus + 1).toLowerCase();
  return plus > 0 && /^[a-z0-9]{1,16}$/.test(device) ? { username: local.slice(0, plus), device } : undefined;
}

/** Turns a person's Wi-Fi off (an operator: helpdesk or admin); their passwords stay but none works. */
export async function turnWifiOff(db: Db, userId: string, actorId: string | undefined, now: Date): Promise<boolean> {
  const rows = await db
    .insertInto("wifi_blocks")
    .values({ user_id: userId, blocked_at: now, blocked_by: actorId ?? null })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .returning("user_id")
    .execute();
  return rows.length > 0;
}

export async function turnWifiOn(db: Db, userId: string): Promise<boolean> {
  const result = await db.deleteFrom("wifi_blocks").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Erasure (model/privacy/erase.ts): the switch's row, when and by whom Wi-Fi was turned off, is about the person
 * and goes with them. Nothing opens up: the erased stub is refused at every authentication anyway.
 */
export async function forgetWifiSwitch(db: Db, userId: string): Promise<boolean> {
  return turnWifiOn(db, userId);
}

export async function isWifiOff(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom("wifi_blocks").select("user_id").where("user_id", "=", userId).executeTakeFirst();
  return row !== undefined;
}

export type WifiPersonCheck = { person: User } | { refusal: WifiRefusal; person?: User };

/**
 * Whether the named person may use Wi-Fi now, read at every authentication: a disabled, departed (disabled
 * by SCIM or an import) or erased person is refused, and so is one whose Wi-Fi an operator turned off.
 */
export async function checkWifiPerson(db: Db, username: string): Promise<WifiPersonCheck> {
  // U+0000 is in no one's name (and PostgreSQL's text cannot compare it): nobody's, as an unknown name is.
  if (!isStorableText(username)) return { refusal: "unknown_person" };
  const person = await findUserByUsername(db, username);
  if (!person) return { refusal: "unknown_person" };
  if (person.status !== "active" || person.anonymised_at !== null) return { refusal: "person_disabled", person };
  if (await isWifiOff(db, person.id)) return { refusal: "wifi_off", person };
  return { person };
}

/** Which VLAN group the person is in: staff before students (a PhD student who teaches), guests otherwise. */
export async function wifiAffiliation(db: Db, userId: string): Promise<"staff" | "students" | "guests"> {
  const affiliations: string[] = await affiliationsOf(db, userId);
  if (affiliations.some((each) => each === "staff" || each === "faculty" || each === "employee")) return "staff";
  if (affiliations.includes("student")) return "students";
  return "guests";
}

/**
 * RFC 4372 Chargeable-User-Identity: stable for one person at one operator (Operator-Name), different between
 * operators, so a visited network can count a visitor's sessions without learning who they are or linking
 * them across networks. A keyed hash of the person's id (never the tax id or the username).
 */
export function chargeableUserIdentity(sessionSecret: string, userId: string, operatorName: string): string {
  return createHmac("sha256", sessionSecret)
    .update(`kpi-id cui\0${userId}\0${operatorName.toLowerCase()}`, "utf8")
    .digest("base64url")
    .slice(0, 32);
}

import {
  type CasAttributeName,
  type CasAttributeRenames,
  casAttributeNames,
  casDefaultAttributes,
  casProtocolAttributeNames,
  casReleasedNamePattern,
} from "@kpi-id/contracts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { ticketAsksConsent } from "../access/ticket-consents.ts";

/**
 * A service's attribute release policy (Apereo CAS's term): which attributes its validations release, and under
 * which names. Stored with the service; checked here before it is, so what runs is what the operator saw accepted.
 */

/** The attributes a service releases: those its operator named, else the default set. */
export function namedOrDefault(named: readonly CasAttributeName[]): CasAttributeName[] {
  return named.length > 0 ? [...named] : [...casDefaultAttributes];
}

export const isCasAttributeName = (name: string): name is CasAttributeName =>
  (casAttributeNames as readonly string[]).includes(name);

/** Only KPI ID's attribute names as keys and strings as names: what a stored policy may hold (else ignored). */
export function renamesOf(stored: unknown): CasAttributeRenames {
  if (typeof stored !== "object" || stored === null) return {};
  const entries = Object.entries(stored).filter(
    (entry): entry is [CasAttributeName, string] => isCasAttributeName(entry[0]) && typeof entry[1] === "string",
  );
  return Object.fromEntries(entries);
}

/**
 * Why renames cannot run, for the first rename that fails, or undefined:
 * `bad_name` (not an XML element name as casReleasedNamePattern allows), `reserved` (one of CAS's own attributes),
 * `not_released` (the service does not release that attribute: most likely a forgotten --attributes entry),
 * `collision` (two attributes would reach the client under one name, and one would hide the other).
 */
export type CasRenameProblem = "bad_name" | "reserved" | "not_released" | "collision";

export function casRenameProblem(
  named: readonly CasAttributeName[],
  renames: CasAttributeRenames,
): { problem: CasRenameProblem; attribute: CasAttributeName } | undefined {
  const released = namedOrDefault(named);
  for (const attribute of casAttributeNames) {
    const name = renames[attribute];
    if (name === undefined) continue;
    if (!casReleasedNamePattern.test(name)) return { problem: "bad_name", attribute };
    if ((casProtocolAttributeNames as readonly string[]).includes(name)) return { problem: "reserved", attribute };
    if (!released.includes(attribute)) return { problem: "not_released", attribute };
  }
  const seen = new Set<string>();
  for (const attribute of released) {
    const name = renames[attribute] ?? attribute;
    if (seen.has(name)) return { problem: "collision", attribute };
    seen.add(name);
  }
  return undefined;
}

/**
 * Whether the service would release the e-mail to an application whose people are asked first: their consent
 * screen lists what the ticket exchange carries, which holds no e-mail, so the address would leave unagreed.
 */
export function mailWithoutConsent(
  application: Pick<ApplicationRow, "community">,
  named: readonly CasAttributeName[],
): boolean {
  return ticketAsksConsent(application) && named.includes("mail");
}

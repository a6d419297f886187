import { isStorableText, text } from "@kpi-id/contracts";
import { z } from "zod";
import type { RadiusFacts } from "../../model/wifi/radius.ts";
import type { WifiVlans } from "../../platform/config/wifi.ts";

/**
 * The rest module's JSON (body = 'json'): each attribute of the request list as
 * `{"User-Name": {"type": "string", "value": ["alice@kpi.ua"]}}`. Anything else is read as absent.
 */
export type RestAttributes = Record<string, unknown>;

/** The request body of every call: attribute names (storable, short) to whatever the rest module sent. */
export const restBodySchema = z.record(text().max(100), z.unknown());

/** The attribute's first value as it came, at most `limit` characters; undefined when absent or odd. */
function attributeValue(body: RestAttributes, name: string, limit: number): string | undefined {
  const entry = body[name];
  if (typeof entry !== "object" || entry === null || !("value" in entry)) return undefined;
  const values = (entry as { value: unknown }).value;
  const first = Array.isArray(values) ? values[0] : values;
  if (typeof first !== "string" && typeof first !== "number") return undefined;
  const value = String(first);
  return value.length > limit ? undefined : value;
}

/**
 * The attribute's first value as text, at most `limit` characters; undefined when absent or odd, and when it holds
 * U+0000, which PostgreSQL's text cannot hold (an access point's name so spelled is read as not given).
 */
export function attributeText(body: RestAttributes, name: string, limit = 253): string | undefined {
  const value = attributeValue(body, name, limit);
  return value !== undefined && isStorableText(value) ? value : undefined;
}

export const hasAttribute = (body: RestAttributes, name: string) => attributeText(body, name, 4096) !== undefined;

/** The facts KPI ID decides by. */
export function radiusFacts(body: RestAttributes): RadiusFacts | undefined {
  // The name as it came, U+0000 and all: model/wifi refuses it as nobody's, recorded and counted as any wrong name.
  const userName = attributeValue(body, "User-Name", 253);
  if (userName === undefined) return undefined;
  return {
    userName,
    password: attributeText(body, "User-Password", 128),
    callingStation: attributeText(body, "Calling-Station-Id", 64),
    calledStation: attributeText(body, "Called-Station-Id", 200),
    nasIdentifier: attributeText(body, "NAS-Identifier", 200),
    networkPasswordId: attributeText(body, "KPI-ID-Network-Password", 64),
  };
}

/** How the person proved it: MSCHAPv2 leaves its attributes in the request; TTLS/PAP does not. */
export function methodOf(body: RestAttributes): "mschapv2" | "pap" {
  return hasAttribute(body, "MS-CHAP-Challenge") || hasAttribute(body, "MS-CHAP2-Response") ? "mschapv2" : "pap";
}

/**
 * What the network is told about an accepted person: the VLAN of their affiliation (RFC 3580's tunnel
 * attributes), Chargeable-User-Identity when the access point asked for one (RFC 4372: it sends the
 * attribute, empty, in its request), and the session's Class.
 */
export function acceptAttributes(
  vlans: WifiVlans,
  affiliation: keyof WifiVlans,
  { cui, sessionClass }: { cui?: string; sessionClass?: string },
): Record<string, string> {
  const vlan = vlans[affiliation];
  return {
    ...(vlan === undefined
      ? {}
      : {
          "reply:Tunnel-Type": "VLAN",
          "reply:Tunnel-Medium-Type": "IEEE-802",
          "reply:Tunnel-Private-Group-Id": vlan,
        }),
    ...(cui === undefined ? {} : { "reply:Chargeable-User-Identity": cui }),
    // RFC 2865's Class: the controller returns it in the session's accounting (model/wifi/sessions.ts).
    ...(sessionClass === undefined ? {} : { "reply:Class": sessionClass }),
  };
}

import type { Element } from "@xmldom/xmldom";
import type { IdentityProviderRow } from "../../../model/saml/identity-providers.ts";
import type { SamlKey } from "../keys.ts";
import { nameIdFormats, ns } from "../namespaces.ts";
import { parseXml } from "../sp-metadata.ts";
import { guardXml, XmlRefusedError } from "../xml-guard.ts";
import { AnswerRefused, type Released } from "./attributes.ts";
import {
  acsUrlOf,
  institutionEntity,
  type ServiceProviderSite,
  spEntityIdOf,
  visitorServiceProvider,
} from "./service-provider.ts";

/** A Response with an encrypted assertion and a few certificates is tens of KiB; a megabyte is not one. */
export const maxResponseBytes = 1024 * 1024;

/** What the verified assertion says, for readVisitor and the replay check. */
export interface VerifiedResponse {
  inResponseTo: string;
  assertionId: string;
  /** The assertion's NotOnOrAfter: until then its ID is remembered. */
  notOnOrAfter: Date;
  nameId: string | null;
  authnContext: string | undefined;
  released: Released;
}

/** The InResponseTo of a Response as received, to find the request it answers before verifying anything else. */
export function inResponseToOf(encoded: string): string {
  const xml = Buffer.from(encoded, "base64").toString("utf8");
  guardXml(xml, { maxBytes: maxResponseBytes, allowComments: false });
  const root = parseXml(xml).documentElement as Element | null;
  if (!root || root.namespaceURI !== ns.samlp || root.localName !== "Response")
    throw new AnswerRefused("not a SAML Response");
  const value = root.getAttribute("InResponseTo") ?? "";
  if (value === "") throw new AnswerRefused("an unsolicited Response (no InResponseTo)");
  return value;
}

const asList = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]).map(String);

/** The one assertion of the verified content, and its AuthnContextClassRef and NameID format. */
function assertionFacts(samlContent: string) {
  const document = parseXml(samlContent);
  const assertions = Array.from(document.getElementsByTagNameNS(ns.saml, "Assertion"));
  if (assertions.length !== 1) throw new AnswerRefused("a Response must carry exactly one assertion");
  const [assertion] = assertions as Element[];
  const classRef = assertion?.getElementsByTagNameNS(ns.saml, "AuthnContextClassRef")[0]?.textContent?.trim();
  const nameId = assertion?.getElementsByTagNameNS(ns.saml, "NameID")[0] as Element | undefined;
  const notOnOrAfter = assertion?.getElementsByTagNameNS(ns.saml, "Conditions")[0]?.getAttribute("NotOnOrAfter");
  return {
    id: assertion?.getAttribute("ID") ?? "",
    authnContext: classRef || undefined,
    persistentNameId:
      nameId?.getAttribute("Format") === nameIdFormats.persistent ? (nameId.textContent ?? "").trim() : null,
    notOnOrAfter: notOnOrAfter ? new Date(notOnOrAfter) : undefined,
  };
}

async function parseWith(
  site: ServiceProviderSite,
  key: SamlKey,
  institution: IdentityProviderRow,
  body: Record<string, string>,
) {
  const encrypted = Buffer.from(body.SAMLResponse ?? "", "base64")
    .toString("utf8")
    .includes("EncryptedAssertion");
  return visitorServiceProvider(site, key).parseLoginResponse(institutionEntity(institution, encrypted), "post", {
    body,
  });
}

/**
 * Verifies a home institution's Response (HTTP-POST binding) with samlify: its schema, the institution's signature
 * over the assertion, decryption with one of KPI ID's keys (the newest first: an institution may still hold the
 * previous certificate), the issuer, the assertion's time window. Then what samlify leaves to its caller: the
 * audience and destination are KPI ID's, it answers the request this browser started, one assertion.
 */
export async function verifyResponse(
  site: ServiceProviderSite,
  keys: readonly SamlKey[],
  institution: IdentityProviderRow,
  expected: { requestId: string; samlResponse: string },
): Promise<VerifiedResponse> {
  const body = { SAMLResponse: expected.samlResponse };
  let parsed: Awaited<ReturnType<typeof parseWith>> | undefined;
  let failure: unknown;
  for (const key of keys) {
    try {
      parsed = await parseWith(site, key, institution, body);
      break;
    } catch (error) {
      failure = error;
    }
  }
  if (!parsed) {
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw failure instanceof XmlRefusedError ? new AnswerRefused(failure.message) : new AnswerRefused(reason);
  }
  const extract = parsed.extract as Record<string, unknown> & {
    audience?: unknown;
    response?: { destination?: string; inResponseTo?: string };
    attributes?: Record<string, unknown>;
    nameID?: string;
  };
  if (!asList(extract.audience).includes(spEntityIdOf(site)))
    throw new AnswerRefused("the assertion is for another audience");
  const destination = extract.response?.destination;
  if (destination !== undefined && destination !== acsUrlOf(site)) throw new AnswerRefused("sent to another address");
  if (extract.response?.inResponseTo !== expected.requestId) throw new AnswerRefused("it answers another request");
  const facts = assertionFacts(parsed.samlContent);
  if (facts.id === "" || !facts.notOnOrAfter || Number.isNaN(facts.notOnOrAfter.getTime()))
    throw new AnswerRefused("the assertion has no ID or no NotOnOrAfter");
  const released: Released = {};
  for (const [name, value] of Object.entries(extract.attributes ?? {})) released[name] = asList(value);
  return {
    inResponseTo: expected.requestId,
    assertionId: facts.id,
    notOnOrAfter: facts.notOnOrAfter,
    nameId: facts.persistentNameId,
    authnContext: facts.authnContext,
    released,
  };
}

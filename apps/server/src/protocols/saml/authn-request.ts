import type { Element } from "@xmldom/xmldom";
import type { AcceptedAuthnRequest } from "../../model/saml/pending-requests.ts";
import { rememberSeenRequest } from "../../model/saml/seen-requests.ts";
import { findServiceProvider } from "../../model/saml/service-providers.ts";
import { asksForMultiFactor } from "../../model/sessions/strength.ts";
import type { Db } from "../../platform/db/schema.ts";
import { samlEntities } from "./entities.ts";
import { decodeXml, type IncomingRequest, maxAuthnRequestBytes, SamlRequestRefused } from "./incoming.ts";
import type { SamlKey } from "./keys.ts";
import { bindings, ns, strongDigests, strongSigningMethods } from "./namespaces.ts";
import { childrenNamed, parseXml } from "./sp-metadata.ts";
import { guardXml, XmlRefusedError } from "./xml-guard.ts";
import { xsBoolean } from "./xs-boolean.ts";

/** How long a request id stays remembered: longer than any SP would wait for its answer. */
const seenRequestSeconds = 24 * 60 * 60;

export type { AcceptedAuthnRequest };

export const textOf = (element: Element | undefined) => (element?.textContent ?? "").trim();

/** Against signature wrapping: one signature, over the request itself (the element we read), nothing else. */
export function requireSignatureOfRoot(root: Element, signatures: Element[]) {
  const references = signatures.flatMap((signature) =>
    childrenNamed(signature, ns.ds, "SignedInfo").flatMap((info) => childrenNamed(info, ns.ds, "Reference")),
  );
  const id = root.getAttribute("ID");
  if (signatures.length !== 1 || references.length !== 1 || !id || references[0]?.getAttribute("URI") !== `#${id}`)
    throw new XmlRefusedError("the signature must cover the request element itself");
}

const strongSignatureAlgorithms = new Set<string>(strongSigningMethods);
const strongDigestAlgorithms = new Set<string>(strongDigests);

/** What the SP's operator must change, when the SP signed with SHA-1 (a stock Shibboleth SP 3.4 by POST). */
const sha1Advice =
  "the SP signed with SHA-1 (RSA-SHA1 or a SHA-1 digest); load the IdP metadata again (it advertises " +
  'RSA-SHA256) or set signingAlg="rsa-sha256" and digestAlg="sha256" in shibboleth2.xml (other SPs: ' +
  "choose RSA-SHA256 for request signing)";

function requireStrong(algorithm: string | null | undefined, strong: Set<string>, what: string) {
  if (algorithm && strong.has(algorithm.trim())) return;
  if (/sha1$/i.test((algorithm ?? "").trim())) throw new SamlRequestRefused(sha1Advice, "saml.weak_signature");
  throw new SamlRequestRefused(`weak or unknown ${what} algorithm ${JSON.stringify((algorithm ?? "").slice(0, 120))}`);
}

/**
 * A signed request (AuthnRequest or LogoutRequest) is refused unless it is signed with RSA-SHA256 or
 * stronger: the redirect binding's SigAlg, or the XML signature's SignatureMethod and every DigestMethod.
 */
export function requireStrongSignature(incoming: IncomingRequest, signatures: Element[]): void {
  if (incoming.binding === "redirect" && incoming.fields.Signature !== undefined)
    requireStrong(incoming.fields.SigAlg, strongSignatureAlgorithms, "signature");
  for (const signature of signatures) {
    for (const info of childrenNamed(signature, ns.ds, "SignedInfo")) {
      for (const method of childrenNamed(info, ns.ds, "SignatureMethod"))
        requireStrong(method.getAttribute("Algorithm"), strongSignatureAlgorithms, "signature");
      for (const reference of childrenNamed(info, ns.ds, "Reference"))
        for (const digest of childrenNamed(reference, ns.ds, "DigestMethod"))
          requireStrong(digest.getAttribute("Algorithm"), strongDigestAlgorithms, "digest");
    }
  }
}

/** The parts of the request read before samlify runs: which SP sent it (to choose whose key verifies it). */
function readRequest(xml: string) {
  guardXml(xml, { maxBytes: maxAuthnRequestBytes, allowComments: false });
  const root = parseXml(xml).documentElement as Element | null;
  if (!root || root.namespaceURI !== ns.samlp || root.localName !== "AuthnRequest")
    throw new XmlRefusedError("expected one samlp:AuthnRequest");
  const contexts = childrenNamed(root, ns.samlp, "RequestedAuthnContext").flatMap((context) =>
    childrenNamed(context, ns.saml, "AuthnContextClassRef").map((ref) => textOf(ref)),
  );
  const signatures = childrenNamed(root, ns.ds, "Signature");
  if (signatures.length > 0) requireSignatureOfRoot(root, signatures);
  return {
    root,
    issuer: textOf(childrenNamed(root, ns.saml, "Issuer")[0]),
    signatures,
    signedInDocument: signatures.length > 0,
    mfaRequested: asksForMultiFactor(contexts),
  };
}

/** The request's AssertionConsumerServiceURL (or index) must name an HTTP-POST endpoint of the SP's metadata. */
function acsUrlOf(root: Element, spMetadata: string): string {
  const descriptor = childrenNamed(parseXml(spMetadata).documentElement as Element, ns.md, "SPSSODescriptor")[0];
  const endpoints = descriptor ? childrenNamed(descriptor, ns.md, "AssertionConsumerService") : [];
  const posts = endpoints.filter((endpoint) => endpoint.getAttribute("Binding") === bindings.post);
  const asked = root.getAttribute("AssertionConsumerServiceURL");
  const index = root.getAttribute("AssertionConsumerServiceIndex");
  const chosen = asked
    ? posts.find((endpoint) => endpoint.getAttribute("Location") === asked)
    : index
      ? posts.find((endpoint) => endpoint.getAttribute("index") === index)
      : (posts.find((endpoint) => xsBoolean(endpoint.getAttribute("isDefault"))) ?? posts[0]);
  if (!chosen) throw new SamlRequestRefused("the assertion consumer service is not in the SP's metadata");
  return chosen.getAttribute("Location") ?? "";
}

/** The SP's metadata asks for signed requests. */
function requiresSignedRequests(spMetadata: string): boolean {
  const descriptor = childrenNamed(parseXml(spMetadata).documentElement as Element, ns.md, "SPSSODescriptor")[0];
  return xsBoolean(descriptor?.getAttribute("AuthnRequestsSigned"));
}

/** Each request id is answered once: a second arrival is a replay. */
export async function rememberRequestId(db: Db, spEntityId: string, requestId: string, now: Date) {
  const inserted = await rememberSeenRequest(db, {
    spEntityId,
    requestId,
    now,
    expiresAt: new Date(now.getTime() + seenRequestSeconds * 1000),
  });
  if (!inserted) throw new SamlRequestRefused("the request id was already used (replay)");
}

/**
 * Checks an AuthnRequest: a known SP, its signature (always when the SP's
 * metadata says AuthnRequestsSigned, and whenever one is present), an
 * assertion consumer URL from its metadata, an id never seen before.
 */
export async function acceptAuthnRequest(
  db: Db,
  options: { idpEntityId: string; ssoUrl: string; key: SamlKey; now: Date },
  incoming: IncomingRequest,
): Promise<AcceptedAuthnRequest> {
  const xml = decodeXml(incoming);
  const { root, issuer, signatures, signedInDocument, mfaRequested } = readRequest(xml);
  const sp = issuer ? await findServiceProvider(db, issuer, options.now) : undefined;
  if (!sp) throw new SamlRequestRefused(`unknown service provider ${JSON.stringify(issuer.slice(0, 200))}`);
  requireStrongSignature(incoming, signatures);
  const signed = incoming.binding === "redirect" ? incoming.fields.Signature !== undefined : signedInDocument;
  const verify = signed || requiresSignedRequests(sp.metadata_xml);
  const { idp, sp: spEntity } = samlEntities({ ...options, sp, wantAuthnRequestsSigned: verify });
  const request =
    incoming.binding === "redirect"
      ? { query: incoming.fields, octetString: signedOctets(incoming.rawQuery) }
      : { body: { ...incoming.fields, SAMLRequest: Buffer.from(xml).toString("base64") } };
  try {
    await idp.parseLoginRequest(spEntity, incoming.binding, request);
  } catch (error) {
    throw new SamlRequestRefused(`the request failed verification: ${error instanceof Error ? error.message : error}`);
  }
  const requestId = root.getAttribute("ID") ?? "";
  if (!/^[A-Za-z_][\w.-]{0,255}$/.test(requestId)) throw new SamlRequestRefused("the request has no valid ID");
  const acsUrl = acsUrlOf(root, sp.metadata_xml);
  await rememberRequestId(db, sp.entity_id, requestId, options.now);
  return {
    sp,
    requestId,
    acsUrl,
    relayState: incoming.fields.RelayState ?? null,
    forceAuthn: xsBoolean(root.getAttribute("ForceAuthn")),
    isPassive: xsBoolean(root.getAttribute("IsPassive")),
    mfaRequested,
  };
}

/** saml-bindings §3.4.4.1: the signed octets are the raw (still encoded) parameters, in this order. */
export function signedOctets(rawQuery: string, type: "SAMLRequest" | "SAMLResponse" = "SAMLRequest"): string {
  const raw = new Map<string, string>();
  for (const pair of rawQuery.split("&")) {
    const at = pair.indexOf("=");
    if (at > 0) raw.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return [type, "RelayState", "SigAlg"]
    .filter((name) => raw.has(name))
    .map((name) => `${name}=${raw.get(name)}`)
    .join("&");
}

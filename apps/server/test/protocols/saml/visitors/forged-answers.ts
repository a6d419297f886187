import { randomUUID } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import type { TestKeyPair } from "../keys.ts";
import { signEnveloped } from "../sign.ts";

const md = "urn:oasis:names:tc:SAML:2.0:metadata";
const saml = "urn:oasis:names:tc:SAML:2.0:assertion";
const samlp = "urn:oasis:names:tc:SAML:2.0:protocol";

/** An institution's metadata as a federation lists it, for a key the test holds. */
export function institutionMetadata(entityId: string, scope: string, key: TestKeyPair, name: string): string {
  return `<md:EntityDescriptor xmlns:md="${md}" xmlns:shibmd="urn:mace:shibboleth:metadata:1.0" xmlns:mdui="urn:oasis:names:tc:SAML:metadata:ui" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:Extensions><shibmd:Scope regexp="false">${scope}</shibmd:Scope><mdui:UIInfo><mdui:DisplayName xml:lang="en">${name}</mdui:DisplayName></mdui:UIInfo></md:Extensions><md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${key.certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://${scope}/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
}

/** The ID of the AuthnRequest in an HTTP-Redirect address: what an answer's InResponseTo must name. */
export function authnRequestIdOf(redirect: string): string {
  const encoded = new URL(redirect).searchParams.get("SAMLRequest") ?? "";
  const xml = inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8");
  return /\sID="([^"]+)"/.exec(xml)?.[1] ?? "";
}

export interface ForgedAnswer {
  issuer: string;
  inResponseTo: string;
  audience: string;
  destination: string;
  subjectId: string;
  notOnOrAfter: Date;
  /** Signs the assertion with this key; none: unsigned. */
  key?: TestKeyPair;
}

/** A Response in the shape institutions send (one assertion, its own enveloped signature), made to order. */
export function forgedResponse(answer: ForgedAnswer): string {
  const now = new Date(answer.notOnOrAfter.getTime() - 5 * 60_000).toISOString();
  const until = answer.notOnOrAfter.toISOString();
  const assertionId = `_a${randomUUID().replace(/-/g, "")}`;
  let assertion = `<saml:Assertion xmlns:saml="${saml}" ID="${assertionId}" Version="2.0" IssueInstant="${now}"><saml:Issuer>${answer.issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:transient">_t1</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${answer.destination}" InResponseTo="${answer.inResponseTo}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${now}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${answer.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${now}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="urn:oasis:names:tc:SAML:attribute:subject-id" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri"><saml:AttributeValue>${answer.subjectId}</saml:AttributeValue></saml:Attribute><saml:Attribute Name="urn:oid:2.16.840.1.113730.3.1.241" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri"><saml:AttributeValue>Forged Person</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion>`;
  if (answer.key) assertion = signEnveloped(assertion, answer.key, "after-issuer");
  const xml = `<samlp:Response xmlns:samlp="${samlp}" xmlns:saml="${saml}" ID="_r${randomUUID().replace(/-/g, "")}" Version="2.0" IssueInstant="${now}" Destination="${answer.destination}" InResponseTo="${answer.inResponseTo}"><saml:Issuer>${answer.issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
  return Buffer.from(xml).toString("base64");
}

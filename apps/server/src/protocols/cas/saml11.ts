import { randomBytes } from "node:crypto";
import { DOMImplementation, DOMParser, type Element, XMLSerializer } from "@xmldom/xmldom";
import type { CasFailure, CasValidation } from "./answer-types.ts";

/**
 * CAS's SAML 1.1 validation (Apereo CAS's /samlValidate, which phpCAS calls with SAML_VERSION_1_1 and Moodle offers
 * as "SAML 1.1"): the ticket arrives as the AssertionArtifact of a SOAP-wrapped samlp:Request, the answer is a
 * SOAP-wrapped saml1p:Response whose assertion names the person (NameIdentifier) and carries the same attributes as
 * /p3/serviceValidate. Loaded with the first such validation.
 */
const soapNamespace = "http://schemas.xmlsoap.org/soap/envelope/";
const protocolNamespace = "urn:oasis:names:tc:SAML:1.0:protocol";
const assertionNamespace = "urn:oasis:names:tc:SAML:1.0:assertion";
/** The attribute namespace Apereo CAS writes (and phpCAS ignores). */
const casAttributeNamespace = "http://www.ja-sig.org/products/cas/";
/** How long the assertion is good for, as Apereo CAS's default issue length. */
const assertionSeconds = 30;

/**
 * The ticket in a samlp:Request's AssertionArtifact, or undefined for anything else. A document type declaration
 * is refused before parsing (no entity of any kind is expanded); phpCAS URL-encodes the ticket it sends.
 */
export function ticketOfSamlRequest(body: string): string | undefined {
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) return undefined;
  let failed = false;
  let artifact: Element | null | undefined;
  try {
    const document = new DOMParser({
      onError: (level) => {
        if (level !== "warning") failed = true;
      },
    }).parseFromString(body, "text/xml");
    artifact = document.getElementsByTagNameNS(protocolNamespace, "AssertionArtifact").item(0);
  } catch {
    return undefined; // xmldom throws on a fatal error (no root element, unclosed markup)
  }
  if (failed) return undefined;
  const text = artifact?.textContent?.trim();
  if (!text || text.length > 512) return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

const samlId = () => `_${randomBytes(16).toString("hex")}`;

/** The SOAP envelope with a saml1p:Response for this validation: a success with the assertion, or the refusal. */
export function samlValidationXml(
  answer: CasValidation | CasFailure,
  context: { issuer: string; service: string | undefined; now: Date },
): string {
  const document = new DOMImplementation().createDocument(soapNamespace, "SOAP-ENV:Envelope", null);
  const envelope = document.documentElement;
  if (!envelope) throw new Error("xmldom made no root element");
  const add = (parent: Element, namespace: string, name: string, text?: string) => {
    const element = document.createElementNS(namespace, name);
    if (text !== undefined) element.appendChild(document.createTextNode(text));
    parent.appendChild(element);
    return element;
  };
  const instant = context.now.toISOString();
  add(envelope, soapNamespace, "SOAP-ENV:Header");
  const response = add(add(envelope, soapNamespace, "SOAP-ENV:Body"), protocolNamespace, "saml1p:Response");
  for (const [name, value] of [
    ["IssueInstant", instant],
    ["MajorVersion", "1"],
    ["MinorVersion", "1"],
    ["ResponseID", samlId()],
    ...(context.service ? [["Recipient", context.service]] : []),
  ] as const) {
    response.setAttribute(name, value);
  }
  const status = add(response, protocolNamespace, "saml1p:Status");
  if (answer.kind === "failure") {
    // INVALID_REQUEST is the client's fault (Requester); a ticket or service refused is the server's answer.
    const code = answer.code === "INVALID_REQUEST" ? "saml1p:Requester" : "saml1p:Responder";
    add(status, protocolNamespace, "saml1p:StatusCode").setAttribute("Value", code);
    add(status, protocolNamespace, "saml1p:StatusMessage", `${answer.code}: ${answer.description}`);
    return new XMLSerializer().serializeToString(document);
  }
  add(status, protocolNamespace, "saml1p:StatusCode").setAttribute("Value", "saml1p:Success");
  const assertion = add(response, assertionNamespace, "saml1:Assertion");
  for (const [name, value] of [
    ["AssertionID", samlId()],
    ["IssueInstant", instant],
    ["Issuer", context.issuer],
    ["MajorVersion", "1"],
    ["MinorVersion", "1"],
  ] as const) {
    assertion.setAttribute(name, value);
  }
  const conditions = add(assertion, assertionNamespace, "saml1:Conditions");
  conditions.setAttribute("NotBefore", instant);
  conditions.setAttribute("NotOnOrAfter", new Date(context.now.getTime() + assertionSeconds * 1000).toISOString());
  if (context.service) {
    const audience = add(conditions, assertionNamespace, "saml1:AudienceRestrictionCondition");
    add(audience, assertionNamespace, "saml1:Audience", context.service);
  }
  const subject = (parent: Element) => {
    const element = add(parent, assertionNamespace, "saml1:Subject");
    add(element, assertionNamespace, "saml1:NameIdentifier", answer.user);
    const confirmation = add(element, assertionNamespace, "saml1:SubjectConfirmation");
    add(confirmation, assertionNamespace, "saml1:ConfirmationMethod", "urn:oasis:names:tc:SAML:1.0:cm:artifact");
  };
  const attributes = answer.attributes ?? {};
  const authentication = add(assertion, assertionNamespace, "saml1:AuthenticationStatement");
  authentication.setAttribute("AuthenticationInstant", attributes.authenticationDate?.[0] ?? instant);
  authentication.setAttribute("AuthenticationMethod", "urn:oasis:names:tc:SAML:1.0:am:unspecified");
  subject(authentication);
  const statement = add(assertion, assertionNamespace, "saml1:AttributeStatement");
  subject(statement);
  for (const [name, values] of Object.entries(attributes)) {
    const attribute = add(statement, assertionNamespace, "saml1:Attribute");
    attribute.setAttribute("AttributeName", name);
    attribute.setAttribute("AttributeNamespace", casAttributeNamespace);
    for (const value of values) add(attribute, assertionNamespace, "saml1:AttributeValue", value);
  }
  return new XMLSerializer().serializeToString(document);
}

import { randomBytes } from "node:crypto";
import { DOMImplementation, type Element, XMLSerializer } from "@xmldom/xmldom";
import type { ReleasedAttribute } from "./attributes.ts";
import { type EntityOptions, samlEntities } from "./entities.ts";
import { nameIdFormats, ns, rsaSha256, statusCodes } from "./namespaces.ts";
import { samlify } from "./samlify.ts";

/** How long an assertion may be presented: enough for a form post, no more. */
export const assertionSeconds = 300;

export interface Addressee {
  idpEntityId: string;
  spEntityId: string;
  acsUrl: string;
  requestId: string;
  now: Date;
}

export interface Assertion {
  nameId: string;
  sessionIndex: string;
  authnInstant: Date;
  authnContext: string;
  attributes: ReleasedAttribute[];
}

/** SAML identifiers start with a letter or '_' (xs:ID). */
export const newSamlId = () => `_${randomBytes(20).toString("hex")}`;
const instant = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

/** Builds the unsigned `<samlp:Response>`: xmldom escapes every value; samlify signs and encrypts it. */
function responseDocument(to: Addressee, status: string, assertion?: Assertion): string {
  const document = new DOMImplementation().createDocument(ns.samlp, "samlp:Response", null);
  const root = document.documentElement as Element;
  const add = (
    parent: Element,
    namespace: string,
    name: string,
    attributes: Record<string, string> = {},
    text?: string,
  ) => {
    const element = document.createElementNS(namespace, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    if (text !== undefined) element.appendChild(document.createTextNode(text));
    parent.appendChild(element);
    return element;
  };
  const now = instant(to.now);
  const expires = instant(new Date(to.now.getTime() + assertionSeconds * 1000));
  root.setAttributeNS(ns.xmlns, "xmlns:saml", ns.saml);
  for (const [key, value] of Object.entries({
    ID: newSamlId(),
    Version: "2.0",
    IssueInstant: now,
    Destination: to.acsUrl,
    InResponseTo: to.requestId,
  }))
    root.setAttribute(key, value);
  add(root, ns.saml, "saml:Issuer", {}, to.idpEntityId);
  const statusElement = add(root, ns.samlp, "samlp:Status");
  const topLevel = status === statusCodes.success ? status : statusCodes.responder;
  const code = add(statusElement, ns.samlp, "samlp:StatusCode", { Value: topLevel });
  if (topLevel !== status) add(code, ns.samlp, "samlp:StatusCode", { Value: status });
  if (!assertion) return new XMLSerializer().serializeToString(document);

  const element = add(root, ns.saml, "saml:Assertion", { ID: newSamlId(), Version: "2.0", IssueInstant: now });
  add(element, ns.saml, "saml:Issuer", {}, to.idpEntityId);
  const subject = add(element, ns.saml, "saml:Subject");
  add(
    subject,
    ns.saml,
    "saml:NameID",
    { Format: nameIdFormats.persistent, NameQualifier: to.idpEntityId, SPNameQualifier: to.spEntityId },
    assertion.nameId,
  );
  const confirmation = add(subject, ns.saml, "saml:SubjectConfirmation", {
    Method: "urn:oasis:names:tc:SAML:2.0:cm:bearer",
  });
  add(confirmation, ns.saml, "saml:SubjectConfirmationData", {
    NotOnOrAfter: expires,
    Recipient: to.acsUrl,
    InResponseTo: to.requestId,
  });
  const conditions = add(element, ns.saml, "saml:Conditions", { NotBefore: now, NotOnOrAfter: expires });
  add(add(conditions, ns.saml, "saml:AudienceRestriction"), ns.saml, "saml:Audience", {}, to.spEntityId);
  const authn = add(element, ns.saml, "saml:AuthnStatement", {
    AuthnInstant: instant(assertion.authnInstant),
    SessionIndex: assertion.sessionIndex,
  });
  add(add(authn, ns.saml, "saml:AuthnContext"), ns.saml, "saml:AuthnContextClassRef", {}, assertion.authnContext);
  if (assertion.attributes.length > 0) {
    const statement = add(element, ns.saml, "saml:AttributeStatement");
    for (const attribute of assertion.attributes) {
      const attributeElement = add(statement, ns.saml, "saml:Attribute", {
        Name: attribute.name,
        FriendlyName: attribute.friendlyName,
        NameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:uri",
      });
      for (const value of attribute.values) add(attributeElement, ns.saml, "saml:AttributeValue", {}, value);
    }
  }
  return new XMLSerializer().serializeToString(document);
}

/** A successful answer: the assertion signed (RSA-SHA256), encrypted to the SP's key when its policy says so. */
export async function signedLoginResponse(
  entities: EntityOptions,
  to: Addressee,
  assertion: Assertion,
): Promise<string> {
  const { idp, sp } = samlEntities(entities);
  const xml = responseDocument(to, statusCodes.success, assertion);
  const result = await idp.createLoginResponse(
    sp,
    { extract: { request: { id: to.requestId } } },
    "post",
    {},
    {
      customTagReplacement: () => ({ id: "", context: xml }),
      // A Response signature made before encryption would cover an assertion the SP never sees.
      encryptThenSign: true,
    },
  );
  return result.context;
}

/** A status-only answer (NoPassive, NoAuthnContext, RequestDenied): the response itself is signed. */
export function signedStatusResponse(entities: EntityOptions, to: Addressee, status: string): string {
  return samlify.SamlLib.constructSAMLSignature({
    rawSamlMessage: responseDocument(to, status),
    privateKey: entities.key.privateKeyPem,
    signingCert: entities.key.certificate,
    signatureAlgorithm: rsaSha256,
    isBase64Output: true,
    isMessageSigned: true,
    signatureConfig: {
      prefix: "ds",
      location: { reference: "/*[local-name(.)='Response']/*[local-name(.)='Issuer']", action: "after" },
    },
  });
}

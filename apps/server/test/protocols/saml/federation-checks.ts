import { DOMParser, type Element } from "@xmldom/xmldom";

// The checks of the eduGAIN metadata profile and the REFEDS specifications
// that can run without the federation's own tooling, one small named check each.
const ns = {
  md: "urn:oasis:names:tc:SAML:2.0:metadata",
  mdui: "urn:oasis:names:tc:SAML:metadata:ui",
  mdattr: "urn:oasis:names:tc:SAML:metadata:attribute",
  saml: "urn:oasis:names:tc:SAML:2.0:assertion",
  shibmd: "urn:mace:shibboleth:metadata:1.0",
  remd: "http://refeds.org/metadata",
  ds: "http://www.w3.org/2000/09/xmldsig#",
};

type Check = (entity: Element) => string | undefined;

const all = (root: Element, namespace: string, name: string) =>
  Array.from(root.getElementsByTagNameNS(namespace, name));
const text = (element: Element) => (element.textContent ?? "").trim();
const inLanguage = (elements: Element[], lang: string) =>
  elements.some((element) => element.getAttribute("xml:lang") === lang && text(element) !== "");

const entityIdIsAbsoluteUri: Check = (entity) =>
  /^https?:\/\/[^\s]+$/.test(entity.getAttribute("entityID") ?? "") ? undefined : "entityID is not an absolute URL";
const entityIdShortEnough: Check = (entity) =>
  (entity.getAttribute("entityID") ?? "").length <= 1024 ? undefined : "entityID longer than 1024 characters";
const hasIdpRole: Check = (entity) =>
  all(entity, ns.md, "IDPSSODescriptor").length === 1 ? undefined : "no single IDPSSODescriptor";
const hasScope: Check = (entity) =>
  all(entity, ns.shibmd, "Scope").some((scope) => scope.getAttribute("regexp") === "false" && text(scope) !== "")
    ? undefined
    : "no literal shibmd:Scope";
const displayNameInEnglish: Check = (entity) =>
  inLanguage(all(entity, ns.mdui, "DisplayName"), "en") ? undefined : "no mdui:DisplayName in English";
const descriptionInEnglish: Check = (entity) =>
  inLanguage(all(entity, ns.mdui, "Description"), "en") ? undefined : "no mdui:Description in English";
const privacyStatement: Check = (entity) =>
  all(entity, ns.mdui, "PrivacyStatementURL").every((url) => /^https?:\/\//.test(text(url))) &&
  inLanguage(all(entity, ns.mdui, "PrivacyStatementURL"), "en")
    ? undefined
    : "no mdui:PrivacyStatementURL in English";
const logoHasSize: Check = (entity) =>
  all(entity, ns.mdui, "Logo").every((logo) => logo.getAttribute("height") && logo.getAttribute("width"))
    ? undefined
    : "mdui:Logo without height and width";
const organizationComplete: Check = (entity) =>
  ["OrganizationName", "OrganizationDisplayName", "OrganizationURL"].every((name) =>
    inLanguage(all(entity, ns.md, name), "en"),
  )
    ? undefined
    : "md:Organization incomplete in English";
const technicalContact: Check = (entity) =>
  all(entity, ns.md, "ContactPerson").some(
    (contact) => contact.getAttribute("contactType") === "technical" && all(contact, ns.md, "EmailAddress").length,
  )
    ? undefined
    : "no technical contact with an e-mail address";
const securityContact: Check = (entity) =>
  all(entity, ns.md, "ContactPerson").some(
    (contact) =>
      contact.getAttribute("contactType") === "other" &&
      contact.getAttributeNS(ns.remd, "contactType") === "http://refeds.org/metadata/contactType/security" &&
      all(contact, ns.md, "EmailAddress").some((email) => text(email).startsWith("mailto:")),
  )
    ? undefined
    : "no REFEDS security contact (required by Sirtfi)";
const signingCertificate: Check = (entity) =>
  all(entity, ns.md, "KeyDescriptor").some(
    (key) => key.getAttribute("use") !== "encryption" && all(key, ns.ds, "X509Certificate").length,
  )
    ? undefined
    : "no signing certificate";
const endpointsAreHttps =
  (requireHttps: boolean): Check =>
  (entity) =>
    !requireHttps ||
    [...all(entity, ns.md, "SingleSignOnService"), ...all(entity, ns.md, "SingleLogoutService")].every((endpoint) =>
      (endpoint.getAttribute("Location") ?? "").startsWith("https://"),
    )
      ? undefined
      : "an endpoint is not https";

export function entityAttributeValues(entity: Element, name: string): string[] {
  return all(entity, ns.mdattr, "EntityAttributes")
    .flatMap((group) => all(group, ns.saml, "Attribute"))
    .filter((attribute) => attribute.getAttribute("Name") === name)
    .flatMap((attribute) => all(attribute, ns.saml, "AttributeValue").map(text));
}

const sirtfiNeedsSecurityContact: Check = (entity) =>
  entityAttributeValues(entity, "urn:oasis:names:tc:SAML:attribute:assurance-certification").includes(
    "https://refeds.org/sirtfi",
  )
    ? securityContact(entity)
    : undefined;

/** Problems eduGAIN's validator and REFEDS would report; an empty list passes. */
export function federationProblems(xml: string, options: { requireHttps: boolean }): string[] {
  const entity = new DOMParser().parseFromString(xml, "text/xml").documentElement as Element;
  const checks: Check[] = [
    entityIdIsAbsoluteUri,
    entityIdShortEnough,
    hasIdpRole,
    hasScope,
    displayNameInEnglish,
    descriptionInEnglish,
    privacyStatement,
    logoHasSize,
    organizationComplete,
    technicalContact,
    securityContact,
    sirtfiNeedsSecurityContact,
    signingCertificate,
    endpointsAreHttps(options.requireHttps),
  ];
  return checks.map((check) => check(entity)).filter((problem): problem is string => problem !== undefined);
}

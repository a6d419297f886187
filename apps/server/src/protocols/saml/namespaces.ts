import { refedsMfa } from "../../model/sessions/strength.ts";

/** XML namespaces and URIs of SAML metadata, the federation profiles and the attribute profiles. */
export const ns = {
  md: "urn:oasis:names:tc:SAML:2.0:metadata",
  saml: "urn:oasis:names:tc:SAML:2.0:assertion",
  samlp: "urn:oasis:names:tc:SAML:2.0:protocol",
  ds: "http://www.w3.org/2000/09/xmldsig#",
  mdui: "urn:oasis:names:tc:SAML:metadata:ui",
  mdattr: "urn:oasis:names:tc:SAML:metadata:attribute",
  mdrpi: "urn:oasis:names:tc:SAML:metadata:rpi",
  shibmd: "urn:mace:shibboleth:metadata:1.0",
  remd: "http://refeds.org/metadata",
  alg: "urn:oasis:names:tc:SAML:metadata:algsupport",
  xml: "http://www.w3.org/XML/1998/namespace",
  xmlns: "http://www.w3.org/2000/xmlns/",
} as const;

export const bindings = {
  redirect: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect",
  post: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
} as const;

export const nameIdFormats = {
  persistent: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  transient: "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
} as const;

export const entityAttributeNames = {
  assuranceCertification: "urn:oasis:names:tc:SAML:attribute:assurance-certification",
  entityCategory: "http://macedir.org/entity-category",
  entityCategorySupport: "http://macedir.org/entity-category-support",
} as const;

export const refeds = {
  sirtfi: "https://refeds.org/sirtfi",
  researchAndScholarship: "http://refeds.org/category/research-and-scholarship",
  securityContact: "http://refeds.org/metadata/contactType/security",
} as const;

export const authnContexts = {
  passwordProtectedTransport: "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport",
  mfa: refedsMfa,
} as const;

export const rsaSha256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";

/** The status codes of SAML responses (saml-core §3.2.2.2) the IdP answers with. */
export const statusCodes = {
  success: "urn:oasis:names:tc:SAML:2.0:status:Success",
  responder: "urn:oasis:names:tc:SAML:2.0:status:Responder",
  requester: "urn:oasis:names:tc:SAML:2.0:status:Requester",
  noPassive: "urn:oasis:names:tc:SAML:2.0:status:NoPassive",
  noAuthnContext: "urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext",
  requestDenied: "urn:oasis:names:tc:SAML:2.0:status:RequestDenied",
} as const;

/**
 * What KPI ID accepts on a signed request (RSA-SHA256 and stronger; SHA-1 signatures can be forged for chosen
 * content): the metadata advertises them (SAML V2.0 Metadata Profile for Algorithm Support), and Shibboleth
 * and other SPs read them to choose how to sign (docs/saml.md). Order is preference, and a Shibboleth SP takes
 * the first it supports: RSA-SHA256 first, the algorithm every SP and library has (the e2e Shibboleth SP
 * picked RSA-SHA512 when it came first).
 */
export const strongDigests = [
  "http://www.w3.org/2001/04/xmlenc#sha256",
  "http://www.w3.org/2001/04/xmldsig-more#sha384",
  "http://www.w3.org/2001/04/xmlenc#sha512",
] as const;
export const strongSigningMethods = [
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256",
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384",
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512",
  "http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1",
] as const;

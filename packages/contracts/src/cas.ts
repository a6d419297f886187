import { z } from "zod";
import { text } from "./text.ts";

/**
 * CAS Protocol 3.0 under /cas (docs/cas.md): the paths a CAS client is configured with, and what a service's
 * validation may release about the person, under the names CAS clients match on.
 */
export const casPaths = {
  login: "/cas/login",
  logout: "/cas/logout",
  validate: "/cas/validate",
  serviceValidate: "/cas/serviceValidate",
  proxyValidate: "/cas/proxyValidate",
  p3ServiceValidate: "/cas/p3/serviceValidate",
  p3ProxyValidate: "/cas/p3/proxyValidate",
  proxy: "/cas/proxy",
  /** SAML 1.1 validation (a SOAP POST, Apereo CAS's /samlValidate): phpCAS's and Moodle's "SAML 1.1" version. */
  samlValidate: "/cas/samlValidate",
  continue: "/cas/continue",
} as const;

/**
 * The person's attributes a service may be released, each the ticket exchange's field of the same data kind
 * (the consent screen names those kinds): uid (the username, also `cas:user`), userId (the stable id),
 * displayName, studentId and employeeId, affiliation (several values) and the primary records' status, unit
 * and faculty, authMethod, amr and acr (how the person signed in: the ticket exchange's AUTH_AMR, one value per
 * method, and AUTH_ACR, OpenID Connect's amr and acr), and taxId only for an application allowed the tax id.
 * mail (the address KPI ID saw proven), givenName and sn (the name's parts, as OpenID Connect's given_name and
 * family_name and SAML's givenName and sn) are what campus applications create accounts from (issue 73).
 */
export const casAttributeNames = [
  "uid",
  "userId",
  "displayName",
  "studentId",
  "employeeId",
  "affiliation",
  "studentStatus",
  "studentUnit",
  "studentFaculty",
  "employeeStatus",
  "employeeUnit",
  "employeeFaculty",
  "authMethod",
  "amr",
  "acr",
  "taxId",
  "mail",
  "givenName",
  "sn",
] as const;
export type CasAttributeName = (typeof casAttributeNames)[number];

/**
 * Released only to a service that names them: the tax id, and the attributes added after services were registered
 * (a service registered before them was approved without them, so it must not start releasing them unasked).
 */
export const casNamedOnlyAttributes: readonly CasAttributeName[] = ["taxId", "mail", "givenName", "sn"];

/** What a service releases when its operator names nothing: everything but casNamedOnlyAttributes. */
export const casDefaultAttributes: readonly CasAttributeName[] = casAttributeNames.filter(
  (name) => !casNamedOnlyAttributes.includes(name),
);

/** CAS 3.0's own attributes about the authentication, which every validation releases under these names. */
export const casProtocolAttributeNames = [
  "authenticationDate",
  "isFromNewLogin",
  "longTermAuthenticationRequestTokenUsed",
] as const;

/**
 * A name a service's plugin expects instead of KPI ID's (Apereo CAS's renamed attributes): the XML answer writes it
 * as an element's name under cas:attributes, so only a letter, then letters, digits, "_", "." or "-".
 */
export const casReleasedNamePattern = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/** Per service, the attributes released under another name (mail → email for GitLab): KPI ID's name → the new one. */
export const casAttributeRenamesSchema = z.partialRecord(z.enum(casAttributeNames), text().max(64));
export type CasAttributeRenames = z.infer<typeof casAttributeRenamesSchema>;

/** The CAS 3.0 validation failure codes (specification §2.5.3, §2.7.2). */
export const casFailureCodes = [
  "INVALID_REQUEST",
  "INVALID_TICKET_SPEC",
  "UNAUTHORIZED_SERVICE_PROXY",
  "INVALID_PROXY_CALLBACK",
  "INVALID_TICKET",
  "INVALID_SERVICE",
  "UNAUTHORIZED_SERVICE",
  "INTERNAL_ERROR",
] as const;
export type CasFailureCode = (typeof casFailureCodes)[number];

/** One of an application's CAS services as the console shows it. */
export const casServiceViewSchema = z.object({
  url: text(),
  match: z.enum(["exact", "prefix"]),
  attributes: z.array(z.enum(casAttributeNames)),
  renames: casAttributeRenamesSchema,
  singleLogout: z.boolean(),
  proxy: z.boolean(),
});
export type CasServiceView = z.infer<typeof casServiceViewSchema>;

/** GET /api/admin/applications/{id}/cas-services: the server URL CAS clients are given, and the services. */
export const casServicesSchema = z.object({ serverUrl: text(), services: z.array(casServiceViewSchema) });
export type CasServices = z.infer<typeof casServicesSchema>;

/** Registers or changes one service (POST /api/admin/applications/{id}/cas-services). */
export const casServiceRequestSchema = z.object({
  url: text().trim().min(1).max(2048),
  prefix: z.boolean().default(false),
  singleLogout: z.boolean().default(false),
  proxy: z.boolean().default(false),
  /** Empty or left out: every attribute but the tax id. */
  attributes: z.array(z.enum(casAttributeNames)).max(casAttributeNames.length).default([]),
  /** Empty or left out: each attribute under KPI ID's name; 400 cas.rename_invalid (model/cas/release-policy.ts). */
  renames: casAttributeRenamesSchema.default({}),
});
export type CasServiceRequest = z.input<typeof casServiceRequestSchema>;

/** Forgets one service (POST /api/admin/applications/{id}/cas-services/remove). */
export const casServiceRemoveSchema = z.object({ url: text().max(2048) });

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
] as const;
export type CasAttributeName = (typeof casAttributeNames)[number];

/** What a service releases when its operator names nothing: everything but the tax id. */
export const casDefaultAttributes: readonly CasAttributeName[] = casAttributeNames.filter((name) => name !== "taxId");

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
});
export type CasServiceRequest = z.input<typeof casServiceRequestSchema>;

/** Forgets one service (POST /api/admin/applications/{id}/cas-services/remove). */
export const casServiceRemoveSchema = z.object({ url: text().max(2048) });

import { z } from "zod";
import { text } from "./text.ts";
import { applicationPublisherSchema } from "./ticket-consent.ts";

/** GET /api/oidc/interaction/{uid}/details: what an application asks for, for the consent screen. */
export const consentDetailsSchema = z.object({
  application: z.object({ title: text(), description: text() }),
  /** The requested scopes the person is asked about (`openid` itself is not shown). */
  scopes: z.array(text()),
  person: z.object({ name: text() }),
  /**
   * Whether the person may use the application. Without access the screen says so and who to ask,
   * and its one button returns to the application with `access_denied`.
   */
  access: z.boolean(),
  /**
   * False for an application registered on the developers' page that operators have not approved: the screen
   * marks it "not reviewed by the university". Absent for the others (reviewed by being made by an operator).
   */
  reviewed: z.boolean().optional(),
  /** Without access because the application is still in testing: the screen says so instead of "no access". */
  inTesting: z.boolean().optional(),
  /** A community application's pages and owners (issue 56); absent for an operator's own. */
  publisher: applicationPublisherSchema.optional(),
});
export type ConsentDetails = z.infer<typeof consentDetailsSchema>;

/** POST /api/oidc/interaction/{uid}/consent: the person's answer. */
export const consentAnswerSchema = z.object({ allow: z.boolean() });
export type ConsentAnswer = z.infer<typeof consentAnswerSchema>;

/** Where the browser goes next: back to the application, with a code or with access_denied. */
export const consentOutcomeSchema = z.object({ redirectTo: text() });
export type ConsentOutcome = z.infer<typeof consentOutcomeSchema>;

/** Where the consent screen reads and answers a SAML service provider's request: /{samlConsentPath}/{id}. */
export const samlConsentPath = "/api/saml/consent";

/** GET {samlConsentPath}/{id}: what a SAML service provider would receive (attribute friendly names). */
export const samlConsentDetailsSchema = z.object({
  application: z.object({ title: text(), description: text() }),
  /** Friendly names (eduPersonPrincipalName, mail, …) of the attributes it would receive, besides its pseudonymous NameID. */
  attributes: z.array(text()),
  person: z.object({ name: text() }),
});
export type SamlConsentDetails = z.infer<typeof samlConsentDetailsSchema>;

/**
 * The device sign-in page (/{lang}/device, RFC 8628) talks to the provider's own endpoint
 * {oidcDevicePath}: GET answers the form token of this browser's provider session, POST
 * (form-encoded `xsrf`, `user_code`) the request the code stands for. Allow and Deny are the
 * provider's form posted by the browser itself (`confirm=yes` or `abort=yes`, with `xsrf` and
 * `user_code`), which ends back on the page with `?result=allowed|denied` or `?error=CODE`.
 */
export const oidcDevicePath = "/oidc/device";

/** GET {oidcDevicePath} with Accept: application/json. */
export const deviceFormSchema = z.object({ xsrf: text() });
export type DeviceForm = z.infer<typeof deviceFormSchema>;

/** POST {oidcDevicePath}: what the device asks for, to confirm. */
export const deviceRequestSchema = z.object({
  xsrf: text(),
  /** The code as the device shows it (`1234-5678`), for the person to compare. */
  userCode: text(),
  application: z.object({ title: text(), description: text() }),
  /** The scopes the device asks for (`openid` itself is not shown), in words on the page as on the consent screen. */
  scopes: z.array(text()),
  person: z.object({ name: text() }),
  /** Whether the person may use the application; without access the page offers only Deny. */
  access: z.boolean(),
  /** As on the consent screen: false for an application operators have not approved yet (issue 56). */
  reviewed: z.boolean().optional(),
});
export type DeviceRequest = z.infer<typeof deviceRequestSchema>;

/** A user code as a person may type it: digits, maybe with a dash or spaces (the provider ignores them). */
export const deviceUserCodeSchema = text().regex(/^[0-9A-Za-z -]{1,24}$/);

/** POST /api/device/continue: the device page of a person not yet signed in; the sign-in comes back to it. */
export const deviceContinueSchema = z.object({ userCode: deviceUserCodeSchema.optional() });
export type DeviceContinue = z.infer<typeof deviceContinueSchema>;

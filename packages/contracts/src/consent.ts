import { z } from "zod";
import { text } from "./text.ts";

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

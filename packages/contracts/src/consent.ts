import { z } from "zod";
import { text } from "./text.ts";

/** GET /api/oidc/interaction/{uid}/details: what an application asks for, for the consent screen. */
export const consentDetailsSchema = z.object({
  application: z.object({ title: text(), description: text() }),
  /** The requested scopes the person is asked about (`openid` itself is not shown). */
  scopes: z.array(text()),
  person: z.object({ name: text() }),
});
export type ConsentDetails = z.infer<typeof consentDetailsSchema>;

/** POST /api/oidc/interaction/{uid}/consent: the person's answer. */
export const consentAnswerSchema = z.object({ allow: z.boolean() });
export type ConsentAnswer = z.infer<typeof consentAnswerSchema>;

/** Where the browser goes next: back to the application, with a code or with access_denied. */
export const consentOutcomeSchema = z.object({ redirectTo: text() });
export type ConsentOutcome = z.infer<typeof consentOutcomeSchema>;

import { z } from "zod";

/** GET /api/oidc/interaction/{uid}/details: what an application asks for, for the consent screen. */
export const consentDetailsSchema = z.object({
  application: z.object({ title: z.string(), description: z.string() }),
  /** The requested scopes the person is asked about (`openid` itself is not shown). */
  scopes: z.array(z.string()),
  person: z.object({ name: z.string() }),
});
export type ConsentDetails = z.infer<typeof consentDetailsSchema>;

/** POST /api/oidc/interaction/{uid}/consent: the person's answer. */
export const consentAnswerSchema = z.object({ allow: z.boolean() });
export type ConsentAnswer = z.infer<typeof consentAnswerSchema>;

/** Where the browser goes next: back to the application, with a code or with access_denied. */
export const consentOutcomeSchema = z.object({ redirectTo: z.string() });
export type ConsentOutcome = z.infer<typeof consentOutcomeSchema>;

import { z } from "zod";
import { text } from "./text.ts";

/** A six-digit authenticator code or a recovery code (`K7M2Q-9XHT4`; case, spaces and dash free). */
export const secondFactorCodeSchema = text().min(6).max(16);

/** After a correct password, a person with a second factor still owes it for the same grant. */
export const secondFactorRequestSchema = z.object({
  sessionId: text().min(1).max(512),
  code: secondFactorCodeSchema,
  /** Skip the prompt in this browser for 30 days. */
  rememberBrowser: z.boolean().optional(),
});
export type SecondFactorRequest = z.infer<typeof secondFactorRequestSchema>;

/** What the account page shows about the person's second factor. */
export const secondFactorStatusSchema = z.object({
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /** The operator requires a second factor of this person. */
  required: z.boolean(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatusSchema>;

/** A TOTP set-up waiting for its first code: the otpauth URI for the QR code and the secret to type. */
export const totpSetupSchema = z.object({ secret: text(), uri: text() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;

export const totpConfirmRequestSchema = z.object({ code: secondFactorCodeSchema });
export type TotpConfirmRequest = z.infer<typeof totpConfirmRequestSchema>;

/** Shown once: the ten recovery codes. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(text()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/**
 * Confirming the authenticator: the recovery codes, and where a sign-in that led the person here to set
 * it up goes on (`next`, a same-site path the server chose: the application, the OpenID Connect or SAML
 * request), when one waits.
 */
export const totpConfirmResponseSchema = recoveryCodesSchema.extend({ next: text().max(4096).optional() });
export type TotpConfirmResponse = z.infer<typeof totpConfirmResponseSchema>;

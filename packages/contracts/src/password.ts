import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "./api.ts";
import { languages } from "./messages.ts";
import { text } from "./text.ts";

/**
 * Passwords per NIST SP 800-63B-4: at least 8 characters (15 advised), up to 128 (the guideline asks
 * for at least 64), any characters, no composition rules, checked against a blocklist of common
 * passwords and words of the context. Length is counted in code points, as people count characters.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_ADVISED_LENGTH = 15;
export const NEW_PASSWORD_MAX_LENGTH = 128;

/** Words that say "this service" in a password; with the person's own names they are the context words. */
export const serviceContextWords = [
  "kpi",
  "kpiid",
  "kpi-id",
  "politech",
  "polytech",
  "politeh",
  "sikorsky",
  "sikorskyi",
  "igor",
  "кпі",
  "політех",
  "сікорський",
] as const;

export function passwordLength(password: string): number {
  return [...password].length;
}

// New passwords travel as plain text: their length is judged by the policy, which answers a code
// (password.too_short, password.too_long) instead of a validation failure.
const newPassword = () => text().max(PASSWORD_MAX_LENGTH);

/** POST /api/account/password: the current password is needed unless the person has none yet. */
export const changePasswordRequestSchema = z.object({
  currentPassword: text().max(PASSWORD_MAX_LENGTH).optional(),
  newPassword: newPassword(),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** GET /api/account/password: whether the person has a password (else the page offers to set one). */
export const passwordStatusSchema = z.object({ hasPassword: z.boolean() });
export type PasswordStatus = z.infer<typeof passwordStatusSchema>;

/** How many other sessions a password change ended. */
export const passwordChangedSchema = z.object({ endedSessions: z.number().int().min(0) });
export type PasswordChanged = z.infer<typeof passwordChangedSchema>;

export const RESET_TOKEN_MAX_LENGTH = 128;

/** POST /api/recovery/email: where to send a reset link. The answer is the same whatever the address. */
export const emailRecoveryRequestSchema = z.object({
  email: text().min(3).max(320),
  /** The language of the page asking: the message and the link's page are in it. */
  language: z.enum(languages).optional(),
});
export type EmailRecoveryRequest = z.infer<typeof emailRecoveryRequestSchema>;

/** POST /api/recovery/diia: the one-time grant a finished Diia check-request handed out. */
export const diiaRecoveryRequestSchema = z.object({ sessionId: text().min(1).max(512) });
export type DiiaRecoveryRequest = z.infer<typeof diiaRecoveryRequestSchema>;

/** A reset token, as a Diia recovery answers it (the e-mail one travels in the link). */
export const resetTokenSchema = z.object({ token: text() });
export type ResetToken = z.infer<typeof resetTokenSchema>;

/** POST /api/recovery/check: is this link still good, and for whom (the person holds the link). */
export const resetCheckRequestSchema = z.object({ token: text().min(1).max(RESET_TOKEN_MAX_LENGTH) });
export const resetCheckSchema = z.object({ username: text(), fullName: text() });
export type ResetCheck = z.infer<typeof resetCheckSchema>;

/** POST /api/recovery/reset: the new password, with the one-time token. */
export const resetPasswordRequestSchema = z.object({
  token: text().min(1).max(RESET_TOKEN_MAX_LENGTH),
  newPassword: newPassword(),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** The one answer of POST /api/recovery/email, whether or not the address is known. */
export const recoveryAcceptedSchema = z.object({ ok: z.literal(true) });

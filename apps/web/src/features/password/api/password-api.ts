import {
  type ChangePasswordRequest,
  type Language,
  passwordChangedSchema,
  recoveryAcceptedSchema,
  resetCheckSchema,
  resetTokenSchema,
} from "@kpi-id/contracts";
import { apiJson } from "@/lib/api-client.ts";

const post = <T>(path: string, body: object, schema: { parse(value: unknown): T }) =>
  apiJson(path, { method: "POST", body, failure: `Failed: ${path}` }, schema);

/** Changes (or, without `currentPassword`, sets) the signed-in person's password. */
export const changePassword = (request: ChangePasswordRequest) =>
  post("/api/account/password", request, passwordChangedSchema);

/** Asks for a reset link; the answer is the same whether or not the address is known. */
export const requestEmailReset = (email: string, language: Language) =>
  post("/api/recovery/email", { email, language }, recoveryAcceptedSchema);

/** The grant a finished Diia scan handed out becomes a reset token (instead of a session). */
export const resetTokenFromDiia = async (sessionId: string) =>
  (await post("/api/recovery/diia", { sessionId }, resetTokenSchema)).token;

/** Whose reset link this is, while it still works (else 400 recovery.link_invalid). */
export const checkResetToken = (token: string) => post("/api/recovery/check", { token }, resetCheckSchema);

export const resetPassword = (token: string, newPassword: string) =>
  post("/api/recovery/reset", { token, newPassword }, recoveryAcceptedSchema);

import { type LoginRequest, loginRequestSchema, loginResponseSchema } from "@kpi-id/contracts";
import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "@/lib/api-client.ts";
import { exchangeSession } from "./exchange-session.ts";

/** The form checks only presence; the server bounds the lengths. */
export const loginFormSchema = z.object({
  username: z.string().trim().min(1),
  password: z.string().min(1),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

export async function login(credentials: LoginRequest): Promise<void> {
  const body = loginRequestSchema.parse(credentials);
  const { sessionId } = await apiJson(
    "/api/auth",
    { method: "POST", body, failure: "Failed to login" },
    loginResponseSchema,
  );
  await exchangeSession(sessionId);
}

export function useLogin(onSignedIn: () => Promise<void> | void) {
  return useMutation({ mutationFn: login, onSuccess: onSignedIn });
}

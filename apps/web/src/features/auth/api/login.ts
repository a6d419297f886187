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

/** Signs in; answers where the browser goes next. */
export async function login(credentials: LoginRequest): Promise<string> {
  const body = loginRequestSchema.parse(credentials);
  const { sessionId } = await apiJson(
    "/api/auth",
    { method: "POST", body, failure: "Failed to login" },
    loginResponseSchema,
  );
  return exchangeSession(sessionId);
}

/** Every sign-in that runs inside the page carries this key, so the screen can hold the other entries. */
export const signInMutationKey = ["sign-in"] as const;

export function useLogin(onSignedIn: (next: string) => Promise<void> | void) {
  return useMutation({ mutationKey: signInMutationKey, mutationFn: login, onSuccess: (next) => onSignedIn(next) });
}

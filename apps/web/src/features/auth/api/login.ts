import type { LoginRequest, LoginResponse } from "@kpi-id/contracts";
import { useMutation } from "@tanstack/react-query";
import { apiJson, ownAnswer } from "@/lib/api-client.ts";
import { exchangeSession } from "./exchange-session.ts";

/** What the form holds; it checks only presence (the server bounds the lengths). */
export type LoginForm = LoginRequest;

/** A username of spaces only counts as empty, as the server's trim does. */
export const loginFieldRules = {
  username: { validate: (value: string) => value.trim().length > 0 },
  password: { required: true },
} as const;

/** Signs in; answers where the browser goes next. */
export async function login(credentials: LoginRequest): Promise<string> {
  const body = { username: credentials.username.trim(), password: credentials.password };
  const { sessionId } = await apiJson(
    "/api/auth",
    { method: "POST", body, failure: "Failed to login" },
    ownAnswer<LoginResponse>(),
  );
  return exchangeSession(sessionId);
}

/** Every sign-in that runs inside the page carries this key, so the screen can hold the other entries. */
export const signInMutationKey = ["sign-in"] as const;

export function useLogin(onSignedIn: (next: string) => Promise<void> | void) {
  return useMutation({ mutationKey: signInMutationKey, mutationFn: login, onSuccess: (next) => onSignedIn(next) });
}

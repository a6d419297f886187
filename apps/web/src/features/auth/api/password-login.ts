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

/**
 * Where a password sign-in stands: done (`next`: where the browser goes), or waiting for the
 * person's second factor for this grant (`secondFactorFor`).
 */
export type SignInStep = { next: string } | { secondFactorFor: string };

/** Signs in; answers where the browser goes next, or that a code is due first. */
export async function login(credentials: LoginRequest): Promise<SignInStep> {
  const body = { username: credentials.username.trim(), password: credentials.password };
  const answer = await apiJson(
    "/api/auth",
    { method: "POST", body, failure: "Failed to login" },
    ownAnswer<LoginResponse>(),
  );
  if (answer.secondFactor) return { secondFactorFor: answer.sessionId };
  // The operator requires a second factor the person has not set up: the server's `next` is the account
  // page's second-factor card, and what the sign-in was for waits until the authenticator is confirmed.
  return { next: await exchangeSession(answer.sessionId) };
}

/** Every sign-in that runs inside the page carries this key, so the screen can hold the other entries. */
export const signInMutationKey = ["sign-in"] as const;

export function useLogin(onSignedIn: (next: string) => Promise<void> | void, onSecondFactor: (grant: string) => void) {
  return useMutation({
    mutationKey: signInMutationKey,
    mutationFn: login,
    onSuccess: (step) => ("next" in step ? onSignedIn(step.next) : onSecondFactor(step.secondFactorFor)),
  });
}

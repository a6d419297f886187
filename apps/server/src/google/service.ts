import type { FastifyReply, FastifyRequest } from "fastify";
import { audit } from "../audit/record.ts";
import { sameText } from "../crypto/tokens.ts";
import { AppError, hasCode } from "../errors.ts";
import { completeSignIn } from "../sessions/complete-sign-in.ts";
import { throttlePolicy } from "../throttle/policy.ts";
import { settleSuccess, type ThrottleKey, takeAttempt } from "../throttle/throttle.ts";
import type { GoogleOpenIdClient } from "./client.ts";
import { findPersonForGoogle } from "./person.ts";
import {
  clearPendingCookie,
  newState,
  PENDING_SIGN_IN_SECONDS,
  type PendingSignIn,
  readPendingCookie,
  setPendingCookie,
} from "./state.ts";

/** Starts a sign-in: remembers state, verifier and nonce in this browser's cookie; answers Google's URL. */
export async function beginGoogleSignIn(client: GoogleOpenIdClient, reply: FastifyReply): Promise<URL> {
  const { url, pending } = await client.authorizationRequest(newState());
  const expiresAt = Math.floor(reply.server.clock().getTime() / 1000) + PENDING_SIGN_IN_SECONDS;
  setPendingCookie(reply, { ...pending, expiresAt });
  return url;
}

/** The sign-in this browser started, answered by this very state; anything else is refused. */
function pendingSignInFor(request: FastifyRequest, state: string): PendingSignIn {
  const pending = readPendingCookie(request);
  if (!pending) throw new AppError("google.failed", { reason: "google.no_pending_sign_in" });
  if (!sameText(pending.state, state)) throw new AppError("google.failed", { reason: "google.state_mismatch" });
  return pending;
}

/**
 * Answers at /google/auth are counted per address like any credential check
 * (codes cannot be guessed, but each failed answer costs a call to Google).
 */
function googleThrottleKeys(ip: string): ThrottleKey[] {
  return [{ key: `google-ip:${ip}`, rule: throttlePolicy.ip }];
}

export interface GoogleAnswer {
  code: string;
  state: string;
}

/**
 * Finishes a sign-in: the answer must match this browser's pending sign-in,
 * the code must yield a valid ID token, and the token must name exactly one
 * active campus person. Then a new session. Every outcome is audited.
 * Answers where the browser goes next.
 */
export async function completeGoogleSignIn(
  client: GoogleOpenIdClient,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: GoogleAnswer,
): Promise<string> {
  // The pending sign-in is good for one answer, whatever that answer turns out to be.
  clearPendingCookie(reply);
  const { db, clock } = request.server;
  const throttle = googleThrottleKeys(request.ip);
  const attempt = await takeAttempt(db, throttle, clock());
  if (!attempt.allowed) {
    await audit(request, {
      type: "sign_in",
      result: "failure",
      authMethod: "GOOGLE",
      reason: "auth.too_many_attempts",
    });
    throw new AppError("auth.too_many_attempts", { retryAfterSeconds: attempt.retryAfterSeconds });
  }
  let userId: string | undefined;
  let next: string;
  try {
    const pending = pendingSignInFor(request, answer.state);
    const identity = await client.identityFor(answer.code, pending);
    const person = await findPersonForGoogle(db, identity);
    userId = person.id;
    ({ next } = await completeSignIn(request, reply, { userId: person.id, method: "GOOGLE" }));
  } catch (error) {
    if (hasCode(error, "google.failed")) {
      await audit(request, { type: "sign_in", result: "failure", authMethod: "GOOGLE", reason: error.reason });
    }
    throw error;
  }
  await settleSuccess(db, throttle);
  await audit(request, { type: "sign_in", result: "success", authMethod: "GOOGLE", userId });
  return next;
}

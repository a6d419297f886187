import type { FastifyReply, FastifyRequest } from "fastify";
import { issueLoginGrant } from "../../model/sessions/grants.ts";
import type { SignInStrength } from "../../model/sessions/strength.ts";
import { sameText } from "../../platform/crypto/tokens.ts";
import { AppError, hasCode } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { requestThrottleAddress } from "../../platform/http/throttle-address.ts";
import { throttlePolicy } from "../../platform/throttle/policy.ts";
import { settleSuccess, type ThrottleKey, takeAttempt } from "../../platform/throttle/throttle.ts";
import { secondFactorDecision } from "../mfa/decision.ts";
import { completeSignIn } from "../session/complete-sign-in.ts";
import type { GoogleIdentity, GoogleOpenIdClient } from "./client.ts";
import { linkGoogleIdentity } from "./link.ts";
import { findPersonForGoogle } from "./person.ts";
import {
  clearPendingCookie,
  newState,
  PENDING_SIGN_IN_SECONDS,
  type PendingSignIn,
  readPendingCookie,
  setPendingCookie,
} from "./state.ts";

/**
 * Starts a sign-in: remembers state, verifier and nonce in this browser's cookie; answers Google's URL.
 * With `linkUserId` the answer will link that (signed-in) person's Google account instead.
 */
export async function beginGoogleSignIn(
  client: GoogleOpenIdClient,
  reply: FastifyReply,
  link: { linkUserId?: string } = {},
): Promise<URL> {
  const { url, pending } = await client.authorizationRequest(newState());
  const expiresAt = Math.floor(reply.server.clock().getTime() / 1000) + PENDING_SIGN_IN_SECONDS;
  setPendingCookie(reply, { ...pending, ...link, expiresAt });
  return url;
}

/** Whether this browser's pending Google answer links an account (its failures go back to the account page). */
export function isLinkPending(request: FastifyRequest): boolean {
  return readPendingCookie(request)?.linkUserId !== undefined;
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
function googleThrottleKeys(address: string): ThrottleKey[] {
  return [{ key: `google-ip:${address}`, rule: throttlePolicy.ip }];
}

export interface GoogleAnswer {
  code: string;
  state: string;
}

/** The person this answer signs in (a new session), or links (the account page's "link Google"). */
async function actOnIdentity(
  request: FastifyRequest,
  reply: FastifyReply,
  pending: PendingSignIn,
  identity: GoogleIdentity,
  hostedDomains: readonly string[],
) {
  if (pending.linkUserId) return linkGoogleIdentity(request, pending.linkUserId, identity);
  const person = await findPersonForGoogle(request.server.db, identity, hostedDomains);
  // Google is one factor: a person with an authenticator gives its code too (unless this browser is remembered).
  const { amr, secondFactor } = await secondFactorDecision(request, person, "google");
  if (secondFactor) return { userId: person.id, next: await grantOwingCode(request, person.id, amr) };
  const { next } = await completeSignIn(request, reply, { userId: person.id, method: "GOOGLE", strength: amr });
  return { userId: person.id, next };
}

/**
 * A Google sign-in that still owes the second factor: a grant like a correct password's, handed to the sign-in
 * page in the URL's fragment (never sent to a server, never in a Referer), where the code is asked for and the
 * grant is exchanged at /api/auth/internal as usual.
 */
async function grantOwingCode(request: FastifyRequest, userId: string, amr: SignInStrength): Promise<string> {
  const { db, config, clock } = request.server;
  const grant = await issueLoginGrant(
    db,
    { userId, authMethod: "GOOGLE", amr, secondFactorDue: true },
    config.loginGrantTtlSeconds,
    clock(),
  );
  return `/${requestLanguage(request)}/#second-factor=${grant}`;
}

/**
 * Finishes a sign-in (or a link): the answer must match this browser's pending sign-in,
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
  // Signed by us, so the person who started a link is known even when the answer fails.
  const linkUserId = readPendingCookie(request)?.linkUserId;
  const eventType = linkUserId ? "method_linked" : "sign_in";
  // The pending sign-in is good for one answer, whatever that answer turns out to be.
  clearPendingCookie(reply);
  const { db, clock } = request.server;
  const throttle = googleThrottleKeys(requestThrottleAddress(request));
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
    ({ userId, next } = await actOnIdentity(request, reply, pending, identity, client.hostedDomains));
  } catch (error) {
    if (hasCode(error, "google.failed")) {
      const reason = error.reason;
      await audit(request, { type: eventType, result: "failure", authMethod: "GOOGLE", userId: linkUserId, reason });
    }
    throw error;
  }
  await settleSuccess(db, throttle);
  await audit(request, { type: eventType, result: "success", authMethod: "GOOGLE", userId });
  return next;
}

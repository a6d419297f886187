import { createHmac } from "node:crypto";
import type { GuestAcceptRequest } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { consumeInvitation, openInvitation } from "../../model/guests/invitations.ts";
import { findUserById } from "../../model/users/queries.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { throttlePolicy } from "../../platform/throttle/policy.ts";
import { confirmFailure, settleSuccess, type ThrottleKey, takeAttempt } from "../../platform/throttle/throttle.ts";
import { acceptNewPassword, savePasswordHash } from "../password/password-change.ts";
import { completeSignIn } from "../session/complete-sign-in.ts";

/** Tries of addresses on one link, counted like passwords on an account: nobody guesses the address a link is for. */
function linkKey(request: FastifyRequest, token: string): ThrottleKey {
  const hashed = createHmac("sha256", request.server.config.sessionSecret).update(`guest-link\0${token}`);
  return { key: `guest-link:${hashed.digest("base64url")}`, rule: throttlePolicy.account };
}

/**
 * The guest accepts: the link (good, unused), the address it was sent to, and a password the policy takes.
 * The link is used up only by the right address; the password is stored, and the guest is signed in, with one
 * factor: they are sent on to set up their second one (require_mfa), through the screens everyone uses.
 */
export async function acceptGuestInvitation(
  request: FastifyRequest,
  reply: FastifyReply,
  body: GuestAcceptRequest,
): Promise<string> {
  const { db, clock } = request.server;
  const invitation = await openInvitation(db, body.token, clock());
  const person = await findUserById(db, invitation.userId);
  if (!person) throw new AppError("guest.invitation_invalid");
  const passwordHash = await acceptNewPassword(request, person, body.password, "password_reset");
  const keys = [linkKey(request, body.token)];
  const decision = await takeAttempt(db, keys, clock());
  if (!decision.allowed) {
    throw new AppError("request.rate_limited", { retryAfterSeconds: decision.retryAfterSeconds });
  }
  try {
    await consumeInvitation(db, body.token, body.email, clock());
  } catch (error) {
    await confirmFailure(db, keys, clock());
    await audit(request, { type: "guest_accepted", result: "failure", userId: person.id, reason: "address" });
    throw error;
  }
  await settleSuccess(db, keys);
  await savePasswordHash(request, person, passwordHash);
  await audit(request, { type: "guest_accepted", result: "success", userId: person.id });
  const { next } = await completeSignIn(request, reply, { userId: person.id, method: "PASSWORD" });
  return next;
}

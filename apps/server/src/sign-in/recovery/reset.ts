import type { FastifyRequest } from "fastify";
import { consumeResetToken, findUsableResetToken, issueResetToken } from "../../model/recovery/tokens.ts";
import { endSessions } from "../../model/sessions/end-sessions.ts";
import { consumeLoginGrant } from "../../model/sessions/grants.ts";
import { findUserById } from "../../model/users/queries.ts";
import type { User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { audit, requestOrigin } from "../../platform/http/audit.ts";
import { notifyPasswordChanged } from "../../platform/http/notify.ts";
import { acceptNewPassword, savePasswordHash } from "../password/password-change.ts";

/** The active person a usable token belongs to; 400 recovery.link_invalid for anything else. */
export async function personOfResetToken(request: FastifyRequest, token: string): Promise<User> {
  const { db, clock } = request.server;
  const holder = await findUsableResetToken(db, token, clock());
  const person = holder ? await findUserById(db, holder.userId) : undefined;
  if (person?.status !== "active") throw new AppError("recovery.link_invalid");
  return person;
}

/**
 * Sets a new password with a reset token. A password the policy refuses leaves the token usable,
 * so the person tries another; the accepted one uses it up (before it is stored, so of two
 * concurrent resets only one stores anything), ends every session of the person (their OpenID
 * Connect sessions too), is audited and is told by mail.
 */
export async function resetPassword(request: FastifyRequest, token: string, newPassword: string): Promise<void> {
  const { db, clock } = request.server;
  const person = await personOfResetToken(request, token);
  const passwordHash = await acceptNewPassword(request, person, newPassword, "password_reset");
  const used = await consumeResetToken(db, token, clock());
  if (!used) throw new AppError("recovery.link_invalid");
  await savePasswordHash(request, person, passwordHash);
  const endedSessions = await endSessions(
    { db, now: clock(), signOut: request.server.signOut },
    { userId: person.id },
    { reason: "password_reset", ...requestOrigin(request) },
  );
  await audit(request, { type: "password_reset", result: "success", userId: person.id, reason: used.via });
  notifyPasswordChanged(request, person);
  request.log.info({ endedSessions }, "password reset");
}

/**
 * Forgot password with Diia: the grant a finished Diia sign-in handed to this browser (the person
 * proved who they are with their qualified signature; the tax id found the account) becomes a reset
 * token instead of a session.
 */
export async function resetTokenForDiia(request: FastifyRequest, grant: string): Promise<string> {
  const { db, clock, config } = request.server;
  const login = await consumeLoginGrant(db, grant, clock(), { waitForDisk: true });
  if (login?.authMethod !== "DIIA") {
    await audit(request, { type: "password_reset_request", result: "failure", reason: "auth.grant_invalid" });
    throw new AppError("auth.grant_invalid");
  }
  const { person } = login;
  if (person.status !== "active") {
    await audit(request, {
      type: "password_reset_request",
      result: "failure",
      userId: login.userId,
      reason: "user.disabled",
    });
    throw new AppError("auth.grant_invalid");
  }
  const token = await issueResetToken(db, person.id, "diia", config.passwordResetTtlSeconds, clock());
  await audit(request, {
    type: "password_reset_request",
    result: "success",
    authMethod: "DIIA",
    userId: person.id,
    reason: "diia",
  });
  return token;
}

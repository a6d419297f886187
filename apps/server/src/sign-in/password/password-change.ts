import type { ChangePasswordRequest } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { endSessions } from "../../model/sessions/end-sessions.ts";
import { requireRecentSignIn } from "../../model/sessions/recent-sign-in.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { checkNewPassword } from "../../model/users/password-policy.ts";
import { storePasswordHash } from "../../model/users/queries.ts";
import type { User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { audit, requestOrigin } from "../../platform/http/audit.ts";
import { notifyPasswordChanged, notifySignInMethodChanged } from "../../platform/http/notify.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";
import { confirmFailure, settleSuccess } from "../../platform/throttle/throttle.ts";
import { takeCredentialAttempt } from "../grants/credential-attempt.ts";

/** The current password, checked like a sign-in (throttled per account and address, audited when wrong). */
async function requireCurrentPassword(request: FastifyRequest, person: User, presented: string | undefined) {
  const { db, clock, passwordHasher } = request.server;
  if (person.password_hash === null) return;
  // Counted like a sign-in from this browser: a stranger's guesses never hold the owner.
  const keys = await takeCredentialAttempt(request, person.username, { type: "password_change", userId: person.id });
  if (!(await passwordHasher.verify(person.password_hash, presented ?? ""))) {
    await confirmFailure(db, keys, clock());
    await audit(request, {
      type: "password_change",
      result: "failure",
      userId: person.id,
      reason: "password.current_wrong",
    });
    throw new AppError("password.current_wrong");
  }
  await settleSuccess(db, keys);
}

/** The argon2id hash of a new password the policy accepts; refusals are audited with their code. */
export async function acceptNewPassword(
  request: FastifyRequest,
  person: User,
  password: string,
  type: "password_change" | "password_reset",
): Promise<string> {
  try {
    await checkNewPassword(password, { username: person.username, fullName: person.full_name, email: person.email });
  } catch (error) {
    if (error instanceof AppError)
      await audit(request, { type, result: "failure", userId: person.id, reason: error.code });
    throw error;
  }
  return request.server.passwordHasher.hash(password);
}

export async function savePasswordHash(request: FastifyRequest, person: User, passwordHash: string): Promise<void> {
  const { db, clock } = request.server;
  await storePasswordHash(db, person.id, passwordHash, clock());
}

/**
 * Changes (or, for a person without one, sets) the signed-in person's password: the current password, and
 * a new one the policy accepts. The current password is the re-check (proof that it is the person now, as
 * a fresh password sign-in would be), so the person is not asked for it twice; setting a first password
 * has nothing to check and needs a recent sign-in instead. Every other session ends, the change is
 * audited and the person is told by mail.
 */
export async function changePassword(
  request: FastifyRequest,
  session: LoadedSession,
  body: ChangePasswordRequest,
): Promise<number> {
  const person = session.user;
  if (person.password_hash === null) requireRecentSignIn(session, reauthWindow(request));
  await requireCurrentPassword(request, person, body.currentPassword);
  await savePasswordHash(
    request,
    person,
    await acceptNewPassword(request, person, body.newPassword, "password_change"),
  );
  const { db, clock } = request.server;
  const endedSessions = await endSessions(
    { db, now: clock(), signOut: request.server.signOut },
    { userId: person.id, except: session.id },
    { reason: "password_change", ...requestOrigin(request) },
  );
  const firstPassword = person.password_hash === null;
  await audit(request, {
    type: "password_change",
    result: "success",
    userId: person.id,
    reason: firstPassword ? "set" : "changed",
  });
  if (firstPassword) notifySignInMethodChanged(request, person, "PASSWORD", "added");
  else notifyPasswordChanged(request, person);
  return endedSessions;
}

import type { AuthMethod, ErrorCode } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { destinationOf, secondFactorSetUpPath } from "../../model/sessions/continue-to.ts";
import { startSession } from "../../model/sessions/sign-in-statement.ts";
import {
  multiFactorRequired,
  provesMultiFactor,
  type SignInStrength,
  signInAmr,
} from "../../model/sessions/strength.ts";
import { findUserById } from "../../model/users/queries.ts";
import type { User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { audit, countAuditEvent, requestAuditRow, requestOrigin } from "../../platform/http/audit.ts";
import { deviceNonceFor, rememberDevice } from "../../platform/http/device-cookie.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { notifyNewDevice } from "../../platform/http/notify.ts";
import { fromBrowser } from "../../platform/http/security.ts";
import { readSessionCookie, sessionCookieName, sessionCookieOptions } from "../../platform/http/session-cookie.ts";
import { takeContinueTo } from "./continue-cookie.ts";

export interface SignIn {
  userId: string;
  method: AuthMethod;
  /** The RFC 8176 `amr` values the sign-in achieved; the method's own strength when left out. */
  strength?: SignInStrength;
  /** The person as the caller read them (the grant exchange reads them with the grant); read here when left out. */
  person?: User;
}

export interface CompletedSignIn {
  sessionId: string;
  /** Where the browser goes next: what the pending sign-in asked for, else the apps list. */
  next: string;
}

/** What a refused finish answers, per method: the caller's own refusal, so the spec's messages stay. */
const refusalByMethod: Record<AuthMethod, ErrorCode> = {
  PASSWORD: "auth.grant_invalid",
  DIIA: "auth.grant_invalid",
  GOOGLE: "google.failed",
  PASSKEY: "passkey.failed",
  BANK_ID: "bankid.failed",
  INSTITUTION: "institution.answer_refused",
};

/** The person may sign in only while their account exists and is active. */
async function requireActivePerson(request: FastifyRequest, { userId, method, person: read }: SignIn): Promise<User> {
  const person = read ?? (await findUserById(request.server.db, userId));
  if (person?.status === "active") return person;
  const reason = person ? "user.disabled" : "user.unknown";
  await audit(request, { type: "session_start", result: "failure", authMethod: method, userId: person?.id, reason });
  throw new AppError(refusalByMethod[method], { reason });
}

/**
 * Every sign-in ends here, whatever the method: the person is checked, a fresh
 * session replaces whatever session cookie the browser had (a token planted
 * before sign-in is worthless), the cookie is set (this is the only place that
 * sets it), the browser is remembered for this account (its device cookie: a
 * stranger's guesses never lock it out), the start is audited, and the browser's
 * pending "continue to" is taken to say where it goes next.
 */
export async function completeSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  signIn: SignIn,
): Promise<CompletedSignIn> {
  const { config, db, clock } = request.server;
  const person = await requireActivePerson(request, signIn);
  const { ip, userAgent } = requestOrigin(request);
  const amr = signInAmr(signIn.method, signIn.strength);
  const language = requestLanguage(request);
  const started = {
    type: "session_start",
    result: "success",
    authMethod: signIn.method,
    userId: signIn.userId,
  } as const;
  const { sessionId, token, firstSignIn } = await startSession(db, {
    person,
    session: { userId: signIn.userId, authMethod: signIn.method, amr, ip, userAgent },
    previousToken: readSessionCookie(request),
    language,
    auditRow: requestAuditRow(request, started),
    waitForDisk: !fromBrowser(request),
    timeouts: config.sessions,
    now: clock(),
  });
  countAuditEvent(request, started);
  reply.setCookie(sessionCookieName(config), token, {
    ...sessionCookieOptions(config),
    maxAge: config.sessions.absoluteTimeoutSeconds,
  });
  const knownBrowser = deviceNonceFor(request, signIn.userId) !== undefined;
  rememberDevice(request, reply, signIn.userId);
  // Whatever the request had loaded before belongs to the old cookie.
  request.session = undefined;
  if (!knownBrowser && !firstSignIn) notifyNewDevice(request, person);
  // One factor (a password, Google, a passkey without user verification, a recovery link: any method) for a person
  // the operator requires a second factor of: they set one up first. What the sign-in was for (an application, an
  // OpenID Connect or SAML request) stays in its cookie; confirming the authenticator takes it (mfa/account.ts), so
  // they go on there rather than to the apps list.
  if (multiFactorRequired(person, undefined) && !provesMultiFactor(amr)) {
    return { sessionId, next: secondFactorSetUpPath(language) };
  }
  return { sessionId, next: destinationOf(takeContinueTo(request, reply), language) };
}

import { errorMessage, type PasswordContext } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { endSessions } from "../../model/sessions/end-sessions.ts";
import { checkNewPassword } from "../../model/users/password-policy.ts";
import { holdsConsoleRole, updateUser } from "../../model/users/queries.ts";
import type { User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { audit, requestOrigin } from "../../platform/http/audit.ts";
import { scimTokenOf } from "./auth.ts";
import { ScimError } from "./errors.ts";
import { notifyPushedPassword } from "./password-notice.ts";

/**
 * A password a SCIM client pushes (Okta with "Sync password" on sends it in the create, in a full PUT and
 * as PATCH replace). What happens to it is the operator's choice, SCIM_PASSWORDS: `set` (the default) checks
 * it by the policy every password meets and stores its argon2id hash; `ignore` drops it and logs one line
 * (never the value); `refuse` answers 400 mutability as KPI ID did before. It is taken out of the body
 * before scimmy sees it, so it is never kept among the attributes stored as sent.
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isPasswordKey = (key: string) => key.toLowerCase() === "password";

function withoutPassword(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !isPasswordKey(key)));
}

export interface PushedPassword {
  /** The body as scimmy should see it: no password anywhere. */
  body: unknown;
  /** The password the client sent, if any. */
  password: string | undefined;
  /** A PATCH whose only operations set the password: scimmy has nothing left to apply. */
  onlyPassword: boolean;
}

/** The password in a POST or PUT body (`password`) or a PATCH (`path: "password"`, or a value holding it). */
export function takePassword(body: unknown): PushedPassword {
  if (!isPlainObject(body)) return { body, password: undefined, onlyPassword: false };
  const direct = Object.entries(body).find(([key]) => isPasswordKey(key))?.[1];
  if (!Array.isArray(body.Operations)) {
    return { body: withoutPassword(body), password: passwordValue(direct), onlyPassword: false };
  }
  let password: string | undefined;
  const operations: unknown[] = [];
  for (const operation of body.Operations) {
    if (!isPlainObject(operation)) {
      operations.push(operation);
      continue;
    }
    const { path, value } = operation;
    if (typeof path === "string" && isPasswordKey(path.trim())) {
      password = passwordValue(value);
      continue;
    }
    if (path === undefined && isPlainObject(value) && Object.keys(value).some(isPasswordKey)) {
      password = passwordValue(Object.entries(value).find(([key]) => isPasswordKey(key))?.[1]);
      const rest = withoutPassword(value);
      if (Object.keys(rest).length > 0) operations.push({ ...operation, value: rest });
      continue;
    }
    operations.push(operation);
  }
  const taken = operations.length !== body.Operations.length || password !== undefined;
  return {
    body: { ...body, Operations: operations },
    password,
    onlyPassword: taken && operations.length === 0 && body.Operations.length > 0,
  };
}

function passwordValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string")
    throw new ScimError("scim.invalid_request", "invalidValue", "password: must be a string");
  return value;
}

export type PasswordOwner = PasswordContext;

/**
 * What to store for a pushed password under SCIM_PASSWORDS: its hash (`set`, the policy's refusal a 400
 * invalidValue naming the rule), nothing (`ignore`, logged) or a 400 mutability (`refuse`).
 */
export async function hashPushedPassword(
  request: FastifyRequest,
  password: string | undefined,
  owner: PasswordOwner,
  personId?: string,
): Promise<string | undefined> {
  if (password === undefined) return undefined;
  // A SCIM token must not be a way into the console: an operator's password is theirs to set, never the HR system's.
  if (personId !== undefined && (await holdsConsoleRole(request.server.db, personId))) {
    throw new ScimError(
      "scim.invalid_request",
      "mutability",
      "'password' of a person who holds a console role is not set over SCIM; they change it on their account page",
    );
  }
  const mode = request.server.config.scimPasswords;
  if (mode === "refuse") {
    throw new ScimError(
      "scim.invalid_request",
      "mutability",
      "'password' cannot be set over SCIM: passwords are not provisioned here (SCIM_PASSWORDS=refuse)",
    );
  }
  if (mode === "ignore") {
    request.log.info({ scimClient: scimTokenOf(request).name, userName: owner.username }, "SCIM password ignored");
    return undefined;
  }
  try {
    await checkNewPassword(password, owner);
  } catch (error) {
    if (error instanceof AppError)
      throw new ScimError("scim.invalid_request", "invalidValue", `password: ${errorMessage(error.code, "en")}`);
    throw error;
  }
  return request.server.passwordHasher.hash(password);
}

/**
 * After a pushed password is stored: audited with the client's name; a person who already had sessions
 * loses them (whoever knew the old password may hold one); the person is told by mail (password-notice.ts), also
 * when the only address is the one the organisation's records give.
 */
export async function afterPushedPassword(request: FastifyRequest, person: User, hadPassword: boolean, isNew: boolean) {
  const { db, clock } = request.server;
  const endedSessions = isNew
    ? 0
    : await endSessions(
        { db, now: clock(), signOut: request.server.signOut },
        { userId: person.id },
        { reason: "scim_password", ...requestOrigin(request) },
      );
  await audit(request, {
    type: "password_change",
    result: "success",
    userId: person.id,
    reason: hadPassword ? "scim_changed" : "scim_set",
    details: { actor: `scim:${scimTokenOf(request).name}`, endedSessions },
  });
  notifyPushedPassword(request, person, hadPassword);
}

/** Whose password it is, as the policy reads them (no password built on the person's own names). */
export const ownerOf = (person: User): PasswordOwner => ({
  username: person.username,
  fullName: person.full_name,
  email: person.email,
});

/**
 * A PATCH's password, stored after the rest of the PATCH applied. `person` is the row before the PATCH (whether
 * they had a password); the notice reads the row after it, so an address the same PATCH changed is the one told.
 */
export async function setPushedPassword(request: FastifyRequest, person: User, passwordHash: string): Promise<void> {
  const updated = await updateUser(request.server.db, person.id, { password_hash: passwordHash });
  await afterPushedPassword(request, updated ?? person, person.password_hash !== null, false);
}

import type { FastifyReply, FastifyRequest } from "fastify";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { requireStrongSession } from "../../model/sessions/strength.ts";
import { rolesOf } from "../../model/users/operator-roles.ts";
import type { OperatorRole } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { requireSession } from "../../sign-in/session/current.ts";

/**
 * What each console endpoint needs, and which roles hold it: the one authorization table.
 * helpdesk handles people (look, unlock, end sessions, reset second factors, start a
 * recovery); everything else (profile and status changes, erasure, access, applications, import,
 * audit, keys, service) is admin's.
 */
export const permissionRoles = {
  "console.enter": ["admin", "helpdesk"],
  "people.view": ["admin", "helpdesk"],
  "people.unlock": ["admin", "helpdesk"],
  "people.end_sessions": ["admin", "helpdesk"],
  "people.recovery": ["admin", "helpdesk"],
  "people.edit": ["admin"],
  "people.status": ["admin"],
  "people.erase": ["admin"],
  "people.access": ["admin"],
  "apps.view": ["admin"],
  "apps.manage": ["admin"],
  "people.import": ["admin"],
  "audit.view": ["admin"],
  "keys.manage": ["admin"],
  "service.view": ["admin"],
} as const satisfies Record<string, readonly OperatorRole[]>;

export type Permission = keyof typeof permissionRoles;

/** A console operation's caller: their session, their roles. */
export interface OperatorContext {
  session: LoadedSession;
  userId: string;
  roles: OperatorRole[];
}

/** How long a strong sign-in lets an operator work before the console asks for it again. */
export const consoleStrongMaxAgeSeconds = 3600;

/**
 * The caller as an operator allowed `permission`: 401 without a session, 403 `admin.forbidden`
 * without a role that holds it, 403 `auth.step_up_required` without a strong proof (a passkey, a
 * second factor or Diia) in the last hour.
 */
export async function requireOperator(
  request: FastifyRequest,
  reply: FastifyReply,
  permission: Permission,
): Promise<OperatorContext> {
  const session = await requireSession(request, reply);
  const roles = await rolesOf(request.server.db, session.userId);
  const allowed: readonly OperatorRole[] = permissionRoles[permission];
  if (!roles.some((role) => allowed.includes(role))) throw new AppError("admin.forbidden");
  requireStrongSession(session, consoleStrongMaxAgeSeconds, request.server.clock());
  return { session, userId: session.userId, roles };
}

/** The permissions a set of roles holds, for the console to show only what the operator may do. */
export function permissionsOf(roles: readonly OperatorRole[]): Permission[] {
  return (Object.keys(permissionRoles) as Permission[]).filter((permission) =>
    (permissionRoles[permission] as readonly OperatorRole[]).some((role) => roles.includes(role)),
  );
}

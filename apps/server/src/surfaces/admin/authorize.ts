import type { FastifyReply, FastifyRequest } from "fastify";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { requireStrongSession } from "../../model/sessions/strength.ts";
import { rolesOf } from "../../model/users/operator-roles.ts";
import { type HeldUnitRole, unitRolesOf, unitsReachedBy } from "../../model/users/unit-roles.ts";
import type { OperatorRole, UnitRole } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { requireSession } from "../../sign-in/session/current.ts";

/** A console role: university-wide (admin, helpdesk) or held in a unit (unit admin, unit helpdesk; issue 79). */
export type ConsoleRole = OperatorRole | UnitRole;

/**
 * What each console endpoint needs, and which roles hold it: the one authorization table.
 * helpdesk handles people (look, unlock, end sessions, reset second factors, start a
 * recovery); everything else (profile and status changes, erasure, access, applications, import,
 * audit, keys, service) is admin's. The unit roles hold the same within their units (reach below):
 * a unit helpdesk what helpdesk does, a unit admin also disabling people, the unit's applications
 * and its audit and reviews; never a profile change, erasure, import, keys or the service.
 */
export const permissionRoles = {
  "console.enter": ["admin", "helpdesk", "unit_admin", "unit_helpdesk"],
  "people.view": ["admin", "helpdesk", "unit_admin", "unit_helpdesk"],
  "people.unlock": ["admin", "helpdesk", "unit_admin", "unit_helpdesk"],
  "people.end_sessions": ["admin", "helpdesk", "unit_admin", "unit_helpdesk"],
  "people.recovery": ["admin", "helpdesk", "unit_admin", "unit_helpdesk"],
  "people.edit": ["admin"],
  "people.status": ["admin", "unit_admin"],
  "people.erase": ["admin"],
  "people.access": ["admin"],
  "people.roles": ["admin"],
  "apps.view": ["admin", "unit_admin"],
  "apps.manage": ["admin", "unit_admin"],
  // A unit admin decides their units' reviews: finally where the operators let the unit, else as a first approval.
  "apps.review": ["admin", "unit_admin"],
  // Whether a unit's approvals are final is central IT's: a unit admin does not make their own decisions final.
  "apps.delegate_reviews": ["admin"],
  "people.import": ["admin"],
  "audit.view": ["admin", "unit_admin"],
  "keys.manage": ["admin"],
  "service.view": ["admin"],
  // LDAP's registered clients (issue 77) see the whole directory: university-wide, as the service is.
  "ldap.manage": ["admin"],
} as const satisfies Record<string, readonly ConsoleRole[]>;

export type Permission = keyof typeof permissionRoles;

/**
 * How far a console request reaches: the whole university (admin, helpdesk), or the units a unit role is
 * held in and every unit below them, for the roles that hold the endpoint's permission.
 */
export type Reach = { everywhere: true } | { everywhere: false; unitIds: readonly string[] };

export const everywhere: Reach = { everywhere: true };

/** The unit ids a list is filtered to; undefined for the whole university. */
export function unitFilterOf(reach: Reach): readonly string[] | undefined {
  return reach.everywhere ? undefined : reach.unitIds;
}

export function reaches(reach: Reach, unitId: string | null): boolean {
  return reach.everywhere || (unitId !== null && reach.unitIds.includes(unitId));
}

/** A console operation's caller: their session, their roles, how far this request reaches. */
export interface OperatorContext {
  session: LoadedSession;
  userId: string;
  roles: OperatorRole[];
  unitRoles: HeldUnitRole[];
  reach: Reach;
  /** The unit the action is taken in, when a unit role acts (set by the guard): its audit row names it. */
  unitId?: string;
}

/** How long a strong sign-in lets an operator work before the console asks for it again. */
export const consoleStrongMaxAgeSeconds = 3600;

/**
 * The caller as an operator allowed `permission`, with the reach it has: 401 without a session, 403
 * `admin.forbidden` without a console role that holds it, 404 `request.not_found` for a unit role on an endpoint
 * only university-wide roles have (for them it does not exist), 403 `auth.step_up_required` without a strong proof
 * (a passkey, a second factor or Diia) in the last hour.
 */
export async function requireOperator(
  request: FastifyRequest,
  reply: FastifyReply,
  permission: Permission,
): Promise<OperatorContext> {
  const session = await requireSession(request, reply);
  const { db } = request.server;
  const [roles, unitRoles] = await Promise.all([rolesOf(db, session.userId), unitRolesOf(db, session.userId)]);
  const allowed: readonly ConsoleRole[] = permissionRoles[permission];
  let reach: Reach = everywhere;
  if (!roles.some((role) => allowed.includes(role))) {
    const held = [...new Set(unitRoles.map((held) => held.role))].filter((role) => allowed.includes(role));
    if (held.length === 0) {
      if (roles.length === 0 && unitRoles.length > 0) throw new AppError("request.not_found");
      throw new AppError("admin.forbidden");
    }
    reach = { everywhere: false, unitIds: await unitsReachedBy(db, session.userId, held) };
  }
  requireStrongSession(session, consoleStrongMaxAgeSeconds, request.server.clock());
  return { session, userId: session.userId, roles, unitRoles, reach };
}

/** The permissions a set of roles holds, for the console to show only what the operator may do. */
export function permissionsOf(roles: readonly ConsoleRole[]): Permission[] {
  return (Object.keys(permissionRoles) as Permission[]).filter((permission) =>
    (permissionRoles[permission] as readonly ConsoleRole[]).some((role) => roles.includes(role)),
  );
}

import type { FastifyInstance, FastifyRequest } from "fastify";
import { findApplicationById } from "../../model/apps/queries.ts";
import { recordUnitIdsOf } from "../../model/people/records.ts";
import { rolesOf } from "../../model/users/operator-roles.ts";
import { holdsConsoleRole } from "../../model/users/queries.ts";
import type { AuditEvent } from "../../platform/audit/record.ts";
import type { OperatorRole, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { audit, requestOrigin } from "../../platform/http/audit.ts";
import { type OperatorContext, type Permission, permissionRoles, reaches, requireOperator } from "./authorize.ts";
import { requirePerson } from "./people.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** What a console route needs (admin/authorize.ts); a console route without one is refused at start. */
    permission?: Permission;
    /**
     * What the route is about, so the guard checks the operator's reach before the handler runs (issue 79):
     * `person` and `application` name the record in `:id` (out of reach answers 404 as a missing one),
     * `person.act` a person the operator acts on (wholly within reach, holding no console role), `list` a route
     * whose handler filters by `operatorOf(request).reach`, `self` the operator's own, `university` a route only
     * university-wide roles hold.
     */
    subject?: ConsoleSubject;
  }
  interface FastifyRequest {
    operator: OperatorContext | undefined;
  }
}

export type ConsoleSubject = "person" | "person.act" | "application" | "list" | "self" | "university";

const unitRoleNames: readonly string[] = ["unit_admin", "unit_helpdesk"];

/** A route unit roles may call must say what it is about; `university` is only for routes they cannot call. */
function checkConsoleRoute(method: unknown, url: string, permission?: Permission, subject?: ConsoleSubject) {
  const name = `console route ${String(method)} ${url}`;
  if (!permission) throw new Error(`${name} names no permission`);
  if (!subject) throw new Error(`${name} names no subject`);
  const unitRolesHoldIt = (permissionRoles[permission] as readonly string[]).some((r) => unitRoleNames.includes(r));
  if (subject === "university" && unitRolesHoldIt) throw new Error(`${name} is open to unit roles`);
  if ((subject === "person" || subject === "person.act" || subject === "application") && !url.includes("/:id")) {
    throw new Error(`${name} names no :id`);
  }
}

/**
 * Makes every route registered in `scope` a console route: it must name its permission and subject, and
 * each request is authorized against them before the handler runs.
 */
export function guardConsoleRoutes(scope: FastifyInstance): void {
  scope.decorateRequest("operator", undefined);
  scope.addHook("onRoute", (route) => {
    checkConsoleRoute(route.method, route.url, route.config?.permission, route.config?.subject);
  });
  scope.addHook("preHandler", async (request, reply) => {
    const { permission, subject } = request.routeOptions.config;
    if (!permission) throw new Error("console route without a permission");
    const operator = await requireOperator(request, reply, permission);
    request.operator = operator;
    if (operator.reach.everywhere) return;
    const id = (request.params as { id?: string }).id ?? "";
    if (subject === "person" || subject === "person.act") await checkPersonReach(request, operator, id, subject);
    if (subject === "application") await checkApplicationReach(request, operator, id);
  });
}

/**
 * A person a unit role may see has a record in its reach; one it may act on has every record there and holds no
 * console role (a faculty's administrator does not disable a student of another faculty through a shared record,
 * nor a colleague). Out of reach is 404 `admin.person_not_found`, the answer for nobody.
 */
async function checkPersonReach(request: FastifyRequest, operator: OperatorContext, id: string, subject: string) {
  const { db } = request.server;
  const units = await recordUnitIdsOf(db, id);
  const within = units.filter((unitId): unitId is string => reaches(operator.reach, unitId));
  if (within.length === 0) throw new AppError("admin.person_not_found");
  if (subject === "person.act") {
    if (within.length < units.length) throw new AppError("admin.person_beyond_reach");
    if (await holdsConsoleRole(db, id)) throw new AppError("admin.person_outranks_operator");
  }
  operator.unitId = within[0];
}

/** Whether the operator may see the person: everyone for university-wide roles, else a record within reach. */
export async function seesPerson(request: FastifyRequest, id: string): Promise<boolean> {
  const { reach } = operatorOf(request);
  if (reach.everywhere) return true;
  return (await recordUnitIdsOf(request.server.db, id)).some((unitId) => reaches(reach, unitId));
}

/** An application a unit role may see belongs to a unit in its reach; else 404 `app.not_found`. */
async function checkApplicationReach(request: FastifyRequest, operator: OperatorContext, id: string) {
  const application = await findApplicationById(request.server.db, id);
  if (!application || !reaches(operator.reach, application.unit_id)) throw new AppError("app.not_found");
  operator.unitId = application.unit_id ?? undefined;
}

/** The operator the guard authorized for this request. */
export function operatorOf(request: FastifyRequest): OperatorContext {
  if (!request.operator) throw new Error("console handler ran without the console guard");
  return request.operator;
}

/** An audit row naming the acting operator. */
export function auditByOperator(request: FastifyRequest, event: Omit<AuditEvent, "ip" | "userAgent" | "occurredAt">) {
  const operator = operatorOf(request);
  return audit(request, { ...event, actorId: operator.userId, unitId: event.unitId ?? operator.unitId });
}

/** The acting operator and where the request came from, for services that write their own audit rows. */
export function operatorAndOrigin(request: FastifyRequest) {
  const { ip, userAgent } = requestOrigin(request);
  const operator = operatorOf(request);
  return { actorId: operator.userId, unitId: operator.unitId, ip, userAgent };
}

/** How far each console role reaches: an operator acts only on people whose highest role is not above their own. */
const roleRank: Record<OperatorRole, number> = { helpdesk: 1, admin: 2 };
// A unit role acts on nobody holding any console role (the guard refuses them): its rank is below every role.
const highestRank = (roles: readonly OperatorRole[]) => Math.max(0, ...roles.map((role) => roleRank[role]));

/**
 * The person a console action (unlock, end sessions, reset the second factor, a recovery mail, a change) is about,
 * when the acting operator may act on them: 404 `admin.person_not_found`, or 403 `admin.person_outranks_operator`
 * for someone holding a role above the operator's (a helpdesk operator does not reset an admin's second factor).
 */
export async function requirePersonToActOn(request: FastifyRequest, id: string): Promise<User> {
  const person = await requirePerson(request.server.db, id);
  // Nothing is done to an erased person's stub: no enabling, editing or granting brings anyone back.
  if (person.anonymised_at) throw new AppError("admin.person_erased");
  const operator = operatorOf(request);
  if (highestRank(await rolesOf(request.server.db, person.id)) > highestRank(operator.roles)) {
    request.log.warn({ operator: operator.userId, person: person.id }, "console action on a higher role refused");
    throw new AppError("admin.person_outranks_operator");
  }
  return person;
}

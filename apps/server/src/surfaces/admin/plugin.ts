import type { FastifyInstance, FastifyRequest } from "fastify";
import { rolesOf } from "../../model/users/operator-roles.ts";
import type { AuditEvent } from "../../platform/audit/record.ts";
import type { OperatorRole, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { audit, requestOrigin } from "../../platform/http/audit.ts";
import { type OperatorContext, type Permission, requireOperator } from "./authorize.ts";
import { requirePerson } from "./people.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** What a console route needs (admin/authorize.ts); a console route without one is refused at start. */
    permission?: Permission;
  }
  interface FastifyRequest {
    operator: OperatorContext | undefined;
  }
}

/**
 * Makes every route registered in `scope` a console route: it must name its permission, and
 * each request is authorized against it before the handler runs.
 */
export function guardConsoleRoutes(scope: FastifyInstance): void {
  scope.decorateRequest("operator", undefined);
  scope.addHook("onRoute", (route) => {
    if (!route.config?.permission) throw new Error(`console route ${route.method} ${route.url} names no permission`);
  });
  scope.addHook("preHandler", async (request, reply) => {
    const permission = request.routeOptions.config.permission;
    if (!permission) throw new Error("console route without a permission");
    request.operator = await requireOperator(request, reply, permission);
  });
}

/** The operator the guard authorized for this request. */
export function operatorOf(request: FastifyRequest): OperatorContext {
  if (!request.operator) throw new Error("console handler ran without the console guard");
  return request.operator;
}

/** An audit row naming the acting operator. */
export function auditByOperator(request: FastifyRequest, event: Omit<AuditEvent, "ip" | "userAgent" | "occurredAt">) {
  return audit(request, { ...event, actorId: operatorOf(request).userId });
}

/** The acting operator and where the request came from, for services that write their own audit rows. */
export function operatorAndOrigin(request: FastifyRequest) {
  const { ip, userAgent } = requestOrigin(request);
  return { actorId: operatorOf(request).userId, ip, userAgent };
}

/** How far each console role reaches: an operator acts only on people whose highest role is not above their own. */
const roleRank: Record<OperatorRole, number> = { helpdesk: 1, admin: 2 };
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

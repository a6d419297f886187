import type { FastifyInstance, FastifyRequest } from "fastify";
import { type AuditEvent, audit, requestOrigin } from "../audit/record.ts";
import { type OperatorContext, type Permission, requireOperator } from "./authorize.ts";

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

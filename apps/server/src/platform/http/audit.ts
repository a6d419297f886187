// The request's side of the audit trail (issue 58): the caller's address, user agent and the app's clock are read
// from the request here, so platform/audit takes them as plain values.
import type { FastifyRequest } from "fastify";
import type { QueryCreator } from "kysely";
import {
  type AuditEvent,
  type AuditRow,
  auditedStatement,
  auditRow,
  type RequestAuditEvent,
  recordAuditEvent,
} from "../audit/record.ts";
import type { Database } from "../db/schema.ts";

/** The request facts every event carries: where it came from and with what client. */
export function requestOrigin(request: FastifyRequest): { ip: string; userAgent?: string } {
  const userAgent = request.headers["user-agent"];
  return { ip: request.ip, userAgent: typeof userAgent === "string" ? userAgent : undefined };
}

/** Counts the event in the service's metrics. */
export function countAuditEvent(request: FastifyRequest, event: RequestAuditEvent): void {
  // Optional: apps assembled without buildApp (some tests) have no metrics.
  request.server.metrics?.observeAudit(event);
}

/** The row of an event of this request, with the app's clock, for a statement that writes it itself. */
export function requestAuditRow(request: FastifyRequest, event: RequestAuditEvent): AuditRow {
  return auditRow({ ...event, ...requestOrigin(request), occurredAt: request.server.clock() });
}

function requestEvent(request: FastifyRequest, event: RequestAuditEvent): AuditEvent {
  countAuditEvent(request, event);
  return { ...event, ...requestOrigin(request), occurredAt: request.server.clock() };
}

/** Records an event for this request with the app's clock. */
export function audit(request: FastifyRequest, event: RequestAuditEvent) {
  return recordAuditEvent(request.server.db, requestEvent(request, event));
}

/**
 * The event's row of this request as a data-modifying CTE (platform/audit's `auditedStatement`); the caller
 * counts the event (`countAuditEvent`) once the statement has succeeded.
 */
export function requestAuditedStatement(
  request: FastifyRequest,
  event: RequestAuditEvent,
  options: { waitForDisk: boolean },
): QueryCreator<Database> {
  return auditedStatement(request.server.db, requestAuditRow(request, event), options);
}

import { Readable } from "node:stream";
import {
  type AuditFilters,
  auditFilterSchema,
  auditPageSchema,
  auditQuerySchema,
  errorBodySchema,
} from "@kpi-id/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { searchAuditTrail } from "../../model/audit-trail/trail.ts";
import type { Db } from "../../platform/db/schema.ts";
import { unitFilterOf } from "./authorize.ts";
import { csvLine } from "./csv-cells.ts";
import { auditByOperator, guardConsoleRoutes, operatorOf } from "./plugin.ts";

const refusals = { 401: errorBodySchema, 403: errorBodySchema };
const tags = ["admin"];
// Rows read per statement while exporting: the export holds no more than this in memory.
const exportBatch = 500;

const exportHeader = [
  "occurred_at",
  "event_type",
  "result",
  "method",
  "person_username",
  "person_name",
  "actor_username",
  "application",
  "reason",
  "ip",
];

/** Every row the filters admit, as CSV lines, read a batch at a time down the same order as the screen. */
async function* exportLines(db: Db, filters: AuditFilters, unitIds?: readonly string[]): AsyncGenerator<string> {
  yield csvLine(exportHeader);
  let after: string | undefined;
  for (;;) {
    const views = await searchAuditTrail(db, filters, after, exportBatch, unitIds);
    for (const view of views) {
      yield csvLine([
        view.occurredAt,
        view.type,
        view.result,
        view.method,
        view.person?.username,
        view.person?.fullName,
        view.actor?.username,
        view.application?.name,
        view.reason,
        view.address,
      ]);
    }
    if (views.length < exportBatch) return;
    after = views.at(-1)?.id;
  }
}

/** The console's audit log: filtered pages (keyset, newest first) and the filtered set as CSV. */
export const adminAuditRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/audit",
    {
      config: { permission: "audit.view", subject: "list" },
      schema: {
        tags,
        summary: "Audit events",
        description:
          "Newest first, filtered by person, operator, event type, result, application, day range (UTC, both " +
          "ends included) and address. A person or operator is named by username or id. `next` is the `after` " +
          "of the following page.",
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...refusals },
      },
    },
    async (request) => {
      const { after, limit, ...filters } = request.query;
      // One row more than a page tells whether another page follows, without counting the table.
      const unitIds = unitFilterOf(operatorOf(request).reach);
      const events = await searchAuditTrail(app.db, filters, after, limit + 1, unitIds);
      const page = events.slice(0, limit);
      return { events: page, next: events.length > limit ? (page.at(-1)?.id ?? null) : null };
    },
  );

  app.get(
    "/api/admin/audit/export",
    {
      config: { permission: "audit.view", subject: "list" },
      schema: {
        tags,
        summary: "Audit events as CSV",
        description:
          "Every event the filters admit (the same filters as the list), streamed as UTF-8 CSV. A cell that a " +
          "spreadsheet would read as a formula starts with an apostrophe.",
        querystring: auditFilterSchema,
        response: refusals,
      },
    },
    async (request, typedReply) => {
      // The typed reply only takes the JSON refusals declared above; the answer here is a CSV stream.
      const reply: FastifyReply = typedReply;
      const day = app.clock().toISOString().slice(0, 10);
      // Who took a copy of the audit log out, and of what, is itself a row of it.
      await auditByOperator(request, {
        type: "audit_exported",
        result: "success",
        details: { filters: request.query },
      });
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="kpi-id-audit-${day}.csv"`)
        .header("cache-control", "no-store")
        .send(Readable.from(exportLines(app.db, request.query, unitFilterOf(operatorOf(request).reach))));
    },
  );
};

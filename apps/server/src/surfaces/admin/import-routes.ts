import {
  errorBodySchema,
  type ImportJobView,
  importJobRequestSchema,
  importJobSchema,
  importLinesShown,
  importMaxBytes,
  latestImportJobSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { parseCsvLines } from "../../model/users/csv.ts";
import { resolveColumns } from "../../model/users/import-columns.ts";
import {
  findImportJob,
  type ImportJobRow,
  jobLines,
  latestImportJob,
  requestCancel,
  startImportJob,
  statusOf,
  stopHere,
} from "../../model/users/import-jobs.ts";
import { AppError } from "../../platform/errors.ts";
import { guardConsoleRoutes, operatorAndOrigin, operatorOf } from "./plugin.ts";

const refusals = { 401: errorBodySchema, 403: errorBodySchema };
const tags = ["admin"];
// The file travels as base64 in JSON (a third larger). Twice the limit still reaches the handler,
// so a file somewhat too large is told admin.import_too_large, not only "request too large".
const bodyLimit = Math.ceil((2 * importMaxBytes) / 3) * 4 + 4096;

/**
 * The uploaded bytes as text, or the reason they are not a CSV file this import can read: too
 * large, binary, not UTF-8 (a spreadsheet's "CSV" in Windows-1251 would garble every name), no
 * header of comma-separated names, or a column no rule knows (its data would be dropped unread).
 */
export function csvFileText(base64: string): string {
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length > importMaxBytes) throw new AppError("admin.import_too_large");
  if (bytes.includes(0)) throw new AppError("admin.import_not_csv");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new AppError("admin.import_wrong_encoding", { cause: error });
  }
  const [header] = parseCsvLines(text).rows;
  if (header?.line !== 1 || header.fields.length < 2) throw new AppError("admin.import_not_csv");
  const { unknown } = resolveColumns(header);
  if (unknown.length > 0) {
    throw new AppError("admin.import_unknown_columns", {
      details: unknown.map((name) => ({ path: "file.header", message: name.slice(0, 64) })),
    });
  }
  return text;
}

function jobView(job: ImportJobRow, lines: "problems" | "all", now: Date): ImportJobView {
  const status = statusOf(job, now);
  return {
    id: job.id,
    mode: job.mode,
    status,
    fileName: job.file_name,
    total: job.total,
    processed: job.processed,
    created: job.created,
    updated: job.updated,
    unchanged: job.unchanged,
    rejected: job.rejected,
    startedAt: new Date(job.started_at).toISOString(),
    finishedAt: job.finished_at ? new Date(job.finished_at).toISOString() : null,
    lines: status === "running" ? [] : jobLines(job, lines),
  };
}

const jobParams = z.object({ id: z.uuid() });
const linesQuery = z.object({ lines: z.enum(importLinesShown).default("problems") });

/**
 * The console's import, as jobs that outlive the request: the same rules and service as `user
 * import`, tried first (dry run), then applied. The page polls the job; leaving and coming back
 * finds it again (`latest`).
 */
export const adminImportRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);
  const host = {
    db: app.db,
    databaseKind: app.database.kind,
    passwordHasher: app.passwordHasher,
    log: app.log,
    clock: app.clock,
    argon2: app.config.argon2,
    // On PostgreSQL a job runs in its own process (import-job-process.ts); the embedded database is in this one.
    ...(app.database.postgres ? { processDatabase: app.database.postgres } : {}),
  };
  const permission = { permission: "people.import", subject: "university" } as const;

  app.post(
    "/api/admin/import/jobs",
    {
      bodyLimit,
      config: permission,
      schema: {
        tags,
        summary: "Start an import of people",
        description:
          "Starts a CSV import (base64, UTF-8, at most 1 MiB) in the background and answers the job at once (202). " +
          "`dry-run` runs every line as `user import` would inside a transaction that is rolled back; `apply` keeps " +
          "them, a batch of lines at a time, each line whole, with an audit row naming the operator for every person " +
          "created or changed. The same file in the same mode while a job of it runs answers that job (200) instead " +
          "of starting a second.",
        body: importJobRequestSchema,
        response: {
          200: importJobSchema,
          202: importJobSchema,
          400: errorBodySchema,
          413: errorBodySchema,
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const text = csvFileText(request.body.file);
      const { actorId, ip, userAgent } = operatorAndOrigin(request);
      const { job, joined } = await startImportJob(host, {
        text,
        fileName: request.body.fileName,
        mode: request.body.mode,
        actor: { actorId, ip, ...(userAgent ? { userAgent } : {}) },
      });
      return reply.code(joined ? 200 : 202).send(jobView(job, "problems", app.clock()));
    },
  );

  app.get(
    "/api/admin/import/jobs/latest",
    {
      config: permission,
      schema: {
        tags,
        summary: "The operator's newest import",
        description: "The newest import job this operator started (its problem lines once it ended), or null.",
        response: { 200: latestImportJobSchema, ...refusals },
      },
    },
    async (request) => {
      const job = await latestImportJob(app.db, operatorOf(request).userId);
      return { job: job ? jobView(job, "problems", app.clock()) : null };
    },
  );

  app.get(
    "/api/admin/import/jobs/:id",
    {
      config: permission,
      schema: {
        tags,
        summary: "An import job's progress",
        description:
          "Counts so far while the job runs; once it ended, its lines: those with a problem, or all with `lines=all`. " +
          "A job whose instance stopped answering for a minute is `interrupted`: its lines so far are kept.",
        params: jobParams,
        querystring: linesQuery,
        response: { 200: importJobSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const job = await findImportJob(app.db, request.params.id);
      if (!job) throw new AppError("admin.import_job_not_found");
      return jobView(job, request.query.lines, app.clock());
    },
  );

  app.post(
    "/api/admin/import/jobs/:id/cancel",
    {
      config: permission,
      schema: {
        tags,
        summary: "Cancel an import job",
        description:
          "Stops the job after the batch of lines it is in: an apply keeps the lines done so far (each whole), a dry " +
          "run keeps nothing. A job that already ended is answered as it is.",
        params: jobParams,
        response: { 200: importJobSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      stopHere(request.params.id);
      const found = await findImportJob(app.db, request.params.id);
      if (!found) throw new AppError("admin.import_job_not_found");
      await requestCancel(app.db, found.id);
      const job = (await findImportJob(app.db, found.id)) ?? found;
      return jobView(job, "problems", app.clock());
    },
  );
};

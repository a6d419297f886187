import { errorBodySchema, importMaxBytes, importReportSchema, importRequestSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../errors.ts";
import { parseCsvLines } from "../users/csv.ts";
import { type ImportLineResult, runImport } from "../users/import.ts";
import { resolveColumns } from "../users/import-columns.ts";
import { auditByOperator, guardConsoleRoutes, operatorOf } from "./plugin.ts";

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

function report(lines: ImportLineResult[], applied: boolean) {
  const count = (outcome: ImportLineResult["outcome"]) => lines.filter((line) => line.outcome === outcome).length;
  return {
    applied,
    created: count("created"),
    updated: count("updated"),
    unchanged: count("unchanged"),
    rejected: count("rejected"),
    lines: lines.map(({ userId: _userId, ...line }) => line),
  };
}

/** The console's import: the same rules and service as `user import`, tried first (dry run), then applied. */
export const adminImportRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  for (const mode of ["dry-run", "apply"] as const) {
    app.post(
      `/api/admin/import/${mode}`,
      {
        bodyLimit,
        config: { permission: "people.import" },
        schema: {
          tags,
          summary: mode === "dry-run" ? "Try an import of people" : "Import people",
          description:
            mode === "dry-run"
              ? "Runs the CSV (base64, UTF-8, at most 1 MiB) as `user import` would, inside a transaction that is " +
                "rolled back: each line's outcome (created, updated, unchanged) or its reason, and nothing kept."
              : "Imports the CSV as `user import` does, each line in its own transaction (a re-run completes a run " +
                "that stopped), and writes an audit row naming the operator for every person created or changed.",
          body: importRequestSchema,
          response: { 200: importReportSchema, 400: errorBodySchema, 413: errorBodySchema, ...refusals },
        },
      },
      async (request) => {
        const text = csvFileText(request.body.file);
        const lines = await runImport(app.db, app.passwordHasher, text, {
          dryRun: mode === "dry-run",
          actorId: operatorOf(request).userId,
        });
        if (mode === "apply") {
          for (const line of lines) {
            if (line.outcome !== "created" && line.outcome !== "updated") continue;
            await auditByOperator(request, {
              type: "people_imported",
              result: "success",
              userId: line.userId,
              reason: line.outcome,
              details: { line: line.line },
            });
          }
        }
        return report(lines, mode === "apply");
      },
    );
  }
};

import type { ImportReasonCode } from "@kpi-id/contracts";
import { z } from "zod";
import { positionStatuses, studentStatuses } from "../../platform/db/people-schema.ts";
import type { Db } from "../../platform/db/schema.ts";
import { findApplicationByIdOrName } from "../apps/queries.ts";
import { findUnitByCode } from "../people/units.ts";
import { CLEAR_MARKER, type Column, personChanges } from "./import-columns.ts";
import { PersonRuleError } from "./rule-error.ts";
import { personChangesSchema } from "./service.ts";

/** One thing wrong with a line: a reason the console translates, the column, the rule's own words. */
export interface LineProblem {
  reason: ImportReasonCode;
  field: string | null;
  detail: string;
}

/** A line refused for every problem its checks found, not only the first. */
export class LineProblems extends Error {
  readonly problems: LineProblem[];
  constructor(problems: LineProblem[]) {
    super(problems.map((problem) => problem.detail).join("; "));
    this.problems = problems;
  }
}

/** Names looked up once a run: applications and units by what the file calls them (null: no such one). */
export interface NameLookups {
  applications: Map<string, string | null>;
  units: Map<string, string | null>;
}

async function lookedUp(cache: Map<string, string | null>, name: string, find: () => Promise<string | null>) {
  if (!cache.has(name)) cache.set(name, await find());
  return cache.get(name) ?? null;
}

/** The applications a line names (separated by ; or |), by id; an unknown one is a problem. */
export async function lineApplications(db: Db, lookups: NameLookups, list: string | undefined) {
  const ids: string[] = [];
  const problems: LineProblem[] = [];
  const names = (list ?? "")
    .split(/[;|]/)
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    const id = await lookedUp(
      lookups.applications,
      name,
      async () => (await findApplicationByIdOrName(db, name))?.id ?? null,
    );
    if (id) ids.push(id);
    else problems.push({ reason: "unknown_application", field: "apps", detail: `apps: unknown application '${name}'` });
  }
  return { ids, problems };
}

function fieldProblems(record: Partial<Record<Column, string>>): LineProblem[] {
  const problems: LineProblem[] = [];
  for (const column of ["username", "fullName", "password", "apps", "studentStatus", "employeeStatus"] as const) {
    if (record[column] === CLEAR_MARKER) {
      problems.push({ reason: "cannot_clear", field: column, detail: `${column}: cannot be cleared by import` });
    }
  }
  if (problems.length > 0) return problems;
  const parsed = personChangesSchema.safeParse(personChanges(record));
  for (const issue of parsed.error?.issues ?? []) {
    const field = typeof issue.path[0] === "string" ? issue.path[0] : null;
    problems.push({ reason: "invalid_value", field, detail: `${issue.path.join(".") || "row"}: ${issue.message}` });
  }
  const statuses = [
    ["studentStatus", studentStatuses],
    ["employeeStatus", positionStatuses],
  ] as const;
  for (const [column, allowed] of statuses) {
    const value = record[column];
    if (value && !z.enum(allowed).safeParse(value).success) {
      problems.push({ reason: "invalid_value", field: column, detail: `${column}: one of ${allowed.join(", ")}` });
    }
  }
  return problems;
}

/**
 * Every problem a line's own cells show, before anything is written: the values' rules, cells that
 * try to clear what cannot be cleared, and unknown applications and units. The operator fixes a line
 * once, not once per problem. What only writing can tell (a tax id another person holds) is still
 * found when the line is written.
 */
export async function lineProblems(
  db: Db,
  lookups: NameLookups,
  record: Partial<Record<Column, string>>,
): Promise<LineProblem[]> {
  const problems = fieldProblems(record);
  problems.push(...(await lineApplications(db, lookups, record.apps)).problems);
  for (const column of ["studentUnit", "employeeUnit"] as const) {
    const code = record[column];
    if (!code || code === CLEAR_MARKER) continue;
    const unit = await lookedUp(
      lookups.units,
      code.toLowerCase(),
      async () => (await findUnitByCode(db, code))?.id ?? null,
    );
    if (!unit) problems.push({ reason: "unknown_unit", field: column, detail: `${column}: unknown unit '${code}'` });
  }
  return problems;
}

/** The problems of a line a write refused: one, from the rule or the database. */
export function problemsOf(error: unknown): LineProblem[] {
  if (error instanceof LineProblems) return error.problems;
  if (error instanceof PersonRuleError) return [{ reason: error.reason, field: error.field, detail: error.message }];
  if (error instanceof z.ZodError) {
    return error.issues.map((issue) => ({
      reason: "invalid_value",
      field: typeof issue.path[0] === "string" ? issue.path[0] : null,
      detail: `${issue.path.join(".") || "row"}: ${issue.message}`,
    }));
  }
  if ((error as { code?: string }).code === "23505") {
    const constraint = (error as { constraint?: string }).constraint ?? (error as Error).message;
    return constraint.includes("tax_id")
      ? [{ reason: "tax_id_taken", field: "taxId", detail: "taxId: already held by another person" }]
      : [{ reason: "duplicate", field: null, detail: "duplicate value" }];
  }
  return [{ reason: "failed", field: null, detail: error instanceof Error ? error.message : String(error) }];
}

import { type BulkGrantOutcome, type BulkGrantReport, bulkGrantMaxLines } from "@kpi-id/contracts";
import { sql } from "kysely";
import { z } from "zod";
import { recordAuditEvents } from "../../platform/audit/record.ts";
import type { Db } from "../../platform/db/schema.ts";

/**
 * Granting an application to many people at once, from a pasted list or a CSV file: one username, e-mail or
 * person id per line (a CSV's first cell; a header line is skipped). One transaction; each line gets an outcome.
 * As `user grant`: the grant lifts an exclusion, and a disabled person is granted too (marked in the report:
 * they cannot sign in until enabled).
 */

export class BulkGrantTooLongError extends Error {
  override name = "BulkGrantTooLongError";
}

/** Who acts, for the audit rows (one per person granted). */
export interface BulkGrantActor {
  actorId?: string;
  reason: string;
  ip?: string;
  userAgent?: string;
  /** When, by the app's clock. */
  at?: Date;
}

type Key = { kind: "id" | "email" | "username"; value: string };

const headerWords = new Set(["username", "email", "e-mail", "login", "id", "user"]);
const emailPattern = /^[^\s@,;"]+@[^\s@,;"]+$/;
const usernamePattern = /^[^\s,;"'<>@]{1,128}$/;

function firstCell(line: string): string {
  const cell = line.split(/[,;\t]/)[0] ?? "";
  return cell
    .trim()
    .replace(/^"(.*)"$/, "$1")
    .trim();
}

function keyOf(cell: string): Key | undefined {
  if (z.uuid().safeParse(cell).success) return { kind: "id", value: cell.toLowerCase() };
  if (cell.includes("@"))
    return emailPattern.test(cell) && cell.length <= 320 ? { kind: "email", value: cell.toLowerCase() } : undefined;
  return usernamePattern.test(cell) ? { kind: "username", value: cell.toLowerCase() } : undefined;
}

interface Line {
  line: number;
  value: string;
  key: Key | undefined;
}

/** The list's lines worth a report (blank ones and a header are not); too many is BulkGrantTooLongError. */
export function parseBulkList(list: string): Line[] {
  const lines: Line[] = [];
  list
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\n|\r/)
    .forEach((raw, index) => {
      if (!raw.trim()) return;
      const value = firstCell(raw);
      if (lines.length === 0 && headerWords.has(value.toLowerCase())) return;
      lines.push({ line: index + 1, value: value.slice(0, 200), key: keyOf(value) });
    });
  if (lines.length > bulkGrantMaxLines) throw new BulkGrantTooLongError(`more than ${bulkGrantMaxLines} lines`);
  return lines;
}

/** A person a line names, as their owner finds them (model/users/for-lists.ts, findPeopleByKeys). */
export interface Found {
  id: string;
  status: "active" | "disabled";
  username: string;
}

/**
 * Finds the people the lines name, keyed `id:…`, `username:…`, `email:…` (lower-cased): model/users' lookup,
 * which the caller passes in, as access sits below the people's accounts.
 */
export type FindPeople = (
  db: Db,
  keys: { ids: string[]; emails: string[]; usernames: string[] },
) => Promise<Map<string, Found>>;

export async function bulkGrant(
  db: Db,
  applicationId: string,
  list: string,
  by: BulkGrantActor,
  findPeople: FindPeople,
): Promise<BulkGrantReport> {
  const lines = parseBulkList(list);
  return db.transaction().execute(async (tx) => {
    const keys = lines.flatMap((line) => (line.key ? [line.key] : []));
    const of = (kind: Key["kind"]) => [...new Set(keys.filter((key) => key.kind === kind).map((key) => key.value))];
    const found = await findPeople(tx, { ids: of("id"), emails: of("email"), usernames: of("username") });
    const personOf = (line: Line) => (line.key ? found.get(`${line.key.kind}:${line.key.value}`) : undefined);
    const userIds = [...new Set(lines.flatMap((line) => personOf(line)?.id ?? []))];
    const had = new Set<string>();
    if (userIds.length) {
      const rows = await sql<{ user_id: string }>`select user_id from user_applications
        where application_id = ${applicationId} and user_id in (${sql.join(userIds)})
        and user_id not in (select user_id from access_exclusions where application_id = ${applicationId})`.execute(tx);
      for (const row of rows.rows) had.add(row.user_id);
      await tx
        .deleteFrom("access_exclusions")
        .where("application_id", "=", applicationId)
        .where("user_id", "in", userIds)
        .execute();
      await tx
        .insertInto("user_applications")
        .values(userIds.map((userId) => ({ user_id: userId, application_id: applicationId })))
        .onConflict((conflict) => conflict.columns(["user_id", "application_id"]).doNothing())
        .execute();
    }
    const granted = userIds.filter((id) => !had.has(id));
    if (granted.length) {
      const at = by.at ?? new Date();
      await recordAuditEvents(
        tx,
        granted.map((userId) => ({
          type: "access_granted",
          result: "success",
          userId,
          applicationId,
          reason: by.reason,
          actorId: by.actorId,
          ip: by.ip,
          userAgent: by.userAgent,
          occurredAt: at,
          details: { bulk: true },
        })),
      );
    }
    const reported = new Set<string>();
    const report: BulkGrantReport = { granted: 0, alreadyHad: 0, refused: 0, lines: [] };
    for (const line of lines) {
      const person = personOf(line);
      let outcome: BulkGrantOutcome;
      if (!line.key) outcome = "bad_line";
      else if (!person) outcome = "unknown_person";
      else outcome = had.has(person.id) || reported.has(person.id) ? "already_had" : "granted";
      if (person) reported.add(person.id);
      if (outcome === "granted") report.granted += 1;
      else if (outcome === "already_had") report.alreadyHad += 1;
      else report.refused += 1;
      report.lines.push({ line: line.line, value: line.value, outcome, disabled: person?.status === "disabled" });
    }
    return report;
  });
}

import { sql } from "kysely";
import type { AuditEvent } from "../../platform/audit/record.ts";
import type { PasswordHasher } from "../../platform/crypto/password.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { grantAccess, grantAccessToNewPerson } from "../access/applications.ts";
import { LineProblems, lineApplications, lineProblems, type NameLookups } from "./import-checks.ts";
import { type Column, personChanges, recordDetails } from "./import-columns.ts";
import { upsertUser } from "./service.ts";
import { personSnapshot, personSnapshots } from "./snapshot.ts";

/** Who runs an import, named on the audit rows its lines write (the console's operator). */
export interface ImportActor {
  actorId: string;
  ip?: string;
  userAgent?: string;
}

/** What one run of an import keeps between its lines. */
export interface ImportRun {
  hasher: PasswordHasher;
  actor?: ImportActor;
  /** Applications and units by the name, id or code the file gives, looked up once a run. */
  lookups: NameLookups;
  /**
   * The people the batch's lines name, by lower-cased username: their id and snapshot as the next
   * line would find them (a person a line of this batch created has none until a later line asks).
   * Read a batch at a time from the database the lines write to, then kept current by each line,
   * so a file naming a person twice sees the first line's change.
   */
  people: Map<string, { id: string; snapshot?: string; user?: User }>;
  /** The batch's usernames no one holds (until a line of the batch creates them). */
  absent: Set<string>;
}

export function newImportRun(hasher: PasswordHasher, actor?: ImportActor): ImportRun {
  return {
    hasher,
    lookups: { applications: new Map(), units: new Map() },
    people: new Map(),
    absent: new Set(),
    ...(actor ? { actor } : {}),
  };
}

/**
 * Reads the people a batch of lines names in two statements, through the lower(username) index:
 * one lookup per line was a scan of the whole table per line at 100,000 people.
 */
export async function prefetchPeople(db: Db, run: ImportRun, usernames: string[]): Promise<void> {
  // Only this batch's people are held: an import of 10,000 lines keeps 200 snapshots, not 10,000.
  run.people.clear();
  const wanted = [...new Set(usernames.map((name) => name.toLowerCase()))].filter(Boolean);
  if (wanted.length === 0) return;
  const users = await db.selectFrom("users").selectAll().where(sql<string>`lower(username)`, "in", wanted).execute();
  const snapshots = await personSnapshots(
    db,
    users.map((user) => user.id),
  );
  for (const user of users) {
    run.people.set(user.username.toLowerCase(), { id: user.id, snapshot: snapshots.get(user.id) ?? "", user });
  }
  // The rest are known to be new: their lines create them without looking them up again.
  run.absent = new Set(wanted.filter((name) => !run.people.has(name)));
}

/** What the batch read of the line's person: their row, null when no one holds the name, undefined to look. */
function knownPerson(run: ImportRun, key: string): User | null | undefined {
  if (run.absent.has(key)) return null;
  return run.people.get(key)?.user;
}

/**
 * One line, inside its own savepoint: all of it or none of it. Its audit rows are answered, not
 * written: the batch writes its lines' rows in one statement once they stood (a dry run writes none).
 */
export async function importRow(db: Db, run: ImportRun, record: Partial<Record<Column, string>>, line: number) {
  const audit: AuditEvent[] = [];
  const problems = await lineProblems(db, run.lookups, record);
  if (problems.length > 0) throw new LineProblems(problems);
  const changes = personChanges(record);
  const applications = (await lineApplications(db, run.lookups, record.apps)).ids;
  const password = record.password?.trim() ? record.password : undefined;
  const key = changes.username.toLowerCase();
  const held = run.people.get(key);
  const before = held && held.snapshot === undefined ? { ...held, snapshot: await personSnapshot(db, held.id) } : held;
  // The batch's read is used while it is current: a person no earlier line of the batch touched.
  const result = await upsertUser(
    db,
    run.hasher,
    changes,
    password,
    recordDetails(record),
    "csv",
    knownPerson(run, key),
  );
  run.absent.delete(key);
  const { actor } = run;
  for (const applicationId of applications) {
    // Audited only when access changed, so a repeated import of the same line adds no row. A person
    // just created has no access and no exclusion to lift.
    const granted =
      result.outcome === "created"
        ? await grantAccessToNewPerson(db, result.user.id, applicationId)
        : await grantAccess(db, result.user.id, applicationId);
    if (granted) {
      audit.push({
        type: "access_granted",
        result: "success",
        userId: result.user.id,
        applicationId,
        reason: "csv",
        ...(actor ? { actorId: actor.actorId } : {}),
      });
    }
  }
  // A person just created is "created" whatever follows; their snapshot is read only if a later line names them.
  const after = result.outcome === "created" ? undefined : await personSnapshot(db, result.user.id);
  const same = before?.snapshot !== undefined && password === undefined && before.snapshot === after;
  const outcome = same ? ("unchanged" as const) : result.outcome;
  if (actor && outcome !== "unchanged") {
    audit.push({
      type: "people_imported",
      result: "success",
      userId: result.user.id,
      reason: outcome,
      details: { line },
      ...actor,
    });
  }
  return { outcome, userId: result.user.id, after, audit };
}

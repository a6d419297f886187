// SCIM's writes of people, each in one transaction (issue 76: the protocol checks the request and reads what it
// needs first; the writes are the model's).
import type { Db, NewUser, UserUpdate } from "../../platform/db/schema.ts";
import type { PositionInput, StudentRecordInput } from "../people/records.ts";
import { disableUserWithin } from "../sessions/disable.ts";
import type { EndedSessions, SessionEnding, Why } from "../sessions/end-sessions.ts";
import { replacePersonRecords } from "../users/primary-records.ts";
import { insertUser, updateUser } from "../users/queries.ts";

/**
 * A SCIM client's DELETE of a User, in one transaction: the person is disabled (their sessions, tokens and consents
 * end) and hidden from SCIM; audit rows keep naming them. The caller tells the applications (`tellApplications`)
 * once it is committed.
 */
export function deleteScimPerson(
  db: Db,
  ending: Omit<SessionEnding, "db">,
  userId: string,
  actor: Omit<Why, "reason">,
): Promise<EndedSessions> {
  return db.transaction().execute(async (tx) => {
    const ended = await disableUserWithin(tx, ending, userId, actor);
    await updateUser(tx, userId, { scim_deleted_at: ending.now });
    return ended;
  });
}

/** A SCIM client's write of a User, its checks done: what changes, in the order it is written. */
export interface ScimPersonWrite {
  /** The person written: an existing one (their changed columns, none when nothing changes) or a new one. */
  person: { id: string; changes?: UserUpdate } | { insert: NewUser };
  /** A person deleted over SCIM whose externalId the written one takes. */
  takeExternalIdFrom?: string;
  /** The records the write names (a list not named is left as it is). */
  records?: { students?: StudentRecordInput[]; positions?: PositionInput[] };
  /** Deactivated by this write: disabled as the console disables (sessions, tokens and consents end). */
  deactivate: boolean;
}

/**
 * Writes a SCIM User in one transaction: a person whose records are refused (a bad date) is not half made. Answers
 * the person's id (undefined when the person is gone) and, when deactivated, the ended sessions, whose applications
 * the caller tells (`tellApplications`) once it is committed.
 */
export function writeScimPerson(
  db: Db,
  write: ScimPersonWrite,
  ending: Omit<SessionEnding, "db">,
  actor: Omit<Why, "reason">,
): Promise<{ userId: string | undefined; signedOut?: EndedSessions }> {
  return db.transaction().execute(async (tx) => {
    if (write.takeExternalIdFrom) await updateUser(tx, write.takeExternalIdFrom, { scim_external_id: null });
    const { person } = write;
    const userId =
      "insert" in person
        ? (await insertUser(tx, person.insert)).id
        : person.changes
          ? (await updateUser(tx, person.id, person.changes))?.id
          : person.id;
    if (userId === undefined) return { userId };
    if (write.records) await replacePersonRecords(tx, userId, write.records, "scim");
    const signedOut = write.deactivate ? await disableUserWithin(tx, ending, userId, actor) : undefined;
    return { userId, signedOut };
  });
}

import { text } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { PositionInput, StudentRecordInput } from "../../model/people/records.ts";
import { unitIdsByCode } from "../../model/people/records-of-people.ts";
import { deleteScimPerson, writeScimPerson } from "../../model/scim/person-writes.ts";
import { findUserById, findUserByUsername } from "../../model/users/queries.ts";
import { isRetiredUsername } from "../../model/users/retired-usernames.ts";
import { personByExternalId } from "../../model/users/scim-candidates.ts";
import { personSchema } from "../../model/users/service.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { audit, requestOrigin } from "../../platform/http/audit.ts";
import { scimTokenOf } from "./auth.ts";
import { kpiUserSchemaId } from "./constants.ts";
import { ScimError } from "./errors.ts";
import { chooseFullName, keptAttributesOf, type NameInput, stableJson } from "./user-fields.ts";
import { type ScimUserView, userViews } from "./user-model.ts";
import { afterPushedPassword, hashPushedPassword } from "./user-password.ts";

/** What a SCIM client sends of a person, after scimmy coerced it to the User schema. */
const recordFields = {
  unit: text().trim().max(64).optional(),
  startsOn: text().optional(),
  endsOn: text().optional(),
  primary: z.boolean().optional(),
};
const inboundUser = z.object({
  userName: personSchema.shape.username,
  externalId: text().trim().min(1).max(256).optional(),
  name: z
    .object({
      formatted: text().optional(),
      givenName: text().optional(),
      familyName: text().optional(),
      middleName: text().optional(),
    })
    .optional(),
  displayName: text().optional(),
  emails: z.array(z.object({ value: text(), primary: z.boolean().optional() })).optional(),
  active: z.boolean().optional(),
  [kpiUserSchemaId]: z
    .object({
      studentRecords: z
        .array(
          z.object({
            ...recordFields,
            studentId: text(),
            speciality: text().optional(),
            studyForm: text().optional(),
            studyYear: z.number().int().optional(),
            status: text(),
          }),
        )
        .optional(),
      employeePositions: z
        .array(
          z.object({
            ...recordFields,
            employeeId: text(),
            position: text().optional(),
            employmentType: text().optional(),
            category: text().optional(),
            status: text(),
          }),
        )
        .optional(),
    })
    .optional(),
});
type InboundUser = z.output<typeof inboundUser>;

/** How the write came: PUT leaves a record list it does not name; PATCH sends the whole patched person. */
export type WriteMode = "create" | "replace" | "patch";

function nameOf(input: { name?: NameInput | undefined; displayName?: string | undefined }): NameInput {
  return { ...input.name, displayName: input.displayName };
}

const recordLists = (extension: InboundUser[typeof kpiUserSchemaId] | ScimUserView[typeof kpiUserSchemaId]) =>
  stableJson({ students: extension?.studentRecords ?? [], positions: extension?.employeePositions ?? [] });

function emailOf(input: InboundUser): string | null {
  const email = input.emails?.find((item) => item.primary) ?? input.emails?.[0];
  return email ? z.email().parse(email.value.trim()) : null;
}

async function unitIds(db: Db, codes: (string | undefined)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(codes.filter((code): code is string => !!code).map((code) => code.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const found = await unitIdsByCode(db, wanted);
  const missing = wanted.find((code) => !found.has(code));
  if (missing) throw new ScimError("scim.invalid_request", "invalidValue", `unknown unit '${missing}'`);
  return found;
}

/** The records a write names, their units found (an unknown unit is refused); undefined: they stay as they are. */
async function recordsToWrite(
  db: Db,
  input: InboundUser,
  mode: WriteMode,
  before: ScimUserView | undefined,
): Promise<{ students?: StudentRecordInput[]; positions?: PositionInput[] } | undefined> {
  const extension = input[kpiUserSchemaId];
  // A PATCH of something else carries the records as they were: rewriting them would move the version.
  if (mode === "patch" && before && recordLists(extension) === recordLists(before[kpiUserSchemaId])) return undefined;
  // A PATCH that removed the last record sends no list: that is an empty list. PUT and POST without the
  // list leave it to the system that owns it (docs/scim.md, "Several source systems").
  const absentMeansEmpty = mode === "patch";
  const students = extension?.studentRecords ?? (absentMeansEmpty ? [] : undefined);
  const positions = extension?.employeePositions ?? (absentMeansEmpty ? [] : undefined);
  const codes = await unitIds(
    db,
    [...(students ?? []), ...(positions ?? [])].map((record) => record.unit),
  );
  const unitId = (code: string | undefined) => (code ? codes.get(code.toLowerCase()) : undefined);
  const studentInputs = students?.map(
    ({ unit, ...record }) => ({ ...record, unitId: unitId(unit) }) as StudentRecordInput,
  );
  const positionInputs = positions?.map(
    ({ unit, ...record }) => ({ ...record, unitId: unitId(unit) }) as PositionInput,
  );
  if (!studentInputs && !positionInputs) return undefined;
  return { students: studentInputs, positions: positionInputs };
}

/** Whether the write changes anything of the person's row (a PATCH that changes nothing keeps the version). */
function changesRow(existing: User, fields: Partial<Record<keyof User, unknown>>): boolean {
  return Object.entries(fields).some(([key, value]) => {
    const current = existing[key as keyof User];
    return key === "scim_attributes"
      ? stableJson(current ?? null) !== (value ?? "null")
      : (current ?? null) !== (value ?? null);
  });
}

/**
 * Refuses a userName or externalId another person holds. Answers the person deleted over SCIM that comes back
 * under this userName (POST), and the one deleted over SCIM whose externalId the written person takes.
 */
async function assertUnique(
  db: Db,
  input: InboundUser,
  selfId: string | undefined,
): Promise<{ revived?: User; takeExternalIdFrom?: string }> {
  const byName = await findUserByUsername(db, input.userName);
  if (byName && byName.id !== selfId && !byName.scim_deleted_at) {
    throw new ScimError("scim.conflict", "uniqueness", "userName is taken");
  }
  // An anonymised person is never brought back, nor is their former name given to someone new (docs/scim.md).
  const newName = !byName || byName.id !== selfId;
  if (byName?.anonymised_at || (newName && (await isRetiredUsername(db, input.userName)))) {
    throw new ScimError("scim.conflict", "uniqueness", "userName belonged to a person whose data was erased");
  }
  let takeExternalIdFrom: string | undefined;
  if (input.externalId) {
    const byExternal = await personByExternalId(db, input.externalId);
    if (byExternal && byExternal.id !== selfId && byExternal.id !== byName?.id) {
      // A person deleted over SCIM keeps no claim on the source system's id: the new person takes it.
      if (byExternal.scim_deleted_at) takeExternalIdFrom = byExternal.id;
      else throw new ScimError("scim.conflict", "uniqueness", `externalId is taken by User ${byExternal.id}`);
    }
  }
  return { revived: byName && byName.id !== selfId ? byName : undefined, takeExternalIdFrom };
}

/**
 * Creates (POST), replaces (PUT) or patches a person from a SCIM User. A deleted person of the same
 * userName comes back on POST. Deactivation is the console's disable: sessions and OpenID Connect
 * grants end at once. Every change is audited with the client's token name.
 */
export async function writeScimUser(
  request: FastifyRequest,
  id: string | undefined,
  raw: unknown,
  mode: WriteMode,
  password?: string,
): Promise<User> {
  const input = inboundUser.parse(raw);
  // Hashed before the transaction: argon2id takes its time, and a refused password leaves nothing half made.
  const passwordHash =
    password === undefined
      ? undefined
      : await hashPushedPassword(
          request,
          password,
          {
            username: input.userName,
            fullName: chooseFullName(nameOf(input), undefined),
            email: input.emails?.[0]?.value ?? null,
          },
          id,
        );
  const kept = keptAttributesOf(JSON.parse(JSON.stringify(raw ?? {})) as Record<string, unknown>);
  // Read and checked first (a refusal writes nothing); then the writes, one transaction (model/scim).
  const now = request.server.clock();
  const db = request.server.db;
  const current = id ? await findUserById(db, id) : undefined;
  if (id && (!current || current.scim_deleted_at)) throw new ScimError("request.not_found", undefined, "no such User");
  const [before] = current ? await userViews(db, [current]) : [];
  const fields = {
    username: input.userName,
    full_name: chooseFullName(
      nameOf(input),
      before && current ? { ...nameOf(before), fullName: current.full_name } : undefined,
    ),
    email: emailOf(input),
    scim_external_id: input.externalId ?? null,
    scim_attributes: kept ? stableJson(kept) : null,
  };
  const { revived, takeExternalIdFrom } = await assertUnique(db, input, current?.id);
  const existing = current ?? revived;
  const changes = {
    ...fields,
    ...(passwordHash ? { password_hash: passwordHash } : {}),
    ...(revived ? { scim_deleted_at: null } : {}),
    ...(input.active !== false && existing?.status === "disabled" ? { status: "active" as const } : {}),
  };
  const records = await recordsToWrite(db, input, mode, before);
  const deactivated = input.active === false && (!existing || existing.status === "active" || !!revived);
  const written = await writeScimPerson(
    db,
    {
      person: existing
        ? { id: existing.id, changes: changesRow(existing, changes) ? changes : undefined }
        : { insert: { ...fields, password_hash: passwordHash ?? null } },
      takeExternalIdFrom,
      records,
      deactivate: deactivated,
    },
    { now, signOut: request.server.signOut },
    requestOrigin(request),
  );
  if (written.userId === undefined) throw new ScimError("request.not_found", undefined, "no such User");
  const kind = existing ? (revived ? "restored" : mode === "patch" ? "patched" : "replaced") : "created";
  const outcome = {
    userId: written.userId,
    deactivated,
    kind,
    hadPassword: !!existing?.password_hash,
    signedOut: written.signedOut,
  };
  // The applications hear of the ended sessions once the change is committed.
  await outcome.signedOut?.tellApplications();
  await audit(request, {
    type: "scim_change",
    result: "success",
    userId: outcome.userId,
    reason: `scim.user_${outcome.kind}`,
    details: { actor: `scim:${scimTokenOf(request).name}`, ...(outcome.deactivated ? { deactivated: true } : {}) },
  });
  const user = await findUserById(request.server.db, outcome.userId);
  if (!user) throw new ScimError("request.not_found", undefined, "no such User");
  if (passwordHash) await afterPushedPassword(request, user, outcome.hadPassword, outcome.kind === "created");
  return user;
}

/** DELETE: the person is disabled (sessions end) and hidden from SCIM; audit rows keep naming them. */
export async function deleteScimUser(request: FastifyRequest, id: string): Promise<void> {
  const user = await findUserById(request.server.db, id);
  if (!user || user.scim_deleted_at) throw new ScimError("request.not_found", undefined, "no such User");
  const now = request.server.clock();
  const signedOut = await deleteScimPerson(
    request.server.db,
    { now, signOut: request.server.signOut },
    user.id,
    requestOrigin(request),
  );
  await signedOut.tellApplications();
  await audit(request, {
    type: "scim_change",
    result: "success",
    userId: user.id,
    reason: "scim.user_deleted",
    details: { actor: `scim:${scimTokenOf(request).name}` },
  });
}

import { randomBytes } from "node:crypto";
import { text } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { rulesNameUnit } from "../../model/access/rules.ts";
import { findUnitByCode, findUnitById, removeUnit, UnitError } from "../../model/people/units.ts";
import { pushedUnitIds, writePushedGroup } from "../../model/scim/group-members.ts";
import { groupMemberRows } from "../../model/scim/group-views.ts";
import { type Unit, unitKinds } from "../../platform/db/people-schema.ts";
import type { Db } from "../../platform/db/schema.ts";
import { audit } from "../../platform/http/audit.ts";
import { scimTokenOf } from "./auth.ts";
import { kpiGroupSchemaId, scimBasePath } from "./constants.ts";
import { ScimError } from "./errors.ts";

/**
 * Groups are the university's units. Members are the people whose current student record or employee
 * position names the unit itself (not its sub-units); they follow from the records, so SCIM reads them
 * and a client changes them through the Users' records, never through the Group. The exception is a group
 * a client created over SCIM without the unit extension (Entra ID's and Okta's group push): it keeps the
 * members the client pushes (model/scim/group-members.ts).
 */

export interface ScimGroupView {
  id: string;
  displayName: string;
  externalId: string;
  members?: { value: string; display: string; $ref: string; type: "User" }[];
  meta: { created: string; lastModified: string; version: string };
  [kpiGroupSchemaId]: { kind: string; nameEn?: string; parent?: string };
}

/** The code of a unit pushed without an externalId (Okta's group push): stable, unique, and marked as pushed. */
const pushedUnitCode = () => `scim-${randomBytes(6).toString("hex")}`;

export function groupVersion(unit: Pick<Unit, "updated_at">): string {
  return `W/"${unit.updated_at.getTime().toString(36)}"`;
}

export async function groupViews(db: Db, units: Unit[]): Promise<ScimGroupView[]> {
  if (units.length === 0) return [];
  const ids = units.map((unit) => unit.id);
  const { pushed, members, all, pushedRows } = await groupMemberRows(db, ids);
  const codes = new Map(all.map((unit) => [unit.id, unit.code]));
  return units.map((unit) => {
    const own = (pushed.has(unit.id) ? pushedRows : members).filter((row) => row.unit_id === unit.id);
    return {
      id: unit.id,
      displayName: unit.name_uk,
      externalId: unit.code,
      ...(own.length
        ? {
            members: own.map((row) => ({
              value: row.user_id,
              display: row.username,
              $ref: `${scimBasePath}/Users/${row.user_id}`,
              type: "User" as const,
            })),
          }
        : {}),
      meta: {
        created: unit.created_at.toISOString(),
        lastModified: unit.updated_at.toISOString(),
        version: groupVersion(unit),
      },
      [kpiGroupSchemaId]: {
        kind: unit.kind,
        ...(unit.name_en ? { nameEn: unit.name_en } : {}),
        ...(unit.parent_id ? { parent: codes.get(unit.parent_id) } : {}),
      },
    };
  });
}

const inboundGroup = z.object({
  displayName: text().trim().min(1).max(200),
  // Okta's group push sends only a displayName: such a unit gets a code of its own (pushedUnitCode).
  externalId: text().trim().min(1).max(64).optional(),
  members: z.array(z.object({ value: text() })).optional(),
  [kpiGroupSchemaId]: z
    .object({
      kind: z.enum(unitKinds).optional(),
      nameEn: text().max(200).optional(),
      parent: text().max(64).optional(),
    })
    .optional(),
});

function sameMembers(wanted: { value: string }[] | undefined, current: ScimGroupView["members"]): boolean {
  const a = new Set((wanted ?? []).map((member) => member.value));
  const b = new Set((current ?? []).map((member) => member.value));
  return a.size === b.size && [...a].every((value) => b.has(value));
}

function unitErrorToScim(error: unknown): never {
  if (error instanceof UnitError) {
    const code = error.reason === "in_use" ? "scim.conflict" : "scim.invalid_request";
    throw new ScimError(code, error.reason === "in_use" ? undefined : "invalidValue", error.message);
  }
  throw error;
}

/** Why a unit's members cannot be pushed: the rule, named for the client's operator. */
const derivedMembersRule =
  "members of this Group follow from the Users' student records and employee positions (it is one of KPI ID's " +
  "units); change those records instead. Only a Group created over SCIM without the KpiUnit extension keeps " +
  "the members a client pushes";

/**
 * POST (no id) or PUT/PATCH of a unit; the code (externalId) names the unit and never changes. A PATCH sends
 * the whole patched group, so there a missing members list is an empty one; a PUT without it keeps them.
 */
export async function writeScimGroup(
  request: FastifyRequest,
  id: string | undefined,
  raw: unknown,
  mode: "write" | "patch" = "write",
): Promise<Unit> {
  const db = request.server.db;
  const input = inboundGroup.parse(raw);
  const current = id ? await findUnitById(db, id) : undefined;
  if (id && !current) throw new ScimError("request.not_found", undefined, "no such Group");
  const [currentView] = current ? await groupViews(db, [current]) : [];
  const isPushed = current
    ? (await pushedUnitIds(db, [current.id])).has(current.id)
    : input[kpiGroupSchemaId] === undefined;
  const members = input.members ?? (mode === "patch" ? [] : undefined);
  const membersChange = members !== undefined && !sameMembers(members, currentView?.members);
  if (membersChange && !isPushed) throw new ScimError("scim.invalid_request", "mutability", derivedMembersRule);
  const code = input.externalId ?? current?.code ?? pushedUnitCode();
  if (current && current.code.toLowerCase() !== code.toLowerCase()) {
    throw new ScimError("scim.invalid_request", "mutability", "externalId (the unit's code) does not change");
  }
  if (!current && (await findUnitByCode(db, code))) {
    throw new ScimError("scim.conflict", "uniqueness", "a unit with that externalId exists");
  }
  const extension = input[kpiGroupSchemaId];
  // A pushed group without the KPI extension is a group of people: a unit of kind "group".
  const kind = extension?.kind ?? current?.kind ?? "group";
  const actor = `scim:${scimTokenOf(request).name}`;
  // One transaction (model/scim): a group whose members are refused (a User that is not there) is not half made.
  const outcome = await writePushedGroup(db, {
    unit: {
      code,
      kind,
      nameUk: input.displayName,
      nameEn: extension?.nameEn ?? "",
      parentCode: extension?.parent ?? null,
    },
    pushed: isPushed,
    pushedBy: scimTokenOf(request).name,
    members: isPushed && membersChange ? members.map((member) => member.value) : undefined,
  }).catch(unitErrorToScim);
  if ("missing" in outcome) {
    throw new ScimError("scim.invalid_request", "invalidValue", `members: no User '${outcome.missing}'`);
  }
  const { unit, created, changed } = outcome;
  await audit(request, {
    type: "scim_change",
    result: "success",
    reason: created ? "scim.group_created" : "scim.group_replaced",
    details: {
      actor,
      unit: unit.code,
      ...(changed ? { membersAdded: changed.added, membersRemoved: changed.removed } : {}),
    },
  });
  return unit;
}

export async function deleteScimGroup(request: FastifyRequest, id: string): Promise<void> {
  const unit = await findUnitById(request.server.db, id);
  if (!unit) throw new ScimError("request.not_found", undefined, "no such Group");
  await removeUnit(request.server.db, unit.code, rulesNameUnit).catch(unitErrorToScim);
  await audit(request, {
    type: "scim_change",
    result: "success",
    reason: "scim.group_deleted",
    details: { actor: `scim:${scimTokenOf(request).name}`, unit: unit.code },
  });
}

import type { Guest, GuestInvitationRequest } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { upsertUnit } from "../../src/model/people/units.ts";
import { replacePersonRecords } from "../../src/model/users/primary-records.ts";
import { postJson } from "./app.ts";
import { addPerson, signIn } from "./campus.ts";

export const guestPassword = "a quiet courtyard in kyiv";
export const staffPassword = "sponsors-passphrase-77";

/** Two faculties, for sponsors to work in and guests to be attached to. */
export async function guestUnits(app: FastifyInstance) {
  const kpi = (await upsertUnit(app.db, { code: "KPI", kind: "university", nameUk: "КПІ", parentCode: null })).unit;
  const fiot = (
    await upsertUnit(app.db, { code: "FIOT", kind: "faculty", nameUk: "ФІОТ", nameEn: "FICT", parentCode: "KPI" })
  ).unit;
  const fel = (await upsertUnit(app.db, { code: "FEL", kind: "faculty", nameUk: "ФЕЛ", parentCode: "KPI" })).unit;
  return { kpi: kpi.id, fiot: fiot.id, fel: fel.id };
}

/** A member of staff (an active position in the unit), signed in: the cookie and the person. */
export async function staffMember(app: FastifyInstance, username: string, unitId: string) {
  const person = await addPerson(
    app,
    { username, fullName: `Staff ${username}`, email: `${username}@kpi.ua` },
    staffPassword,
  );
  await app.db
    .updateTable("users")
    .set({ verified_email: `${username}@kpi.ua` })
    .where("id", "=", person.id)
    .execute();
  await replacePersonRecords(
    app.db,
    person.id,
    { positions: [{ employeeId: `E-${username}`, unitId, status: "active", category: "faculty" }] },
    "test",
  );
  return { person, cookie: await signIn(app, username, staffPassword) };
}

/** What a sponsor types, with a last day `days` from the test's today. */
export function invitation(now: Date, overrides: Partial<GuestInvitationRequest> = {}): GuestInvitationRequest {
  const endsOn = new Date(now.getTime() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  return {
    fullName: "Jane Visitor",
    email: "jane.visitor@example.org",
    endsOn,
    unitIds: [],
    applicationIds: [],
    reason: "Visiting researcher, joint project",
    language: "en",
    ...overrides,
  };
}

export async function inviteGuest(app: FastifyInstance, cookie: string, body: GuestInvitationRequest) {
  return postJson(app, "/api/account/guests", body, { headers: { cookie } });
}

/** The one-time link an invitation mail carries, and its token. */
export function guestLinkIn(text: string): { url: string; token: string } {
  const found = /(https?:\/\/\S+\/(?:uk|en)\/guest#token=([A-Za-z0-9_-]+))/.exec(text);
  if (!found?.[1] || !found[2]) throw new Error(`no invitation link in: ${text}`);
  return { url: found[1], token: found[2] };
}

export type { Guest };

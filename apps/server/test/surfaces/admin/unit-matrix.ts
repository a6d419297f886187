import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { replacePersonRecords } from "../../../src/model/users/primary-records.ts";
import { grantUnitRole } from "../../../src/model/users/unit-roles.ts";
import { recordAuditEvent } from "../../../src/platform/audit/record.ts";
import type { UnitRole } from "../../../src/platform/db/schema.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import type { ConsoleCall } from "./console-calls.ts";

/**
 * Issue 79's authorization matrix, shared by its two files (unit-authorization-matrix.test.ts: every endpoint ×
 * caller × place; unit-authorization-scope.test.ts: lists, audit, a fuzz of ids, the CLI). The tree: KPI → FICT
 * (A's parent) → A (a department) → A1 (a group); KPI → B; people, applications and audit rows in A, below A, in B
 * and in both.
 */

export type Caller =
  | "admin"
  | "helpdesk"
  | "unitAdminA"
  | "unitAdminParent"
  | "unitHelpdeskA"
  | "unitAdminB"
  | "nobody";
export const callers: Caller[] = [
  "admin",
  "helpdesk",
  "unitAdminA",
  "unitAdminParent",
  "unitHelpdeskA",
  "unitAdminB",
  "nobody",
];
export type Place = "A" | "belowA" | "B" | "AB";
export const places: Place[] = ["A", "belowA", "B", "AB"];

export const unitRoleOf: Partial<Record<Caller, { role: UnitRole; unit: "A" | "FICT" | "B" }>> = {
  unitAdminA: { role: "unit_admin", unit: "A" },
  unitAdminParent: { role: "unit_admin", unit: "FICT" },
  unitHelpdeskA: { role: "unit_helpdesk", unit: "A" },
  unitAdminB: { role: "unit_admin", unit: "B" },
};
/** The places each unit role reaches: its unit and every unit below. */
export const reachOf: Record<"A" | "FICT" | "B", Place[]> = { A: ["A", "belowA"], FICT: ["A", "belowA"], B: ["B"] };
/** Where a person of each place has records (AB: a student of A employed in B). */
export const unitsOfPlace: Record<Place, ("A" | "belowA" | "B")[]> = {
  A: ["A"],
  belowA: ["belowA"],
  B: ["B"],
  AB: ["A", "B"],
};
export const missingId = "00000000-0000-4000-8000-00000000dead";

export function kindOf(call: ConsoleCall): "person" | "application" | "none" {
  if (call.route.startsWith("/api/admin/people/{id}")) return "person";
  if (call.route.startsWith("/api/admin/applications/{app}")) return "application";
  // A review decision names the application whose request it decides.
  if (call.route === "/api/admin/reviews/{id}") return "application";
  return "none";
}

export interface Matrix {
  t: TestApp;
  cookies: Record<Caller, string>;
  unitIds: Record<"KPI" | "FICT" | "A" | "belowA" | "B", string>;
  personIds: Record<Place, string>;
  applicationIds: Record<Place | "central", string>;
  send: (call: ConsoleCall, caller: Caller, ids: { person?: string; app?: string }) => Promise<LightMyRequestResponse>;
}

/** The matrix's test app: the units, a person, an application and audit rows in each place, and every caller. */
export async function buildMatrix(): Promise<Matrix> {
  const t = await createTestApp(aboveModelDatabase);
  const cookies = {} as Record<Caller, string>;
  const unitIds = {} as Record<"KPI" | "FICT" | "A" | "belowA" | "B", string>;
  const personIds = {} as Record<Place, string>;
  const applicationIds = {} as Record<Place | "central", string>;
  const db = t.app.db;
  const unit = async (
    code: string,
    kind: "university" | "faculty" | "department" | "group",
    parentCode: string | null,
  ) => (await upsertUnit(db, { code, kind, nameUk: code, nameEn: code, parentCode })).unit.id;
  unitIds.KPI = await unit("KPI", "university", null);
  unitIds.FICT = await unit("FICT", "faculty", "KPI");
  unitIds.A = await unit("FICT-CS", "department", "FICT");
  unitIds.belowA = await unit("IP-41", "group", "FICT-CS");
  unitIds.B = await unit("FEL", "faculty", "KPI");
  for (const place of places) {
    const person = await addPerson(t.app, { username: `matrix-${place}`, fullName: `Особа ${place}` }, "matrix pass 1");
    personIds[place] = person.id;
    const [studentUnit, employeeUnit] = unitsOfPlace[place];
    await replacePersonRecords(
      db,
      person.id,
      {
        students: [{ studentId: `S-${place}`, unitId: unitIds[studentUnit as "A"], status: "studying" }],
        positions: employeeUnit
          ? [{ employeeId: `E-${place}`, unitId: unitIds[employeeUnit as "B"], status: "active" }]
          : [],
      },
      "test",
    );
    // An audit row about the person, and for the single-unit places one an operator took in the unit.
    await recordAuditEvent(db, { type: "sign_in", result: "success", userId: person.id, reason: `row-${place}` });
    if (place !== "AB") {
      await recordAuditEvent(db, {
        type: "account_unlocked",
        result: "success",
        unitId: unitIds[place],
        reason: `unit-row-${place}`,
      });
    }
  }
  for (const place of [...places, "central"] as const) {
    const created = await addApplication(t.app);
    applicationIds[place] = created.application.id;
    const unitId = place === "central" ? null : place === "AB" ? unitIds.A : unitIds[place];
    await db.updateTable("applications").set({ unit_id: unitId }).where("id", "=", created.application.id).execute();
  }
  cookies.admin = (await addOperator(t.app, ["admin"])).cookie;
  cookies.helpdesk = (await addOperator(t.app, ["helpdesk"])).cookie;
  cookies.nobody = (await addOperator(t.app, [])).cookie;
  for (const [caller, held] of Object.entries(unitRoleOf)) {
    const operator = await addOperator(t.app, []);
    await grantUnitRole(db, operator.person.id, unitIds[held.unit], held.role);
    cookies[caller as Caller] = operator.cookie;
  }

  let sent = 0;
  function send(call: ConsoleCall, caller: Caller, ids: { person?: string; app?: string }) {
    sent += 1;
    const url = `${call.route
      .replace("{id}", ids.person ?? ids.app ?? missingId)
      .replace("{app}", ids.app ?? missingId)
      .replace("{job}", missingId)
      .replace("{passwordId}", missingId)}${call.query ?? ""}`;
    let body: Record<string, unknown> | undefined =
      call.body && JSON.parse(JSON.stringify(call.body).replace("{n}", `m${sent}`).replace("{app}", applicationIds.A));
    const held = unitRoleOf[caller];
    // A unit admin registers an application for one of their units.
    if (held && call.method === "POST" && call.route === "/api/admin/applications") {
      body = { ...body, unitId: unitIds[held.unit] };
    }
    const options: InjectOptions = {
      method: call.method,
      url,
      headers: {
        cookie: cookies[caller],
        ...(call.method === "POST" ? { origin: TEST_ORIGIN, "content-type": "application/json" } : {}),
      },
      ...(call.method === "POST" ? { payload: JSON.stringify(body ?? {}) } : {}),
    };
    return t.app.inject(options);
  }
  return { t, cookies, unitIds, personIds, applicationIds, send };
}

import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { replacePersonRecords } from "../../../src/model/users/primary-records.ts";
import { grantUnitRole } from "../../../src/model/users/unit-roles.ts";
import { recordAuditEvent } from "../../../src/platform/audit/record.ts";
import type { UnitRole } from "../../../src/platform/db/schema.ts";
import { endpointsOf } from "../../fuzz/endpoints.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { addOperator, sessionCookieOf } from "../../support/console.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import { type ConsoleCall, consoleCalls } from "./console-calls.ts";

/**
 * Issue 79's authorization matrix: every console endpoint × every kind of caller × records in unit A, in a unit
 * below A, in unit B and in both. The tree: KPI → FICT (A's parent) → A (a department) → A1 (a group); KPI → B.
 * Each cell is asserted: a caller allowed gets past the guard; a caller not allowed gets exactly the refusal a
 * missing record gets, so a record out of reach cannot be told from one that does not exist.
 */

type Caller = "admin" | "helpdesk" | "unitAdminA" | "unitAdminParent" | "unitHelpdeskA" | "unitAdminB" | "nobody";
const callers: Caller[] = [
  "admin",
  "helpdesk",
  "unitAdminA",
  "unitAdminParent",
  "unitHelpdeskA",
  "unitAdminB",
  "nobody",
];
type Place = "A" | "belowA" | "B" | "AB";
const places: Place[] = ["A", "belowA", "B", "AB"];

const unitRoleOf: Partial<Record<Caller, { role: UnitRole; unit: "A" | "FICT" | "B" }>> = {
  unitAdminA: { role: "unit_admin", unit: "A" },
  unitAdminParent: { role: "unit_admin", unit: "FICT" },
  unitHelpdeskA: { role: "unit_helpdesk", unit: "A" },
  unitAdminB: { role: "unit_admin", unit: "B" },
};
/** The places each unit role reaches: its unit and every unit below. */
const reachOf: Record<"A" | "FICT" | "B", Place[]> = { A: ["A", "belowA"], FICT: ["A", "belowA"], B: ["B"] };
/** Where a person of each place has records (AB: a student of A employed in B). */
const unitsOfPlace: Record<Place, ("A" | "belowA" | "B")[]> = {
  A: ["A"],
  belowA: ["belowA"],
  B: ["B"],
  AB: ["A", "B"],
};

const refusalCodes = new Set([
  "admin.forbidden",
  "request.not_found",
  "admin.person_not_found",
  "app.not_found",
  "admin.person_beyond_reach",
  "admin.person_outranks_operator",
  "auth.not_authenticated",
  "auth.step_up_required",
]);
const missingId = "00000000-0000-4000-8000-00000000dead";

type Expected = { allowed: true } | { allowed: false; status: number; code: string };

function kindOf(call: ConsoleCall): "person" | "application" | "none" {
  if (call.route.startsWith("/api/admin/people/{id}")) return "person";
  if (call.route.startsWith("/api/admin/applications/{app}")) return "application";
  // A review decision names the application whose request it decides.
  if (call.route === "/api/admin/reviews/{id}") return "application";
  return "none";
}

/** The test's own copy of the rules: what each caller should get at each call about a record in each place. */
function expected(call: ConsoleCall, caller: Caller, place: Place | undefined): Expected {
  if (caller === "nobody") return { allowed: false, status: 403, code: "admin.forbidden" };
  if (caller === "admin" || caller === "helpdesk") {
    return call.allowed.includes(caller) ? { allowed: true } : { allowed: false, status: 403, code: "admin.forbidden" };
  }
  const held = unitRoleOf[caller];
  if (!held) throw new Error(caller);
  if (!call.unit.includes(held.role)) return { allowed: false, status: 404, code: "request.not_found" };
  const reach = reachOf[held.unit];
  const kind = kindOf(call);
  if (kind === "none" || !place) return { allowed: true };
  if (kind === "application") {
    // An application belongs to one unit: the AB application is A's.
    const unit = place === "AB" ? "A" : place;
    return reach.includes(unit) ? { allowed: true } : { allowed: false, status: 404, code: "app.not_found" };
  }
  const units = unitsOfPlace[place];
  const within = units.filter((unit) => reach.includes(unit));
  if (within.length === 0) return { allowed: false, status: 404, code: "admin.person_not_found" };
  const acts = call.method === "POST";
  if (acts && within.length < units.length) return { allowed: false, status: 403, code: "admin.person_beyond_reach" };
  return { allowed: true };
}

describe("the console's authorization matrix across units (issue 79)", () => {
  let t: TestApp;
  const cookies = {} as Record<Caller, string>;
  const unitIds = {} as Record<"KPI" | "FICT" | "A" | "belowA" | "B", string>;
  const personIds = {} as Record<Place, string>;
  const applicationIds = {} as Record<Place | "central", string>;

  beforeAll(async () => {
    t = await createTestApp(aboveModelDatabase);
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
      const person = await addPerson(
        t.app,
        { username: `matrix-${place}`, fullName: `Особа ${place}` },
        "matrix pass 1",
      );
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
  });
  afterAll(() => t.close());

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

  function assertCell(response: LightMyRequestResponse, want: Expected, cell: string) {
    const code = response.headers["content-type"]?.toString().includes("json") ? response.json().code : undefined;
    if (want.allowed) {
      expect(response.statusCode, `${cell}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
      expect(refusalCodes.has(code), `${cell} refused: ${code}`).toBe(false);
    } else {
      expect(response.statusCode, `${cell}: ${response.body.slice(0, 200)}`).toBe(want.status);
      expect(code, cell).toBe(want.code);
    }
  }

  it("covers every console endpoint the server registers", () => {
    const registered = endpointsOf(t.app)
      .filter((endpoint) => endpoint.path.startsWith("/api/admin/"))
      .map((endpoint) =>
        `${endpoint.method} ${endpoint.path}`
          .replace("/applications/{id}", "/applications/{app}")
          .replace("/import/jobs/{id}", "/import/jobs/{job}"),
      )
      .sort();
    expect(registered).toEqual(consoleCalls.map((call) => `${call.method} ${call.route}`).sort());
  });

  for (const call of consoleCalls) {
    it(`${call.method} ${call.route}: every caller × every place`, async () => {
      const kind = kindOf(call);
      for (const caller of callers) {
        if (kind === "none") {
          assertCell(await send(call, caller, {}), expected(call, caller, undefined), caller);
          continue;
        }
        for (const place of places) {
          const ids = kind === "person" ? { person: personIds[place] } : { app: applicationIds[place] };
          const want = expected(call, caller, place);
          const response = await send(call, caller, ids);
          assertCell(response, want, `${caller} on ${place}`);
          if (!want.allowed && want.status === 404) {
            // Out of reach reads exactly as missing: the same status and body as an id no record has.
            const missing = await send(call, caller, {});
            expect(response.body, `${caller} on ${place}`).toBe(missing.body);
          }
        }
        if (kind === "application" && unitRoleOf[caller] && call.unit.includes(unitRoleOf[caller].role)) {
          // Central IT's application belongs to no unit: no unit role reaches it.
          assertCell(
            await send(call, caller, { app: applicationIds.central }),
            {
              allowed: false,
              status: 404,
              code: "app.not_found",
            },
            `${caller} on central`,
          );
        }
      }
    });
  }

  /** What each caller's lists hold, by place: the people, applications and audit rows of the places reached. */
  const listed: Record<Exclude<Caller, "helpdesk" | "nobody">, Place[]> = {
    admin: places,
    unitAdminA: ["A", "belowA", "AB"],
    unitAdminParent: ["A", "belowA", "AB"],
    unitHelpdeskA: ["A", "belowA", "AB"],
    unitAdminB: ["B", "AB"],
  };
  const get = (url: string, caller: Caller) =>
    t.app.inject({ method: "GET", url, headers: { cookie: cookies[caller] } });

  it("scopes the people search, its count, the applications, the audit, its export and the units to the reach", async () => {
    for (const [caller, seen] of Object.entries(listed) as [keyof typeof listed, Place[]][]) {
      const people = (await get("/api/admin/people?q=matrix", caller)).json();
      expect(people.people.map((p: { username: string }) => p.username).sort(), caller).toEqual(
        seen.map((place) => `matrix-${place}`).sort(),
      );
      expect(people.total, caller).toBe(seen.length);
      const held = unitRoleOf[caller];
      if (held?.role === "unit_helpdesk") continue;
      const applications = (await get("/api/admin/applications", caller)).json().applications;
      const known = new Set(Object.values(applicationIds));
      const ids = applications
        .map((a: { id: string }) => a.id)
        .filter((id: string) => known.has(id))
        .sort();
      // The ones the matrix registered through the console belong to the caller's units.
      if (held) {
        const own = applications.filter((a: { id: string }) => !known.has(a.id));
        const reached = {
          A: [unitIds.A, unitIds.belowA],
          FICT: [unitIds.FICT, unitIds.A, unitIds.belowA],
          B: [unitIds.B],
        };
        for (const application of own) expect(reached[held.unit], caller).toContain(application.unit?.id);
      }
      // The AB application is A's; central IT's belongs to no unit.
      const appPlaces = held
        ? places.filter((place) => reachOf[held.unit].includes(place === "AB" ? "A" : place))
        : [...places, "central"];
      expect(ids, caller).toEqual(appPlaces.map((place) => applicationIds[place as Place]).sort());
      const audit = (await get("/api/admin/audit?limit=200", caller)).json().events as { reason: string | null }[];
      const rows = audit.map((event) => event.reason).filter((reason) => reason?.includes("row-"));
      const expectedRows = seen.flatMap((place) =>
        place === "AB" ? ["row-AB"] : [`row-${place}`, `unit-row-${place}`],
      );
      expect(rows.sort(), caller).toEqual(expectedRows.sort());
      const csv = (await get("/api/admin/audit/export", caller)).body;
      for (const place of places)
        expect(csv.includes(`matrix-${place},`), `${caller} export ${place}`).toBe(seen.includes(place));
    }
    const units = (await get("/api/admin/units", "unitAdminA")).json().units.map((u: { code: string }) => u.code);
    expect(units.sort()).toEqual(["FICT-CS", "IP-41"]);
  });

  it("names the unit in the audit row of a unit admin's action, and the person sees it in their security activity", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: `/api/admin/people/${personIds.belowA}/unlock`,
      headers: { cookie: cookies.unitAdminParent, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: "{}",
    });
    expect(response.statusCode).toBe(200);
    const events = (await get(`/api/admin/audit?type=account_unlocked&person=matrix-belowA`, "admin")).json().events;
    expect(events[0].unit).toEqual({ id: unitIds.belowA, code: "IP-41" });
  });

  it("never lets a unit admin tell another unit's records from missing ones: a fuzz of ids answers 404 alike", async () => {
    // A's people and applications (the AB person is B's too, so B's admin may see them: not foreign).
    const foreign = [personIds.A, personIds.belowA, applicationIds.A, applicationIds.belowA, applicationIds.AB];
    const random = Array.from({ length: 20 }, () => crypto.randomUUID());
    const personCalls = consoleCalls.filter((call) => kindOf(call) === "person" && call.unit.includes("unit_admin"));
    const appCalls = consoleCalls.filter((call) => kindOf(call) === "application" && call.unit.includes("unit_admin"));
    for (const id of [...foreign, ...random, applicationIds.central]) {
      for (const call of personCalls) {
        const answer = await send(call, "unitAdminB", { person: id });
        expect(answer.statusCode, `${call.route} ${id}`).toBe(404);
        expect(answer.json().code).toBe("admin.person_not_found");
      }
      for (const call of appCalls) {
        const answer = await send(call, "unitAdminB", { app: id });
        expect(answer.statusCode, `${call.route} ${id}`).toBe(404);
        expect(answer.json().code).toBe("app.not_found");
      }
    }
    // Searching for them by name, username or student id counts nobody.
    for (const q of ["matrix-belowA", "Особа belowA", "S-belowA"]) {
      const page = (await get(`/api/admin/people?q=${encodeURIComponent(q)}`, "unitAdminB")).json();
      expect(page.total, q).toBe(0);
    }
    // Naming them in an exclusion or an audit filter finds nobody either.
    const exclusion = await t.app.inject({
      method: "POST",
      url: `/api/admin/applications/${applicationIds.B}/exclusions`,
      headers: { cookie: cookies.unitAdminB, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: JSON.stringify({ username: "matrix-A" }),
    });
    expect(exclusion.json().code).toBe("app.unknown_person");
    expect((await get("/api/admin/audit?person=matrix-A", "unitAdminB")).json().events).toEqual([]);
  });

  it("gives and takes a role in a unit from the CLI, and the console follows at once", async () => {
    const person = await addPerson(t.app, { username: "faculty.it", fullName: "Факультетська ІТ" }, "faculty pass 1");
    const cookie = await sessionCookieOf(t.app, person.id, "DIIA");
    const run = (args: string[]) => runCliOn(t.database.handle, args);
    const granted = await run([
      "role",
      "grant",
      "--username",
      "faculty.it",
      "--role",
      "unit_helpdesk",
      "--unit",
      "FEL",
    ]);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain("faculty.it is now unit_helpdesk of FEL");
    expect((await run(["role", "grant", "--username", "faculty.it", "--role", "unit_admin"])).code).toBe(2);
    const listed = await run(["role", "list", "--json"]);
    expect(listed.json<{ username: string; role: string; unit?: string }[]>()).toContainEqual(
      expect.objectContaining({ username: "faculty.it", role: "unit_helpdesk", unit: "FEL" }),
    );
    const me = await t.app.inject({ url: "/api/admin/me", headers: { cookie } });
    expect(me.json().unitRoles).toEqual([
      { role: "unit_helpdesk", unit: { id: unitIds.B, code: "FEL", nameUk: "FEL", nameEn: "FEL" } },
    ]);
    expect(
      (await run(["role", "revoke", "--username", "faculty.it", "--role", "unit_helpdesk", "--unit", "FEL"])).code,
    ).toBe(0);
    expect((await t.app.inject({ url: "/api/admin/me", headers: { cookie } })).statusCode).toBe(403);
  });
});

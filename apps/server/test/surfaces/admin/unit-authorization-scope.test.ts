import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { sessionCookieOf } from "../../support/console.ts";
import { consoleCalls } from "./console-calls.ts";
import {
  buildMatrix,
  type Caller,
  kindOf,
  type Matrix,
  type Place,
  places,
  reachOf,
  unitRoleOf,
} from "./unit-matrix.ts";

/**
 * Issue 79's authorization matrix beyond single calls: what every list, search, count and export holds for each
 * caller, the unit an audit row names, a fuzz of ids across units that never leaks, and roles given from the CLI.
 */
describe("the console's scope across units (issue 79)", () => {
  let m: Matrix;
  // Some forty people, applications and operators: on a busy machine past the default minute.
  beforeAll(async () => {
    m = await buildMatrix();
  }, 240_000);
  afterAll(() => m.t.close());

  /** What each caller's lists hold, by place: the people, applications and audit rows of the places reached. */
  const listed: Record<Exclude<Caller, "helpdesk" | "nobody">, Place[]> = {
    admin: places,
    unitAdminA: ["A", "belowA", "AB"],
    unitAdminParent: ["A", "belowA", "AB"],
    unitHelpdeskA: ["A", "belowA", "AB"],
    unitAdminB: ["B", "AB"],
  };
  const get = (url: string, caller: Caller) =>
    m.t.app.inject({ method: "GET", url, headers: { cookie: m.cookies[caller] } });

  it("scopes the people search, its count, the applications, the audit, its export and the units to the reach", async () => {
    for (const [caller, seen] of Object.entries(listed) as [keyof typeof listed, Place[]][]) {
      const people = (await get("/api/admin/people?q=matrix", caller)).json();
      expect(people.people.map((p: { username: string }) => p.username).sort(), caller).toEqual(
        seen.map((place) => `matrix-${place}`).sort(),
      );
      expect(people.total, caller).toBe(seen.length);
      // The person of A and B: each caller's list names the units of theirs it reaches, no other.
      const both = people.people.find((p: { username: string }) => p.username === "matrix-AB");
      const codes = { admin: ["FEL", "FICT-CS"], unitAdminB: ["FEL"] } as Partial<Record<Caller, string[]>>;
      expect(
        both.units.map((u: { code: string }) => u.code),
        caller,
      ).toEqual(codes[caller] ?? ["FICT-CS"]);
      const held = unitRoleOf[caller];
      if (held?.role === "unit_helpdesk") continue;
      const applications = (await get("/api/admin/applications", caller)).json().applications;
      const known = new Set(Object.values(m.applicationIds));
      const ids = applications
        .map((a: { id: string }) => a.id)
        .filter((id: string) => known.has(id))
        .sort();
      // The ones the matrix registered through the console belong to the caller's units.
      if (held) {
        const own = applications.filter((a: { id: string }) => !known.has(a.id));
        const reached = {
          A: [m.unitIds.A, m.unitIds.belowA],
          FICT: [m.unitIds.FICT, m.unitIds.A, m.unitIds.belowA],
          B: [m.unitIds.B],
        };
        for (const application of own) expect(reached[held.unit], caller).toContain(application.unit?.id);
      }
      // The AB application is A's; central IT's belongs to no unit.
      const appPlaces = held
        ? places.filter((place) => reachOf[held.unit].includes(place === "AB" ? "A" : place))
        : [...places, "central"];
      expect(ids, caller).toEqual(appPlaces.map((place) => m.applicationIds[place as Place]).sort());
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
    const response = await m.t.app.inject({
      method: "POST",
      url: `/api/admin/people/${m.personIds.belowA}/unlock`,
      headers: { cookie: m.cookies.unitAdminParent, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: "{}",
    });
    expect(response.statusCode).toBe(200);
    const events = (await get(`/api/admin/audit?type=account_unlocked&person=matrix-belowA`, "admin")).json().events;
    expect(events[0].unit).toEqual({ id: m.unitIds.belowA, code: "IP-41" });
  });

  // Some 300 requests: on a machine busy with other suites they took past the default minute.
  it("never lets a unit admin tell another unit's records from missing ones: a fuzz of ids answers 404 alike", async () => {
    // A's people and applications (the AB person is B's too, so B's admin may see them: not foreign).
    const foreign = [
      m.personIds.A,
      m.personIds.belowA,
      m.applicationIds.A,
      m.applicationIds.belowA,
      m.applicationIds.AB,
    ];
    const random = Array.from({ length: 20 }, () => crypto.randomUUID());
    const personCalls = consoleCalls.filter((call) => kindOf(call) === "person" && call.unit.includes("unit_admin"));
    const appCalls = consoleCalls.filter((call) => kindOf(call) === "application" && call.unit.includes("unit_admin"));
    for (const id of [...foreign, ...random, m.applicationIds.central]) {
      for (const call of personCalls) {
        const answer = await m.send(call, "unitAdminB", { person: id });
        expect(answer.statusCode, `${call.route} ${id}`).toBe(404);
        expect(answer.json().code).toBe("admin.person_not_found");
      }
      for (const call of appCalls) {
        const answer = await m.send(call, "unitAdminB", { app: id });
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
    const exclusion = await m.t.app.inject({
      method: "POST",
      url: `/api/admin/applications/${m.applicationIds.B}/exclusions`,
      headers: { cookie: m.cookies.unitAdminB, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: JSON.stringify({ username: "matrix-A" }),
    });
    expect(exclusion.json().code).toBe("app.unknown_person");
    expect((await get("/api/admin/audit?person=matrix-A", "unitAdminB")).json().events).toEqual([]);
  }, 240_000);

  it("gives and takes a role in a unit from the CLI, and the console follows at once", async () => {
    const person = await addPerson(m.t.app, { username: "faculty.it", fullName: "Факультетська ІТ" }, "faculty pass 1");
    const cookie = await sessionCookieOf(m.t.app, person.id, "DIIA");
    const run = (args: string[]) => runCliOn(m.t.database.handle, args);
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
    const me = await m.t.app.inject({ url: "/api/admin/me", headers: { cookie } });
    expect(me.json().unitRoles).toEqual([
      { role: "unit_helpdesk", unit: { id: m.unitIds.B, code: "FEL", nameUk: "FEL", nameEn: "FEL" } },
    ]);
    expect(
      (await run(["role", "revoke", "--username", "faculty.it", "--role", "unit_helpdesk", "--unit", "FEL"])).code,
    ).toBe(0);
    expect((await m.t.app.inject({ url: "/api/admin/me", headers: { cookie } })).statusCode).toBe(403);
  });
});

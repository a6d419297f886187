import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointsOf } from "../../fuzz/endpoints.ts";
import { type ConsoleCall, consoleCalls } from "./console-calls.ts";
import {
  buildMatrix,
  type Caller,
  callers,
  kindOf,
  type Matrix,
  type Place,
  places,
  reachOf,
  unitRoleOf,
  unitsOfPlace,
} from "./unit-matrix.ts";

/**
 * Issue 79's authorization matrix: every console endpoint × every kind of caller × records in unit A, in a unit
 * below A, in unit B and in both. The tree: KPI → FICT (A's parent) → A (a department) → A1 (a group); KPI → B.
 * Each cell is asserted: a caller allowed gets past the guard; a caller not allowed gets exactly the refusal a
 * missing record gets, so a record out of reach cannot be told from one that does not exist.
 */

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

type Expected = { allowed: true } | { allowed: false; status: number; code: string };

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
  let m: Matrix;
  // Some forty people, applications and operators: on a busy machine past the default minute.
  beforeAll(async () => {
    m = await buildMatrix();
  }, 240_000);
  afterAll(() => m.t.close());
  const send = (call: ConsoleCall, caller: Caller, ids: { person?: string; app?: string }) => m.send(call, caller, ids);

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
    const registered = endpointsOf(m.t.app)
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
          const ids = kind === "person" ? { person: m.personIds[place] } : { app: m.applicationIds[place] };
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
            await send(call, caller, { app: m.applicationIds.central }),
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
});

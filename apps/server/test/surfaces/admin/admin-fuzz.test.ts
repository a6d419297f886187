import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { recordAuditEvent } from "../../../src/platform/audit/record.ts";
import { requestFor } from "../../fuzz/arbitraries.ts";
import { endpointsOf } from "../../fuzz/endpoints.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabase } from "../../support/databases.ts";

// fuzz.test.ts sends every endpoint an ordinary person's cookie, which the console refuses before
// reading anything; here an admin's cookie carries generated input into the import, audit, keys, service and
// application handlers (every other application request names a real application, so bodies reach the service).
const kind = aboveModelDatabase;
const seed = Number(process.env.FUZZ_SEED ?? 20_261_123);

describe(`fuzzing the console's import, audit, keys and service endpoints as an admin on ${kind}`, () => {
  let t: TestApp;
  let cookie = "";
  let personId = "";
  let appId = "";
  let unitId = "";

  beforeAll(async () => {
    t = await createTestApp(kind);
    cookie = (await addOperator(t.app, ["admin"])).cookie;
    personId = (await addPerson(t.app, { username: "fuzz.target", fullName: "Ціль" }, "fuzz target 1")).id;
    appId = (await addApplication(t.app)).application.id;
    // A real unit, so generated settings of its reviews reach the change and its audit row.
    unitId = (await upsertUnit(t.app.db, { code: "FUZZ", kind: "faculty", nameUk: "Факультет фазингу" })).unit.id;
    await recordAuditEvent(t.app.db, { type: "sign_in", result: "success", userId: personId, ip: "192.0.2.1" });
  });
  afterAll(() => t.close());

  it("answers generated filters, cursors and files without a 5xx", async () => {
    const endpoints = endpointsOf(t.app).filter((endpoint) =>
      /^\/api\/admin\/(import|audit|keys|service|reviews|units|people\/\{id\}\/(second-factor|recovery|erase)|applications\/\{id\})/.test(
        endpoint.path,
      ),
    );
    expect(endpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort()).toEqual([
      "GET /api/admin/applications/{id}",
      "GET /api/admin/applications/{id}/access",
      "GET /api/admin/applications/{id}/cas-services",
      "GET /api/admin/applications/{id}/people",
      "GET /api/admin/audit",
      "GET /api/admin/audit/export",
      "GET /api/admin/import/jobs/latest",
      "GET /api/admin/import/jobs/{id}",
      "GET /api/admin/keys",
      "GET /api/admin/reviews",
      "GET /api/admin/service",
      "GET /api/admin/units",
      "POST /api/admin/applications/{id}",
      "POST /api/admin/applications/{id}/access/bulk-grant",
      "POST /api/admin/applications/{id}/cas-services",
      "POST /api/admin/applications/{id}/cas-services/remove",
      "POST /api/admin/applications/{id}/exclusions",
      "POST /api/admin/applications/{id}/exclusions/remove",
      "POST /api/admin/applications/{id}/rotate-secret",
      "POST /api/admin/applications/{id}/rules",
      "POST /api/admin/applications/{id}/rules/remove",
      "POST /api/admin/applications/{id}/suspension",
      "POST /api/admin/applications/{id}/unit",
      "POST /api/admin/import/jobs",
      "POST /api/admin/import/jobs/{id}/cancel",
      "POST /api/admin/keys/rotate",
      "POST /api/admin/people/{id}/erase",
      "POST /api/admin/people/{id}/recovery-mail",
      "POST /api/admin/people/{id}/second-factor/reset",
      "POST /api/admin/reviews/{id}",
      "POST /api/admin/units/{id}/reviews-final",
    ]);
    const known = {
      person: ["fuzz.target", personId],
      id: [personId, unitId],
      actor: [personId],
      after: ["1", "999999999999999999"],
      from: ["2026-03-01", "1900-01-01"],
      to: ["2999-12-31"],
      q: ["fuzz", "%_\\"],
      page: ["1", "4000"],
      username: ["fuzz.target"],
      userId: [personId],
      list: ['username\nfuzz.target\nnobody\n"bad,line', "fuzz.target@x"],
      unitCode: ["NOPE"],
      file: [
        Buffer.from('username,full-name\r\nf.one,Ф Один\r\n"bad,\r\n').toString("base64"),
        Buffer.from([0xff, 0xfe, 0x00]).toString("base64"),
      ],
    };
    const statuses = new Map<number, number>();
    let runs = 0;
    for (const endpoint of endpoints) {
      await fc.assert(
        fc.asyncProperty(requestFor(endpoint, TEST_ORIGIN, known), async (request) => {
          runs += 1;
          const url =
            runs % 2 === 0
              ? request.url.replace(/^\/api\/admin\/applications\/[^/?]+/, `/api/admin/applications/${appId}`)
              : request.url;
          const options: InjectOptions = {
            ...request,
            url,
            method: request.method as InjectOptions["method"],
            headers: { ...request.headers, cookie },
          };
          const response = await t.app.inject(options);
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          if (response.statusCode >= 500) {
            throw new Error(`${request.method} ${url} → ${response.statusCode} ${response.body.slice(0, 300)}`);
          }
        }),
        { numRuns: 150, seed },
      );
    }
    console.log(`admin fuzz: answers ${[...statuses.entries()].map(([s, n]) => `${s}×${n}`).join(" ")}`);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
  }, 600_000);
});

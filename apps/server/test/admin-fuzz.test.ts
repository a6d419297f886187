import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAuditEvent } from "../src/audit/record.ts";
import { requestFor } from "./fuzz/arbitraries.ts";
import { endpointsOf } from "./fuzz/endpoints.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "./support/app.ts";
import { addPerson } from "./support/campus.ts";
import { addOperator } from "./support/console.ts";
import { databaseKinds } from "./support/databases.ts";

// fuzz.test.ts sends every endpoint an ordinary person's cookie, which the console refuses before
// reading anything; here an admin's cookie carries generated input into the import, audit, keys and service handlers.
const kind = databaseKinds.at(-1) ?? "pglite";
const seed = Number(process.env.FUZZ_SEED ?? 20_261_123);

describe(`fuzzing the console's import, audit, keys and service endpoints as an admin on ${kind}`, () => {
  let t: TestApp;
  let cookie = "";
  let personId = "";

  beforeAll(async () => {
    t = await createTestApp(kind);
    cookie = (await addOperator(t.app, ["admin"])).cookie;
    personId = (await addPerson(t.app, { username: "fuzz.target", fullName: "Ціль" }, "fuzz target 1")).id;
    await recordAuditEvent(t.app.db, { type: "sign_in", result: "success", userId: personId, ip: "192.0.2.1" });
  });
  afterAll(() => t.close());

  it("answers generated filters, cursors and files without a 5xx", async () => {
    const endpoints = endpointsOf(t.app).filter((endpoint) =>
      /^\/api\/admin\/(import|audit|keys|service|people\/\{id\}\/(second-factor|recovery))/.test(endpoint.path),
    );
    expect(endpoints.map((endpoint) => endpoint.path).sort()).toEqual([
      "/api/admin/audit",
      "/api/admin/audit/export",
      "/api/admin/import/apply",
      "/api/admin/import/dry-run",
      "/api/admin/keys",
      "/api/admin/keys/rotate",
      "/api/admin/people/{id}/recovery-mail",
      "/api/admin/people/{id}/second-factor/reset",
      "/api/admin/service",
    ]);
    const known = {
      person: ["fuzz.target", personId],
      id: [personId],
      actor: [personId],
      after: ["1", "999999999999999999"],
      from: ["2026-03-01", "1900-01-01"],
      to: ["2999-12-31"],
      file: [
        Buffer.from('username,full-name\r\nf.one,Ф Один\r\n"bad,\r\n').toString("base64"),
        Buffer.from([0xff, 0xfe, 0x00]).toString("base64"),
      ],
    };
    const statuses = new Map<number, number>();
    for (const endpoint of endpoints) {
      await fc.assert(
        fc.asyncProperty(requestFor(endpoint, TEST_ORIGIN, known), async (request) => {
          const options: InjectOptions = {
            ...request,
            method: request.method as InjectOptions["method"],
            headers: { ...request.headers, cookie },
          };
          const response = await t.app.inject(options);
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          if (response.statusCode >= 500) {
            throw new Error(`${request.method} ${request.url} → ${response.statusCode} ${response.body.slice(0, 300)}`);
          }
        }),
        { numRuns: 150, seed },
      );
    }
    console.log(`admin fuzz: answers ${[...statuses.entries()].map(([s, n]) => `${s}×${n}`).join(" ")}`);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
  }, 600_000);
});

import { radiusPaths } from "@kpi-id/contracts";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { radiusSecretHeader } from "../../src/protocols/radius/routes.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { addPerson } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { testRadiusSecret } from "../support/radius.ts";

const seed = Number(process.env.FUZZ_SEED ?? 20_261_127);

/**
 * FreeRADIUS's rest endpoint with the right secret and whatever a RADIUS request can carry in its attributes
 * (any names, values, shapes; the realm, the device part, MAC addresses in any spelling). Never a 5xx, and
 * nothing but a known person's real password is ever accepted.
 */
describe.each(aboveModelDatabases)("fuzzing FreeRADIUS's rest endpoint (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { RADIUS_REST_SECRET: testRadiusSecret });
    await addPerson(t.app, { username: "fuzzed", fullName: "Фаззінг Особа" }, "fuzzed passphrase");
  });
  afterAll(() => t.close());

  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.constantFrom("fuzzed@kpi.ua", "fuzzed+abc@kpi.ua", "@kpi.ua", "+@kpi.ua", "anonymous@other.example"),
    // U+0000, which PostgreSQL's text cannot hold, in a name of our realm and anywhere else (issue 73).
    fc
      .tuple(fc.string({ maxLength: 8 }), fc.constantFrom("@kpi.ua", "+abc@kpi.ua", ""))
      .map(([part, end]) => `${part}\u0000${part}${end}`),
  );
  const value = fc.oneof(
    text.map((v) => ({ type: "string", value: [v] })),
    fc.array(fc.oneof(text, fc.integer()), { maxLength: 3 }).map((values) => ({ value: values })),
    fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean()),
    fc.dictionary(fc.string(), fc.anything(), { maxKeys: 3 }),
  );
  const names = fc.constantFrom(
    "User-Name",
    "User-Password",
    "Calling-Station-Id",
    "Called-Station-Id",
    "NAS-Identifier",
    "Operator-Name",
    "Chargeable-User-Identity",
    "KPI-ID-Network-Password",
    "MS-CHAP-Challenge",
  );
  const body = fc.dictionary(fc.oneof(names, fc.string({ maxLength: 120 })), value, { maxKeys: 10 });

  it("answers every generated call without a 5xx and accepts no made-up password", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.values(radiusPaths)),
        body,
        fc.constantFrom("", "?result=Reject", "?result=", "?result=%00"),
        async (path, payload, query) => {
          const response = await t.app.inject({
            method: "POST",
            url: `${path}${query}`,
            headers: { "content-type": "application/json", [radiusSecretHeader]: testRadiusSecret },
            payload: JSON.stringify(payload),
          });
          expect(response.statusCode).toBeLessThan(500);
          if (path === radiusPaths.authenticate) expect(response.statusCode).not.toBe(200);
        },
      ),
      { numRuns: 400, seed },
    );
  });
});

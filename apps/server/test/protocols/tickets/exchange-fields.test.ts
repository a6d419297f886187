import fc from "fast-check";
import { validatorCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { exchangeFields, exchangeValidatorCompiler } from "../../../src/protocols/tickets/exchange-fields.ts";

// The exchange's fields are read without zod on each request; what it accepts and answers must stay the schema's.
const schemas = { querystring: exchangeFields, body: exchangeFields.optional() };

function both(part: keyof typeof schemas) {
  const route = { schema: schemas[part], method: "POST", url: "/api/ticket", httpPart: part };
  return { fast: exchangeValidatorCompiler(route), zod: validatorCompiler(route) };
}

type Outcome = { value?: unknown; error?: unknown };
const outcome = (result: Outcome) =>
  result.error === undefined ? { value: result.value } : { error: String(result.error) };

const odd = fc.oneof(
  fc.constantFrom("", "\u0000", "a\u0000b", "x".repeat(1024), "x".repeat(1025), "ї".repeat(1024), "ї".repeat(1025)),
  fc.string({ maxLength: 1100 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);
const fields = fc.record({ ticketId: odd, appId: odd, appSecret: odd, other: odd }, { requiredKeys: [] });
const anyInput = fc.oneof(fields, fc.constant(undefined), fc.constant(null), fc.array(odd), odd);

describe("the exchange's fields", () => {
  for (const part of ["querystring", "body"] as const) {
    it(`are read from the ${part} as the schema reads them, for any input`, () => {
      const { fast, zod } = both(part);
      fc.assert(
        fc.property(anyInput, (input) => {
          expect(outcome(fast(input) as Outcome)).toEqual(outcome(zod(input) as Outcome));
        }),
        { numRuns: 2000 },
      );
    });
  }

  it("keep a storable value up to 1,024 characters and treat anything else as missing", () => {
    const { fast } = both("body");
    const value = (input: unknown) => (fast(input) as Outcome).value;
    expect(value({ ticketId: "t", appId: "a", appSecret: "s", extra: "e" })).toEqual({
      ticketId: "t",
      appId: "a",
      appSecret: "s",
    });
    expect(value({ ticketId: "x".repeat(1025), appId: 7, appSecret: "a\u0000" })).toEqual({});
    expect(value(Object.assign(Object.create(null), { appId: "a" }))).toEqual({ appId: "a" });
    expect((fast(null) as Outcome).error).toBeDefined();
  });
});

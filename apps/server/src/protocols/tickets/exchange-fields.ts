import { isStorableText, text } from "@kpi-id/contracts";
import type { FastifySchema } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { z } from "zod";
import { machineryOn } from "../../platform/bench-switches.ts";

const fieldLimit = 1024;
// Every field optional and any odd value treated as missing: all failures are the one 401.
const field = text().max(fieldLimit).optional().catch(undefined);

/** What the exchange reads from its query string and its body; the schema the API description shows. */
export const exchangeFields = z.object({ ticketId: field, appId: field, appSecret: field });
export type ExchangeFields = z.infer<typeof exchangeFields>;

/** `field` above, without zod: a storable string up to the limit, anything else missing. */
function presentedField(value: unknown): string | undefined {
  return typeof value === "string" && value.length <= fieldLimit && isStorableText(value) ? value : undefined;
}

/**
 * The exchange's query string and body checked as `exchangeFields` checks them, without zod's work on each request
 * (every connected site's server calls it at each sign-in, issue 63). Only an object reaches the short path: for it
 * `exchangeFields` cannot fail, each field being caught. Anything else (no body, `null`, an array) goes to the
 * schema itself, so its answer stays the schema's. exchange-fields.test.ts holds the two to the same results.
 */
export function exchangeValidatorCompiler(route: {
  schema: FastifySchema;
  method: string;
  url: string;
  httpPart?: string;
}) {
  const { schema } = route;
  // The routes' schemas are all zod's, as the type provider's own compiler expects.
  if (!(schema instanceof z.ZodType)) throw new Error(`${route.method} ${route.url}: not a zod schema`);
  const bySchema = validatorCompiler({ ...route, schema });
  return (data: unknown) => {
    if (typeof data !== "object" || data === null || Array.isArray(data) || !machineryOn("zod-bypass"))
      return bySchema(data);
    const value: ExchangeFields = {
      ticketId: presentedField(Reflect.get(data, "ticketId")),
      appId: presentedField(Reflect.get(data, "appId")),
      appSecret: presentedField(Reflect.get(data, "appSecret")),
    };
    return { value };
  };
}

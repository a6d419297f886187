import type { FastifyReply, FastifyRequest } from "fastify";
import SCIMMY from "scimmy";
import { asScimError, type ScimError } from "./errors.ts";
import { listParams } from "./request-checks.ts";

/** One SCIM endpoint's work (routes.ts registers the routes; handlers.ts holds these). */
export type ScimHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * One of our refusals as scimmy's own error class, which scimmy passes through its handlers untouched (it turns
 * any other error a handler throws into 404); the error handler (errors.ts) answers with the one it carries.
 */
class CarriedScimError extends SCIMMY.Types.Error {
  readonly carried: ScimError;
  constructor(carried: ScimError) {
    // scimmy's typings want a string; its code and RFC 7644 leave scimType out when there is none.
    super(carried.status, carried.scimType ?? (null as unknown as string), carried.message);
    this.carried = carried;
    this.cause = carried;
  }
}

/** Runs a scimmy handler's work; whatever it throws reaches scimmy as its own error, carrying our refusal. */
export async function scimErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new CarriedScimError(asScimError(error));
  }
}

export function idOf(request: FastifyRequest): string {
  return (request.params as { id: string }).id;
}

/** The attributes and excludedAttributes a single-resource request asks for. */
export function attributeParams(request: FastifyRequest) {
  const { attributes, excludedAttributes } = listParams(request.query);
  return {
    ...(attributes === undefined ? {} : { attributes }),
    ...(excludedAttributes === undefined ? {} : { excludedAttributes }),
  };
}

type SearchBody = ConstructorParameters<typeof SCIMMY.Messages.SearchRequest>[0];

/** POST /.search (RFC 7644 §3.4.3): scimmy checks the SearchRequest; its fields as a query string carries them. */
export function searchQuery(raw: unknown): Record<string, string> {
  // scimmy checks the message at run time (schemas, types) and answers 400 for a bad one.
  const body = new SCIMMY.Messages.SearchRequest(raw as SearchBody);
  const out: Record<string, string> = {};
  if (body.filter) out.filter = body.filter;
  if (body.attributes?.length) out.attributes = body.attributes.join(",");
  if (body.excludedAttributes?.length) out.excludedAttributes = body.excludedAttributes.join(",");
  if (body.sortBy) out.sortBy = body.sortBy;
  if (body.sortOrder) out.sortOrder = body.sortOrder;
  if (body.startIndex !== undefined) out.startIndex = String(body.startIndex);
  if (body.count !== undefined) out.count = String(body.count);
  return out;
}

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

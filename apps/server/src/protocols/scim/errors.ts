import { type ErrorCode, errorMessage, errorStatus } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ZodError } from "zod";
import { toAppError } from "../../platform/http/error-handler.ts";

/**
 * RFC 7644 §3.12 error responses. Every refusal still has one of the service's stable codes (the status
 * comes from contracts' one table); SCIM clients read `status`, `scimType` and `detail`.
 */

export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive";

/** A refusal with its stable code, from the routes or from inside scimmy's handlers (handlers.ts carries it through). */
export class ScimError extends Error {
  override name = "ScimError";
  readonly code: ErrorCode;
  readonly status: number;
  readonly scimType: ScimType | undefined;
  constructor(code: ErrorCode, scimType: ScimType | undefined, detail: string, options?: ErrorOptions) {
    super(detail, options);
    this.code = code;
    this.status = errorStatus[code];
    this.scimType = scimType;
  }
}

/** What scimmy throws: its status, its scimType and, when it carries one of ours, that ScimError. */
interface ScimmyError {
  status: number;
  scimType?: string | null;
  message: string;
  carried?: ScimError;
}

/**
 * scimmy's error class, known once scimmy is loaded (handlers.ts); until then no error can be one. Kept here
 * rather than imported so that a SCIM refusal at the door (a token, a body) does not load scimmy.
 */
let scimmyErrorClass: (abstract new (...args: never[]) => ScimmyError) | undefined;

export function recognizeScimmyErrors(errorClass: abstract new (...args: never[]) => ScimmyError): void {
  scimmyErrorClass = errorClass;
}

const codeByStatus: Record<number, ErrorCode> = {
  400: "scim.invalid_request",
  401: "scim.unauthorized",
  403: "scim.forbidden",
  404: "request.not_found",
  409: "scim.conflict",
  412: "scim.version_mismatch",
  413: "request.payload_too_large",
  415: "request.unsupported_media_type",
  429: "request.rate_limited",
};

interface ScimErrorBody {
  code: ErrorCode;
  scimType?: string;
  detail: string;
  headers?: Record<string, string>;
}

/** Any error thrown inside a scimmy handler, as the ScimError it should reach the client as. */
export function asScimError(error: unknown): ScimError {
  if (error instanceof ScimError) return error;
  const body = scimErrorOf(error);
  // The cause keeps what went wrong (a database error's stack) for the log of a 500.
  return new ScimError(body.code, body.scimType as ScimType | undefined, body.detail, { cause: error });
}

/** Any thrown value as a SCIM error; what scimmy raises keeps its status and scimType. */
export function scimErrorOf(error: unknown): ScimErrorBody {
  if (error instanceof ScimError) return { code: error.code, scimType: error.scimType, detail: error.message };
  if (scimmyErrorClass && error instanceof scimmyErrorClass) {
    if (error.carried) return scimErrorOf(error.carried);
    // scimmy answers 501 for a handler that does not exist (none here) and 500 for a handler's bad return;
    // to the client either is a request this service does not serve.
    const code = codeByStatus[error.status] ?? "scim.invalid_request";
    return { code, scimType: error.scimType ?? undefined, detail: error.message };
  }
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    return {
      code: "scim.invalid_request",
      scimType: "invalidValue",
      detail: issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid value",
    };
  }
  // Two writes racing for one userName or externalId: the unique index decides, the loser hears 409.
  if ((error as { code?: string } | null)?.code === "23505") {
    return { code: "scim.conflict", scimType: "uniqueness", detail: "the value is taken by another resource" };
  }
  // A value the database cannot hold (a date such as 2026-02-30): the client's data, not the service, is wrong.
  if (/^22/.test((error as { code?: string } | null)?.code ?? "")) {
    return { code: "scim.invalid_request", scimType: "invalidValue", detail: "a value is out of range" };
  }
  // scimmy reports a value of the wrong type with a TypeError; its message names the attribute.
  if (error instanceof TypeError)
    return { code: "scim.invalid_request", scimType: "invalidValue", detail: error.message };
  const appError = toAppError(error);
  const scimType = appError.code === "request.invalid_json" ? "invalidSyntax" : undefined;
  return { code: appError.code, scimType, detail: errorMessage(appError.code, "en"), headers: appError.headers };
}

export function sendScimError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const body = scimErrorOf(error);
  const status = errorStatus[body.code];
  if (status >= 500) request.log.error({ err: error, code: body.code }, "SCIM request failed");
  else request.log.info({ code: body.code, scimType: body.scimType }, "SCIM request refused");
  if (status === 401) reply.header("www-authenticate", 'Bearer realm="KPI ID SCIM"');
  // SCIM's limits count a minute (scim/auth.ts); a client waiting that long finds a fresh one.
  if (status === 429 && !body.headers?.["retry-after"]) reply.header("retry-after", "60");
  return reply
    .code(status)
    .headers({ ...body.headers, "cache-control": "no-store" })
    .type("application/scim+json; charset=utf-8")
    .send({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
      status: String(status),
      ...(body.scimType ? { scimType: body.scimType } : {}),
      detail: body.detail,
      code: body.code,
    });
}

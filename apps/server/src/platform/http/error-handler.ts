import { type ErrorCode, errorMessage, isErrorCode, UNSTORABLE_TEXT_MESSAGE } from "@kpi-id/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, type ErrorDetail } from "../errors.ts";
import { isDatabaseUnavailable } from "./database-errors.ts";
import { requestLanguage } from "./language.ts";

const fastifyCodeToErrorCode: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "request.invalid_json",
  FST_ERR_CTP_EMPTY_JSON_BODY: "request.invalid_json",
  FST_ERR_CTP_BODY_TOO_LARGE: "request.payload_too_large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "request.unsupported_media_type",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "request.validation_failed",
  FST_ERR_VALIDATION: "request.validation_failed",
  FST_ERR_NOT_FOUND: "request.not_found",
};

function validationDetails(error: FastifyError): ErrorDetail[] | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  return error.validation.map((issue) => ({
    path: `${error.validationContext ?? "body"}${issue.instancePath.replaceAll("/", ".")}`,
    message: issue.message ?? "invalid",
  }));
}

/** Turns any thrown value into an AppError; unknown failures become internal errors. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error))
    return new AppError("service.database_unavailable", { retryAfterSeconds: 5, cause: error });
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError)) {
    const details = validationDetails(fastifyError);
    const unstorable = details?.some((detail) => detail.message === UNSTORABLE_TEXT_MESSAGE);
    if (unstorable) return new AppError("request.unstorable_text", { details });
    // A schema check whose message is an error code (developer.invalid_characters) answers with that code.
    const coded = details?.find((detail) => isErrorCode(detail.message));
    if (coded && isErrorCode(coded.message)) return new AppError(coded.message, { details });
    return new AppError("request.validation_failed", { details });
  }
  const mapped = fastifyError?.code ? fastifyCodeToErrorCode[fastifyError.code] : undefined;
  if (mapped) return new AppError(mapped, { cause: error });
  // Other client errors Fastify and its plugins raise (bad headers, a refused static path).
  const status = fastifyError?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    if (status === 413) return new AppError("request.payload_too_large", { cause: error });
    if (status === 415) return new AppError("request.unsupported_media_type", { cause: error });
    // 403 here is the static file server refusing a directory: to the client it is simply not there.
    if (status === 404 || status === 403) return new AppError("request.not_found", { cause: error });
    if (status === 429) return new AppError("request.rate_limited", { cause: error });
    return new AppError("request.validation_failed", { cause: error });
  }
  return new AppError("service.internal_error", { cause: error });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, appError: AppError): FastifyReply {
  const language = requestLanguage(request);
  return reply
    .code(appError.status)
    .headers({ ...appError.headers, "cache-control": "no-store", "content-language": language })
    .type("application/json; charset=utf-8")
    .send({
      code: appError.code,
      message: errorMessage(appError.code, language),
      ...(appError.details ? { details: appError.details } : {}),
    });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) {
      request.log.error({ err: appError.cause ?? error, code: appError.code }, "request failed");
    } else {
      request.log.info({ code: appError.code }, "request refused");
    }
    return sendError(request, reply, appError);
  });
}

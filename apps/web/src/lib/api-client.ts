import { type ErrorCode, isErrorCode } from "@kpi-id/contracts";
import { i18n } from "./i18n.ts";

/**
 * A call that did not end with an ok status; `code` is the server's stable error code when it sent one,
 * `retryAfterSeconds` its Retry-After header (429 and 503 answers carry one).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** The request field the error is about (the first detail's path without `body.`), for a form to mark. */
  readonly field: string | undefined;

  constructor(message: string, status: number, code?: ErrorCode, retryAfterSeconds?: number, field?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
    this.field = field;
  }
}

export interface ApiRequest {
  method?: "GET" | "POST";
  body?: unknown;
  /** A form-encoded body instead of JSON: the OpenID provider's own forms (the device page) take only that. */
  form?: URLSearchParams;
  /** Message of the error thrown when the answer is not ok (the spec names one per call). */
  failure: string;
  /** "error" makes a redirect answer a failure instead of following it (GET /user). */
  redirect?: RequestRedirect;
}

async function readError(response: Response): Promise<{ code?: ErrorCode; field?: string }> {
  try {
    // A plain check instead of the contracts schema: zod stays out of the first-load JavaScript.
    const body = (await response.json()) as { code?: unknown; details?: { path?: unknown }[] } | null;
    const path = body?.details?.[0]?.path;
    return {
      code: isErrorCode(body?.code) ? body.code : undefined,
      field: typeof path === "string" ? path.replace(/^body\./, "") : undefined,
    };
  } catch {
    return {};
  }
}

/** Retry-After in seconds (the server sends seconds; an HTTP date is read too). */
export function readRetryAfter(response: Response, now = Date.now()): number | undefined {
  const value = response.headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Every call of the app goes through here: the current UI language in
 * Accept-Language, JSON content type, never cached, same-origin cookies.
 */
export async function apiFetch(path: string, request: ApiRequest): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: request.method ?? "GET",
      headers: {
        "Accept-Language": i18n.language || "uk",
        "Content-Type": request.form ? "application/x-www-form-urlencoded" : "application/json",
        Accept: "application/json",
      },
      body: request.form ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
      cache: "no-store",
      credentials: "same-origin",
      redirect: request.redirect ?? "follow",
    });
  } catch {
    // fetch rejects on network failure and on a redirect when redirect is "error".
    throw new ApiError(request.failure, 0);
  }
  if (!response.ok) {
    const { code, field } = await readError(response);
    throw new ApiError(request.failure, response.status, code, readRetryAfter(response), field);
  }
  return response;
}

/** Something that turns a parsed JSON answer into its type (a contracts schema has this shape). */
export interface AnswerReader<T> {
  parse(value: unknown): T;
}

/**
 * For the calls of the first screens (user, sign-in, settings, the Diia code and its polling): the
 * answer's type is checked at build time only. The server validates these answers against the contracts schemas before it sends them, and
 * leaving zod out of the first-load JavaScript saves a quarter of it on a slow phone.
 */
export function ownAnswer<T>(): AnswerReader<T> {
  return { parse: (value) => value as T };
}

/** apiFetch and then the JSON answer checked against its schema. */
export async function apiJson<T>(path: string, request: ApiRequest, schema: AnswerReader<T>): Promise<T> {
  const response = await apiFetch(path, request);
  try {
    return schema.parse(await response.json());
  } catch {
    throw new ApiError(request.failure, response.status);
  }
}

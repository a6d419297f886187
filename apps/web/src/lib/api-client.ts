import { errorBodySchema } from "@kpi-id/contracts";
import { i18n } from "./i18n.ts";

/** A call that did not end with an ok status; `code` is the server's stable error code when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;

  constructor(message: string, status: number, code?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export interface ApiRequest {
  method?: "GET" | "POST";
  body?: unknown;
  /** Message of the error thrown when the answer is not ok (the spec names one per call). */
  failure: string;
  /** "error" makes a redirect answer a failure instead of following it (GET /user). */
  redirect?: RequestRedirect;
}

async function readErrorCode(response: Response): Promise<string | undefined> {
  try {
    const parsed = errorBodySchema.safeParse(await response.json());
    return parsed.success ? parsed.data.code : undefined;
  } catch {
    return undefined;
  }
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
        "Content-Type": "application/json",
        Accept: "application/json",
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      cache: "no-store",
      credentials: "same-origin",
      redirect: request.redirect ?? "follow",
    });
  } catch {
    // fetch rejects on network failure and on a redirect when redirect is "error".
    throw new ApiError(request.failure, 0);
  }
  if (!response.ok) throw new ApiError(request.failure, response.status, await readErrorCode(response));
  return response;
}

/** apiFetch and then the JSON answer checked against its schema. */
export async function apiJson<T>(path: string, request: ApiRequest, schema: { parse(value: unknown): T }): Promise<T> {
  const response = await apiFetch(path, request);
  try {
    return schema.parse(await response.json());
  } catch {
    throw new ApiError(request.failure, response.status);
  }
}

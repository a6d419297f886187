import {
  type ErrorBody,
  type ErrorCode,
  errorMessages,
  errorStatus,
  type InternalAuthResponse,
  type PublicSettings,
} from "@kpi-id/contracts";
import { vi } from "vitest";

export type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/**
 * The server's error answer for a code: its status from the one table in contracts, the body typed
 * against the contract (a code the server cannot send does not compile), headers such as Retry-After.
 */
export function apiError(
  code: ErrorCode,
  headers: Record<string, string> = {},
  /** What the refusal is about, as the server names it (`body.redirectUris.1` and the value). */
  details?: ErrorBody["details"],
): Response {
  const body: ErrorBody = { code, message: errorMessages.en[code], ...(details ? { details } : {}) };
  return new Response(JSON.stringify(body), {
    status: errorStatus[code],
    headers: { "content-type": "application/json", ...headers },
  });
}

export const unauthorized = () => apiError("auth.not_authenticated");

/** The server's answer to POST /api/auth/internal: the session is set, the browser goes to `next`. */
export function signedIn(next = "/uk/apps"): Response {
  const body: InternalAuthResponse = { ok: true, next };
  return json(body);
}

export const publicSettings: PublicSettings = {
  publicUrl: "http://localhost:3000",
  supportEmail: "support@kpi.ua",
  supportBotEmployeesUrl: "https://t.me/employees_bot",
  supportBotStudentsUrl: "https://t.me/students_bot",
  googleEnabled: true,
  diiaEnabled: true,
  bankIdEnabled: false,
  bankIdBankPicker: false,
  institutionsEnabled: false,
  emailRecoveryEnabled: true,
  sandbox: true,
  reauthMaxAgeSeconds: 600,
};

/** Calls every sign-in page makes (and the console's unit pickers), answered as for a deployment like the sandbox with no sign-in waiting. */
const defaults: Record<string, Handler> = {
  "GET /api/settings": () => json(publicSettings),
  "GET /api/sign-in/continuing": () => new Response(null, { status: 204 }),
  // The console's unit pickers (issue 79) sit on the person and application screens: a test about something else
  // there gets an empty tree unless it lists its own.
  "GET /api/admin/units": () => json({ units: [] }),
};

/** A handler whose answer waits until `answer` is called: what a screen shows while that one request is out. */
export function heldAnswer(make: Handler): { handler: Handler; answer: () => void } {
  let answer: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const handler: Handler = async (url, init) => {
    await answered;
    return make(url, init);
  };
  return { handler, answer };
}

/**
 * Replaces fetch with a table of "METHOD /path" handlers; an unlisted call
 * fails the test loudly. Returns the spy to inspect calls.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const spy = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), "http://localhost");
    const key = `${init.method ?? "GET"} ${url.pathname}`;
    const handler = routes[key] ?? defaults[key];
    if (!handler) throw new Error(`unexpected call ${key}`);
    return handler(url, init);
  });
  vi.stubGlobal("fetch", spy);
  return spy;
}

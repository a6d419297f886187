import { vi } from "vitest";

export type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export const unauthorized = () => json({ code: "auth.unauthenticated", message: "Sign in first" }, 401);

export const publicSettings = {
  supportEmail: "support@kpi.ua",
  supportBotEmployeesUrl: "https://t.me/employees_bot",
  supportBotStudentsUrl: "https://t.me/students_bot",
  googleEnabled: true,
  diiaEnabled: true,
  sandbox: true,
};

/**
 * Replaces fetch with a table of "METHOD /path" handlers; an unlisted call
 * fails the test loudly. Returns the spy to inspect calls.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const spy = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), "http://localhost");
    const key = `${init.method ?? "GET"} ${url.pathname}`;
    const handler = routes[key] ?? (key === "GET /api/settings" ? () => json(publicSettings) : undefined);
    if (!handler) throw new Error(`unexpected call ${key}`);
    return handler(url, init);
  });
  vi.stubGlobal("fetch", spy);
  return spy;
}

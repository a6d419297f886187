/**
 * nginx auth_request (docs/nginx-auth-request.md): what a site behind nginx may receive about the person, as
 * response headers `X-KPI-ID-<name>` that nginx passes on with auth_request_set.
 */
export const forwardAuthHeaderNames = ["user-id", "username", "name", "email", "affiliations"] as const;
export type ForwardAuthHeader = (typeof forwardAuthHeaderNames)[number];

/** The paths nginx proxies to on KPI ID (the documented server block names them). */
export const forwardAuthPaths = {
  check: "/api/forward-auth/check",
  start: "/api/forward-auth/start",
  callback: "/api/forward-auth/callback",
  signOut: "/api/forward-auth/sign-out",
} as const;

/** The headers the documented nginx block sets on every request it proxies to KPI ID (never the client's). */
export const forwardAuthRequestHeaders = {
  application: "x-kpi-id-application",
  originalUrl: "x-original-url",
} as const;

import { type ForwardAuthHeader, forwardAuthHeaderNames } from "@kpi-id/contracts";
import type { SiteVisitor } from "../../model/forward-auth/store.ts";

/** The person a protected site's request comes from, as the headers nginx passes on tell it. */
export type { SiteVisitor };

/**
 * A header value any HTTP stack passes through unchanged: every byte outside printable ASCII (and "%" itself)
 * percent-encoded as UTF-8 (RFC 3986 §2.1), so "Олена" arrives as "%D0%9E%D0%BB..." and decodeURIComponent (or
 * Python's urllib.parse.unquote, PHP's rawurldecode) gives it back. A line break can never reach a header.
 */
export function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x24\x26-\x7e]+/gu, (unsafe) => encodeURIComponent(unsafe));
}

const headerValueOf: Record<ForwardAuthHeader, (visitor: SiteVisitor) => string> = {
  "user-id": (visitor) => visitor.id,
  username: (visitor) => visitor.username,
  name: (visitor) => visitor.name,
  email: (visitor) => visitor.email,
  affiliations: (visitor) => visitor.affiliations.join(","),
};

/** The response headers for nginx's auth_request_set: only those the application's settings name. */
export function visitorHeaders(visitor: SiteVisitor, chosen: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header of forwardAuthHeaderNames) {
    if (chosen.includes(header)) headers[`x-kpi-id-${header}`] = headerSafe(headerValueOf[header](visitor));
  }
  return headers;
}

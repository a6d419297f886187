// What a log line or a trace may keep of a request URL: the request logger (platform/http/logging.ts) and the
// tracing spans (platform/tracing/start.ts) both write it, and neither may write a token.
/**
 * Query parameters whose values are harmless to keep in a log; every other value
 * (tokens, tickets, grants, codes, request ids, id_token_hint, anything unknown) is redacted.
 */
export const loggedQueryParameters: ReadonlySet<string> = new Set([
  "appId",
  "lang",
  "client_id",
  "response_type",
  "response_mode",
  "scope",
  "prompt",
  "ui_locales",
  "code_challenge_method",
  "display",
  "max_age",
  "google_auth_error",
  "error",
]);

function redactPair(pair: string): string {
  const equals = pair.indexOf("=");
  if (equals < 0) return pair;
  const name = pair.slice(0, equals);
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replaceAll("+", " "));
  } catch {
    // A name that does not decode is not on the list.
  }
  return loggedQueryParameters.has(decoded) ? pair : `${name}=[redacted]`;
}

/** The path and the allow-listed query parameters of a URL; other query values become [redacted]. */
export function redactUrl(url: string): string {
  const question = url.indexOf("?");
  if (question < 0) return url;
  return `${url.slice(0, question)}?${url
    .slice(question + 1)
    .split("&")
    .map(redactPair)
    .join("&")}`;
}

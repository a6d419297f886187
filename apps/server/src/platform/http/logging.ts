import type { FastifyServerOptions } from "fastify";
import type { Config } from "../config/index.ts";
import { traceLogFields } from "../tracing/hooks.ts";

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

export function loggerOptions(config: Config, stream?: { write(line: string): void }): FastifyServerOptions["logger"] {
  const pretty = !stream && process.stdout.isTTY && !config.isProduction;
  // With tracing on, every line written during a traced request names its trace (start.ts sets this up first).
  const mixin = traceLogFields();
  return {
    level: config.logLevel,
    ...(mixin ? { mixin } : {}),
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        'res.headers["set-cookie"]',
        "password",
        "*.password",
        "appSecret",
        "*.appSecret",
        "taxId",
        "*.taxId",
        "tax_id",
        "*.tax_id",
      ],
      censor: "[redacted]",
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; id?: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        ip: request.ip,
        id: request.id,
      }),
    },
    ...(stream ? { stream } : {}),
    ...(pretty
      ? { transport: { target: "pino-pretty", options: { translateTime: "HH:MM:ss", ignore: "pid,hostname" } } }
      : {}),
  };
}

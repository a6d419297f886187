import type { FastifyServerOptions } from "fastify";
import type { Config } from "../config/index.ts";

// Query parameters that carry credentials; their values never reach a log.
const secretQueryParameters = ["appSecret", "ticketId", "sessionId", "code", "state", "token", "password"];
const secretParameterPattern = new RegExp(`([?&](?:${secretQueryParameters.join("|")})=)[^&#]*`, "gi");

export function redactUrl(url: string): string {
  return url.replace(secretParameterPattern, "$1[redacted]");
}

export function loggerOptions(config: Config): FastifyServerOptions["logger"] {
  const pretty = process.stdout.isTTY && !config.isProduction;
  return {
    level: config.logLevel,
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
    ...(pretty
      ? { transport: { target: "pino-pretty", options: { translateTime: "HH:MM:ss", ignore: "pid,hostname" } } }
      : {}),
  };
}

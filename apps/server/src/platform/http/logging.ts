import type { FastifyServerOptions } from "fastify";
import type { Config } from "../config/index.ts";
import { redactUrl } from "../logging/redact-url.ts";
import { traceLogFields } from "../tracing/hooks.ts";

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

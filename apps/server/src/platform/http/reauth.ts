import type { FastifyRequest } from "fastify";

/** The request's reauthentication window for model/sessions/recent-sign-in.ts, as plain values. */
export function reauthWindow(request: FastifyRequest) {
  const { db, clock, config } = request.server;
  return { db, now: clock(), maxAgeSeconds: config.reauthMaxAgeSeconds };
}

import type { FastifyReply } from "fastify";
import { scimBasePath } from "./constants.ts";

/** RFC 7643 §3.1: meta.location and a reference ($ref) are URIs a client can follow from anywhere. */
export const absoluteScimUri = (reply: FastifyReply, path: string) => `${reply.server.config.publicUrl}${path}`;

export function sendScim(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  // scimmy writes its locations from the base path; the client gets them under this deployment's address.
  const json = JSON.stringify(body, (key, value: unknown) =>
    (key === "location" || key === "$ref") && typeof value === "string" && value.startsWith(`${scimBasePath}/`)
      ? absoluteScimUri(reply, value)
      : value,
  );
  return reply.code(status).header("cache-control", "no-store").type("application/scim+json; charset=utf-8").send(json);
}

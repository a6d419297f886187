import type { FastifyRequest } from "fastify";
import { hashTokenHex, matchesTokenHash } from "../../platform/crypto/tokens.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";

export interface PresentedCredentials {
  appId?: string;
  appSecret?: string;
}

/** `Authorization: Basic base64(appId:appSecret)`, the way new integrators keep the secret out of URLs. */
export function basicCredentials(request: FastifyRequest): PresentedCredentials {
  const header = request.headers.authorization;
  const match = typeof header === "string" ? /^Basic\s+([A-Za-z0-9+/=]{1,1024})$/i.exec(header.trim()) : null;
  if (!match?.[1]) return {};
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return {};
  return { appId: decoded.slice(0, colon), appSecret: decoded.slice(colon + 1) };
}

// Compared against when the application is unknown, so that case costs the same as a wrong secret.
const unknownApplicationHash = hashTokenHex("no such application");

/** Whether the secret is the application's; constant-time over the SHA-256 of both. */
export function secretMatches(application: ApplicationRow | undefined, secret: string): boolean {
  const matches = matchesTokenHash(application?.secret_hash ?? unknownApplicationHash, secret);
  return matches && application !== undefined;
}

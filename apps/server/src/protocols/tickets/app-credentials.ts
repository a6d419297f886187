import type { FastifyRequest } from "fastify";

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

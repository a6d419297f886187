import type { FastifyInstance } from "fastify";
import { visitorServiceProvider } from "./service-provider.ts";

/**
 * KPI ID's SP metadata: its entityID, the assertion consumer service (HTTP-POST), and the certificate institutions
 * verify its AuthnRequests with and encrypt assertions to. Federations register it in their aggregates.
 */
export async function visitorMetadata(app: FastifyInstance): Promise<string> {
  const { signing } = await app.saml.currentKeys();
  if (!signing) throw new Error("no SAML key");
  return visitorServiceProvider(app.config, signing).getMetadata();
}

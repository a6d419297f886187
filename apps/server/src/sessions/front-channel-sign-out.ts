import type { FastifyRequest } from "fastify";

/**
 * Protocols whose applications hear about a sign-out only through the browser (SAML
 * front-channel Single Logout) give the sign-out the path the browser goes to next. The
 * SAML module provides it (saml/index.ts); the sign-out route asks before the session goes.
 */
export type FrontChannelSignOut = (request: FastifyRequest, sessionId: string) => Promise<string | undefined>;

declare module "fastify" {
  interface FastifyInstance {
    frontChannelSignOut: FrontChannelSignOut;
  }
}

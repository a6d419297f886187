import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SignedOut } from "./end-sessions.ts";

/**
 * Protocols whose applications hear about a sign-out only through the browser (SAML
 * front-channel Single Logout) give the sign-out the path the browser goes to next. The
 * SAML module provides it (saml/index.ts); the sign-out route asks before the session goes.
 */
export type FrontChannelSignOut = (request: FastifyRequest, sessionId: string) => Promise<string | undefined>;

/**
 * How a KPI ID sign-out reaches the protocols' own sessions (OpenID Connect's provider session,
 * back-channel logout). Sign-in methods and the model sit below the protocols and never import
 * them (docs/architecture.md): app.ts hands these in from the OpenID Connect module.
 */
export interface ProtocolSignOut {
  /** This browser's protocol sessions end with its KPI ID session (the sign-out route). */
  inBrowser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The protocol sessions that followed this person's KPI ID sessions started at these times (seconds) end. */
  sessionsStartedAt(accountId: string, loginTimes: number[]): Promise<void>;
}

declare module "fastify" {
  interface FastifyInstance {
    frontChannelSignOut: FrontChannelSignOut;
    protocolSignOut: ProtocolSignOut;
  }
}

/** endSessions' way to the protocols in a running server (its SessionEnding.signOutOfProtocols). */
export function protocolsOf(app: FastifyInstance): (signedOut: SignedOut) => Promise<void> {
  return (signedOut) => app.protocolSignOut.sessionsStartedAt(signedOut.userId, signedOut.loginTimes);
}

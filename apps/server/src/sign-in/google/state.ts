import { randomBytes } from "node:crypto";
import { text } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { signedCookie } from "../../platform/http/signed-cookie.ts";

/**
 * `state` is 128 random bits and nothing else: where the browser continues
 * after the sign-in is kept on the server's side (sign-in/session/continue-cookie.ts).
 */
export function newState(): string {
  return randomBytes(16).toString("base64url");
}

/** What the browser must bring back to /google/auth: it ties the answer to the browser that asked. */
export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  nonce: string;
  /**
   * Set when the signed-in person started linking a Google account from the account page: the answer
   * then links this person instead of signing anyone in (the same provider flow and checks).
   */
  linkUserId?: string;
  /** Unix seconds after which the server refuses it, whatever the browser kept. */
  expiresAt: number;
}

const pendingSchema = z.object({
  state: text().min(1).max(512),
  codeVerifier: text().min(43).max(128),
  nonce: text().min(1).max(256),
  linkUserId: z.uuid().optional(),
  expiresAt: z.number().int().positive(),
});

/** Long enough to pick an account and type a password at Google, short enough to be useless later. */
export const PENDING_SIGN_IN_SECONDS = 600;

const pendingCookie = signedCookie("kpi_id_google", pendingSchema);

export function setPendingCookie(reply: FastifyReply, pending: PendingSignIn): void {
  pendingCookie.set(reply, pending, PENDING_SIGN_IN_SECONDS);
}

export function clearPendingCookie(reply: FastifyReply): void {
  pendingCookie.clear(reply);
}

/** The pending sign-in this browser started, if its cookie is present, ours (signature), well-formed and fresh. */
export function readPendingCookie(request: FastifyRequest): PendingSignIn | undefined {
  return pendingCookie.read(request);
}

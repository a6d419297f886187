import { randomBytes } from "node:crypto";
import { bankIdPurposes, languages, text } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { signedCookie } from "../../platform/http/signed-cookie.ts";

/** What the browser must bring back to /bankid/auth: it ties NBU's answer to the browser that asked. */
const pendingSchema = z.object({
  state: text().min(1).max(64),
  purpose: z.enum(bankIdPurposes),
  /** The language of the redirect_uri (/{lang}/bankid-auth), sent again with the code. */
  language: z.enum(languages),
  /** The bank the person picked on KPI ID's list, and its memberId the answer must carry. */
  bankId: text().max(64).optional(),
  memberId: text().max(64).optional(),
  expiresAt: z.number().int().positive(),
});
export type PendingBankIdSignIn = z.infer<typeof pendingSchema>;

/** Long enough to pick a bank and sign in there, short enough to be useless later. */
export const PENDING_BANKID_SECONDS = 600;

const pendingCookie = signedCookie("kpi_id_bankid", pendingSchema);

/** 128 random bits and nothing else: where the browser continues is kept on the server's side. */
export function newState(): string {
  return randomBytes(16).toString("base64url");
}

export function setPendingBankId(reply: FastifyReply, pending: Omit<PendingBankIdSignIn, "expiresAt">): void {
  const expiresAt = Math.floor(reply.server.clock().getTime() / 1000) + PENDING_BANKID_SECONDS;
  pendingCookie.set(reply, { ...pending, expiresAt }, PENDING_BANKID_SECONDS);
}

export function readPendingBankId(request: FastifyRequest): PendingBankIdSignIn | undefined {
  return pendingCookie.read(request);
}

export function clearPendingBankId(reply: FastifyReply): void {
  pendingCookie.clear(reply);
}

import { randomBytes } from "node:crypto";
import { bankIdPurposes, type Language, languages, text } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { signedCookie } from "../../platform/http/signed-cookie.ts";

/** What the browser must bring back to /bankid/auth: it ties NBU's answer to the browser that asked. */
const pendingSchema = z.object({
  state: text().min(1).max(64),
  /** `guest`: accepting a sponsored guest's invitation (the link's token and address ride along, signed). */
  purpose: z.enum([...bankIdPurposes, "guest"]),
  guestToken: text().max(100).optional(),
  guestEmail: text().max(254).optional(),
  /** The language the person started in; the state carries it too. */
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

/**
 * The language and 128 random bits ("uk.…"): NBU registers one callback address for both languages, so
 * the answer finds its language in the state even when this browser's cookie is gone. Where the browser
 * continues (and for what) is kept on the server's side.
 */
export function newState(language: Language): string {
  return `${language}.${randomBytes(16).toString("base64url")}`;
}

/** The language a state names, if it is one of ours. */
export function languageOfState(state: string | undefined): Language | undefined {
  const prefix = state?.split(".", 1)[0];
  return languages.find((language) => language === prefix);
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

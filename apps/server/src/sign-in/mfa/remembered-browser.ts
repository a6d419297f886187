import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { signedCookie } from "../../platform/http/signed-cookie.ts";

export const rememberBrowserDays = 30;
const accountsPerBrowser = 5;

/**
 * "Remember this browser": a signed cookie naming the accounts whose second factor this browser
 * proved, each until its own expiry and only for the factor set up at the time (`since`, the
 * factor's confirmation): a reset or a new factor makes it worthless. Another browser has no
 * such cookie and is asked for the code.
 */
const rememberedCookie = signedCookie(
  "kpi_id_mfa_browser",
  z.object({
    expiresAt: z.number(),
    accounts: z.array(z.object({ user: z.uuid(), since: z.number(), until: z.number() })).max(accountsPerBrowser),
  }),
  1024,
);

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Whether this browser proved the person's current second factor within the last 30 days. */
export function isRememberedBrowser(request: FastifyRequest, userId: string, factorSince: Date): boolean {
  const now = seconds(request.server.clock());
  return (rememberedCookie.read(request)?.accounts ?? []).some(
    (account) => account.user === userId && account.since === seconds(factorSince) && account.until > now,
  );
}

export function rememberBrowser(request: FastifyRequest, reply: FastifyReply, userId: string, factorSince: Date): void {
  const lifetime = rememberBrowserDays * 24 * 60 * 60;
  const now = seconds(request.server.clock());
  const others = (rememberedCookie.read(request)?.accounts ?? []).filter(
    (account) => account.user !== userId && account.until > now,
  );
  const accounts = [{ user: userId, since: seconds(factorSince), until: now + lifetime }, ...others].slice(
    0,
    accountsPerBrowser,
  );
  rememberedCookie.set(reply, { expiresAt: Math.max(...accounts.map((account) => account.until)), accounts }, lifetime);
}

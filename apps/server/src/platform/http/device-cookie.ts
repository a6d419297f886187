import { randomBytes } from "node:crypto";
import { text } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { deviceCookiePolicy } from "../throttle/policy.ts";
import { signedCookie } from "./signed-cookie.ts";

/**
 * The browser's device cookie (OWASP "Slow Down Online Guessing Attacks with
 * Device Cookies"): for each account that signed in on this browser, a random
 * nonce, signed with the session secret. Password checks from this browser for
 * that account are counted by the nonce, apart from the account's lock.
 */
const deviceCookie = signedCookie(
  "kpi_id_device",
  z.object({
    expiresAt: z.number(),
    accounts: z
      .array(z.object({ user: z.uuid(), nonce: text().regex(/^[\w-]{22}$/) }))
      .max(deviceCookiePolicy.accountsPerBrowser),
  }),
  1024,
);

/** The nonce this browser holds for the account, when it signed in to it before. */
export function deviceNonceFor(request: FastifyRequest, userId: string | undefined): string | undefined {
  if (userId === undefined) return undefined;
  return deviceCookie.read(request)?.accounts.find((account) => account.user === userId)?.nonce;
}

/** After a sign-in: a fresh nonce for this account (a new count), the most recent accounts kept. */
export function rememberDevice(request: FastifyRequest, reply: FastifyReply, userId: string): void {
  const lifetimeSeconds = deviceCookiePolicy.lifetimeDays * 24 * 60 * 60;
  const others = (deviceCookie.read(request)?.accounts ?? []).filter((account) => account.user !== userId);
  const accounts = [{ user: userId, nonce: randomBytes(16).toString("base64url") }, ...others].slice(
    0,
    deviceCookiePolicy.accountsPerBrowser,
  );
  const expiresAt = Math.floor(request.server.clock().getTime() / 1000) + lifetimeSeconds;
  deviceCookie.set(reply, { expiresAt, accounts }, lifetimeSeconds);
}

import { appStateMaxLength } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { newToken, sameText } from "../../platform/crypto/tokens.ts";
import { type ProtectedSite, returnAddress } from "./site.ts";

/**
 * The browser that started a sign-in is the one that finishes it: the start sets a random value in a cookie on the
 * protected host and sends it, with the way back, as the ticket's state; the callback takes the ticket only when the
 * state's value matches that browser's cookie. Otherwise an attacker could send someone their own ticket's
 * callback link and sign that person in to the site as the attacker (login CSRF, RFC 6749 §10.12).
 */

const separator = "~";
const bindingBytes = 16;
// The value is 22 characters (16 bytes, base64url) and the separator one: the address keeps the rest of the state.
const addressRoom = appStateMaxLength - 23;

function bindingCookieName(site: ProtectedSite): string {
  return site.secure ? "__Host-kpi_id_site_start" : "kpi_id_site_start";
}

function bindingCookieOptions(site: ProtectedSite) {
  // Lax: the callback is a top-level navigation coming back from KPI ID, which Lax cookies go with.
  return { path: "/", httpOnly: true, secure: site.secure, sameSite: "lax", maxAge: 15 * 60 } as const;
}

/** Starts a sign-in in this browser; the ticket's state to carry (the binding value, then the way back). */
export function bindSignIn(reply: FastifyReply, site: ProtectedSite, asked: string | undefined): string {
  const value = newToken(bindingBytes);
  reply.setCookie(bindingCookieName(site), value, bindingCookieOptions(site));
  // The room is checked on the normalised address (what the state carries); too long: the host's front page.
  return `${value}${separator}${returnAddress(site, asked, addressRoom)}`;
}

/** Whether this browser started the sign-in the state belongs to; and the way back the state names. */
export function signInBoundHere(request: FastifyRequest, site: ProtectedSite, state: string | undefined) {
  const at = state?.indexOf(separator) ?? -1;
  const value = state !== undefined && at > 0 ? state.slice(0, at) : "";
  const returnTo = returnAddress(site, state !== undefined && at > 0 ? state.slice(at + 1) : undefined);
  const cookie = request.cookies[bindingCookieName(site)] ?? "";
  return { bound: value !== "" && cookie !== "" && sameText(cookie, value), returnTo };
}

/** The sign-in finished (or refused): its cookie is no longer needed. */
export function forgetSignInBinding(reply: FastifyReply, site: ProtectedSite) {
  reply.clearCookie(bindingCookieName(site), bindingCookieOptions(site));
}

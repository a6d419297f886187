import { createHash, randomBytes } from "node:crypto";
import { text } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { signedCookie } from "../../../platform/http/signed-cookie.ts";
import { visitorCookieName } from "./paths.ts";

/** A sign-in at a home institution lasts this long, there and back (and the agreement screen after it). */
export const VISITOR_REQUEST_SECONDS = 15 * 60;

const cookie = signedCookie(
  visitorCookieName,
  z.object({ token: text().length(43), expiresAt: z.number().int().positive() }),
);

export const browserHashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/**
 * Binds a sign-in to the browser that started it: the institution's answer arrives by a cross-site POST, which
 * carries no Lax cookie, so the answer is only recorded there; it is used by a top-level GET that does carry this
 * cookie. Another browser (a person lured into posting someone else's answer) has no cookie and gets nothing.
 */
export function bindBrowser(reply: FastifyReply): string {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = Math.floor(reply.server.clock().getTime() / 1000) + VISITOR_REQUEST_SECONDS;
  cookie.set(reply, { token, expiresAt }, VISITOR_REQUEST_SECONDS);
  return browserHashOf(token);
}

/** This browser's hash, or undefined without a valid cookie. */
export function boundBrowser(request: FastifyRequest): string | undefined {
  const value = cookie.read(request);
  return value ? browserHashOf(value.token) : undefined;
}

export const forgetBrowser = (reply: FastifyReply) => cookie.clear(reply);

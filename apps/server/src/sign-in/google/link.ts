import { GOOGLE_LINK_PARAM } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { findUserByGoogleSubject, linkGoogleSubject } from "../../model/google/identities.ts";
import { AppError } from "../../platform/errors.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { notifySignInMethodChanged } from "../../platform/http/notify.ts";
import { currentSession } from "../session/current.ts";
import type { GoogleIdentity } from "./client.ts";

/** The account page, told how a Google link ended (`linked` or a Google error reason). */
export function accountPageAfterLink(request: FastifyRequest, outcome: string): string {
  return `/${requestLanguage(request)}/account?${new URLSearchParams({ [GOOGLE_LINK_PARAM]: outcome })}`;
}

/**
 * The account page's "link Google": the person who started it must still be the one signed in
 * in this browser, and the Google account must not sign in someone else already. Linking it
 * again to the same person changes nothing; a new link is told to the person by mail (someone
 * who took over a session must not add a way in unnoticed). Answers where the browser goes next.
 */
export async function linkGoogleIdentity(request: FastifyRequest, userId: string, identity: GoogleIdentity) {
  const session = await currentSession(request);
  if (session?.userId !== userId) throw new AppError("google.failed", { reason: "google.link_session_ended" });
  const holder = await findUserByGoogleSubject(request.server.db, identity.subject);
  if (holder && holder.id !== userId) throw new AppError("google.failed", { reason: "google.linked_elsewhere" });
  if (!holder) {
    await linkGoogleSubject(request.server.db, userId, identity.subject);
    notifySignInMethodChanged(request, session.user, "GOOGLE", "added");
  }
  return { userId, next: accountPageAfterLink(request, "linked") };
}

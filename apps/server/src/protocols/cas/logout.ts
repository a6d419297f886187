import type { FastifyReply, FastifyRequest } from "fastify";
import { findCasService } from "../../model/cas/services.ts";
import { deleteSessionByToken } from "../../model/sessions/store.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { clearSessionCookie, readSessionCookie } from "../../platform/http/session-cookie.ts";
import { endOidcSession } from "../oidc/logout.ts";
import { endCasSessionInBrowser } from "./single-logout.ts";

/**
 * CAS /logout (§2.3): the KPI ID session ends as at KPI ID's own sign-out (the protocols' sessions first: the CAS
 * services that asked for single logout get their LogoutRequest, OpenID Connect its back-channel logout), then the
 * browser goes to `service` only when it is a registered CAS service. A link on any site may sign a person out of
 * CAS, as the specification means it to; it can send them nowhere but a registered service or the sign-in page.
 */
export async function casSignOutPage(request: FastifyRequest, reply: FastifyReply, service: string | undefined) {
  const { db } = request.server;
  const token = readSessionCookie(request);
  await endCasSessionInBrowser(request, reply);
  await endOidcSession(request, reply);
  const ended = token ? await deleteSessionByToken(db, token) : undefined;
  clearSessionCookie(reply);
  if (ended)
    await audit(request, { type: "logout", result: "success", userId: ended.user_id, details: { via: "cas" } });
  const registered = service ? await findCasService(db, service) : undefined;
  reply.header("cache-control", "no-store");
  return reply.redirect(registered && service ? service : `/${requestLanguage(request)}/`, 302);
}

import type { FastifyReply, FastifyRequest } from "fastify";
import { findCasService } from "../../model/cas/services.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { signOutBrowser } from "../../sign-in/session/sign-out.ts";

/**
 * CAS /logout (§2.3): the browser's KPI ID session ends as at KPI ID's own sign-out (signOutBrowser: every
 * application it reached is told, the CAS services that asked for single logout by their LogoutRequest), then the
 * browser goes to `service` only when it is a registered CAS service, through the session's SAML SPs first when
 * there are any (front channel). A link on any site may sign a person out of CAS, as the specification means it
 * to; it can send them nowhere but a registered service or the sign-in page.
 */
export async function casSignOutPage(request: FastifyRequest, reply: FastifyReply, service: string | undefined) {
  const registered = service ? await findCasService(request.server.db, service) : undefined;
  const destination = registered && service ? service : `/${requestLanguage(request)}/`;
  const ended = await signOutBrowser(request, reply, destination);
  for (const userId of ended.users)
    await audit(request, { type: "logout", result: "success", userId, details: { via: "cas" } });
  reply.header("cache-control", "no-store");
  return reply.redirect(ended.next ?? destination, 302);
}

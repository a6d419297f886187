import { errorBodySchema, googleLinkStartSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { unlinkGoogle } from "../../model/google/identities.ts";
import { requireRecentSignIn } from "../../model/sessions/recent-sign-in.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { notifySignInMethodChanged } from "../../platform/http/notify.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";
import { requireSession } from "../session/current.ts";
import type { GoogleOpenIdClient } from "./client.ts";
import { beginGoogleSignIn } from "./service.ts";

/** Unlinking must leave the person a way in: a password, or Diia (their tax id is known). */
function requireAnotherMethod(session: LoadedSession): void {
  const { password_hash, tax_id } = session.user;
  if (!password_hash && !tax_id) throw new AppError("account.last_sign_in_method");
}

/** The account page's Google sign-in method: link one through the same Google flow as sign-in, unlink. */
export function googleLinkRoutes(requireClient: () => GoogleOpenIdClient): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      "/api/account/google/link",
      {
        schema: {
          tags: ["account"],
          summary: "Start linking a Google account",
          description:
            "Answers the provider's URL for the browser to open: the same Google flow as sign-in, its pending " +
            "cookie in link mode for the signed-in person. Google's answer then links that Google account " +
            "(audited `method_linked`) and returns to `/{lang}/account?google_link=linked`. Needs a recent " +
            "sign-in: otherwise 403 `auth.reauth_required`; 503 `google.not_configured` without Google.",
          body: z.object({}),
          response: { 200: googleLinkStartSchema, 401: errorBodySchema, 403: errorBodySchema, 503: errorBodySchema },
        },
      },
      async (request, reply) => {
        const session = await requireSession(request, reply);
        requireRecentSignIn(session, reauthWindow(request));
        const url = await beginGoogleSignIn(requireClient(), reply, { linkUserId: session.userId });
        return { url: url.href };
      },
    );

    app.post(
      "/api/account/google/unlink",
      {
        schema: {
          tags: ["account"],
          summary: "Unlink my Google account",
          description:
            "Google no longer signs this person in (audited `method_unlinked`). Needs a recent sign-in " +
            "(403 `auth.reauth_required`), and another way in: a password or Diia (409 " +
            "`account.last_sign_in_method`).",
          body: z.object({}),
          response: {
            200: z.object({ unlinked: z.number().int().min(0) }),
            401: errorBodySchema,
            403: errorBodySchema,
            409: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const session = await requireSession(request, reply);
        requireRecentSignIn(session, reauthWindow(request));
        requireAnotherMethod(session);
        const unlinked = await unlinkGoogle(app.db, session.userId);
        await audit(request, {
          type: "method_unlinked",
          result: "success",
          authMethod: "GOOGLE",
          userId: session.userId,
        });
        if (unlinked > 0) notifySignInMethodChanged(request, session.user, "GOOGLE", "removed");
        return { unlinked };
      },
    );
  };
}

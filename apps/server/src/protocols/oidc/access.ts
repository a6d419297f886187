import { interactionPolicy, type KoaContextWithOIDC } from "oidc-provider";
import type { Db } from "../../platform/db/schema.ts";
import { requestAccess } from "./request-access.ts";

/**
 * The authorization endpoint's access check, as a prompt of its own after
 * login: a signed-in person without access gets `access_denied` at once with
 * prompt=none, and the no-access answer of our interaction otherwise.
 */
export function applicationAccessPrompt(db: Db) {
  const { Prompt, Check } = interactionPolicy;
  return new Prompt(
    { name: "application_access", requestable: false },
    new Check(
      "no_application_access",
      "the person has no access to this application",
      "access_denied",
      async (ctx: KoaContextWithOIDC) => {
        const accountId = ctx.oidc.session?.accountId;
        const clientId = ctx.oidc.client?.clientId;
        if (!accountId || !clientId) return Check.NO_NEED_TO_PROMPT;
        return (await requestAccess(db, accountId, clientId)) ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT;
      },
    ),
  );
}

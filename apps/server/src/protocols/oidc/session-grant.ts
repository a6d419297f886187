import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import { consentOf, recordConsent as recordGivenConsent } from "../../model/access/consents.ts";
import { isFirstParty } from "../../model/access/ticket-consents.ts";
import type { Db } from "../../platform/db/schema.ts";
import type { FindApplication } from "./clients.ts";
import { requestAccess } from "./request-access.ts";

type Grant = InstanceType<Provider["Grant"]>;

export interface ConsentQuestion {
  accountId: string;
  clientId: string;
  scopes: string[];
  /** The request's prompt parameter: prompt=consent always asks again. */
  prompt?: string;
}

const asksAgain = (prompt: string | undefined) =>
  String(prompt ?? "")
    .split(" ")
    .includes("consent");

/**
 * The scopes the person already consented to for this application, when they cover every
 * requested one (the consent screen's answer, on any device, until the grant lifetime passes).
 * Only the answer is reused, never a grant: each provider session gets a grant of its own
 * (see loadSessionGrant).
 */
export async function rememberedConsent(db: Db, question: ConsentQuestion): Promise<string[] | undefined> {
  if (asksAgain(question.prompt)) return undefined;
  const consent = await consentOf(
    db,
    question.accountId,
    { protocol: "oidc", applicationId: question.clientId },
    new Date(),
  );
  const granted = new Set(consent);
  return consent && question.scopes.every((scope) => granted.has(scope)) ? question.scopes : undefined;
}

/** Records the person's "allow": these scopes, with those allowed before, for the grant lifetime. */
export async function recordConsent(db: Db, question: Omit<ConsentQuestion, "prompt">, ttlSeconds: number) {
  const now = new Date();
  const until = new Date(now.getTime() + ttlSeconds * 1000);
  const to = { protocol: "oidc", applicationId: question.clientId } as const;
  await recordGivenConsent(db, question.accountId, to, question.scopes, { now, until });
}

/**
 * The scopes a person may be given without a screen: everything asked for by a first-party
 * application, or what an earlier consent covers; undefined when they must be asked (or have
 * no access, which the access prompt answers).
 */
async function consentWithoutScreen(db: Db, findApplication: FindApplication, question: ConsentQuestion) {
  if (!(await requestAccess(db, question.accountId, question.clientId))) return undefined;
  const application = await findApplication(question.clientId);
  if (application && isFirstParty(application)) return question.scopes;
  return rememberedConsent(db, question);
}

/**
 * oidc-provider's `loadExistingGrant`: the grant of this provider session (one browser) for the
 * application, else a new one for this session when the person needs no consent screen. So a
 * person signed in to KPI ID gets a code with prompt=none, and signing out, a revoked token or a
 * detected replay on one device never ends another device's tokens (defect 4 of issue 13).
 */
export function loadSessionGrant(db: Db, findApplication: FindApplication) {
  return async (ctx: KoaContextWithOIDC): Promise<Grant | undefined> => {
    const { provider, client, session, params } = ctx.oidc;
    const accountId = session?.accountId;
    if (!client || !accountId) return undefined;
    const clientId = client.clientId;
    const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(clientId);
    const own = grantId ? await provider.Grant.find(grantId) : undefined;
    if (own?.accountId === accountId && own.clientId === clientId) return own;
    const scopes = String(params?.scope ?? "")
      .split(" ")
      .filter(Boolean);
    const prompt = typeof params?.prompt === "string" ? params.prompt : undefined;
    const consented = await consentWithoutScreen(db, findApplication, { accountId, clientId, scopes, prompt });
    if (!consented) return undefined;
    const grant = new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(consented.join(" "));
    await grant.save();
    return grant;
  };
}

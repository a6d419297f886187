import { sql } from "kysely";
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import { hasApplicationAccess } from "../access/applications.ts";
import { findApplicationById } from "../apps/queries.ts";
import type { Db } from "../db/schema.ts";

type Grant = InstanceType<Provider["Grant"]>;

export interface ConsentQuestion {
  accountId: string;
  clientId: string;
  scopes: string[];
  /** The request's prompt parameter: prompt=consent always asks again. */
  prompt?: string;
}

/**
 * The scopes the person already consented to for this application, when they cover every
 * requested one: from any earlier grant of theirs (on any device). Only the answer is reused,
 * never the grant itself: each provider session gets a grant of its own (see loadSessionGrant).
 */
export async function rememberedConsent(
  db: Db,
  provider: Provider,
  question: ConsentQuestion,
): Promise<string[] | undefined> {
  if (
    String(question.prompt ?? "")
      .split(" ")
      .includes("consent")
  )
    return undefined;
  const rows = await db
    .selectFrom("oidc_payloads")
    .select("id")
    .where("type", "=", "Grant")
    .where(sql<string>`payload->>'accountId'`, "=", question.accountId)
    .where(sql<string>`payload->>'clientId'`, "=", question.clientId)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", new Date())]))
    .orderBy("expires_at", "desc")
    .limit(5)
    .execute();
  for (const { id } of rows) {
    const granted = new Set((await provider.Grant.find(id))?.getOIDCScope().split(" "));
    if (question.scopes.every((scope) => granted.has(scope))) return question.scopes;
  }
  return undefined;
}

/**
 * The scopes a person may be given without a screen: everything asked for by a first-party
 * application, or what an earlier consent covers; undefined when they must be asked (or have
 * no access, which the access prompt answers).
 */
async function consentWithoutScreen(db: Db, provider: Provider, question: ConsentQuestion) {
  if (!(await hasApplicationAccess(db, question.accountId, question.clientId))) return undefined;
  const application = await findApplicationById(db, question.clientId);
  if (application?.first_party) return question.scopes;
  return rememberedConsent(db, provider, question);
}

/**
 * oidc-provider's `loadExistingGrant`: the grant of this provider session (one browser) for the
 * application, else a new one for this session when the person needs no consent screen. So a
 * person signed in to KPI ID gets a code with prompt=none, and signing out, a revoked token or a
 * detected replay on one device never ends another device's tokens (defect 4 of issue 13).
 */
export function loadSessionGrant(db: Db) {
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
    const consented = await consentWithoutScreen(db, provider, { accountId, clientId, scopes, prompt });
    if (!consented) return undefined;
    const grant = new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(consented.join(" "));
    await grant.save();
    return grant;
  };
}

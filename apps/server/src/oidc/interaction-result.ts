import { type Kysely, sql } from "kysely";
import type Provider from "oidc-provider";
import type { InteractionResults } from "oidc-provider";
import type { Database } from "../db/schema.ts";
import type { LoadedSession } from "../sessions/store.ts";
import { amrByAuthMethod } from "./claims.ts";

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;

export function requestedScopes(interaction: Interaction): string[] {
  const scope = interaction.params.scope;
  return typeof scope === "string" ? scope.split(" ").filter(Boolean) : [];
}

export function clientIdOf(interaction: Interaction): string {
  return String(interaction.params.client_id ?? "");
}

type Grant = InstanceType<Provider["Grant"]>;

/**
 * The person's earlier consent to this application, when it covers every
 * requested scope: then a third-party application is not asked about again
 * (unless it asks for prompt=consent itself).
 */
export async function rememberedConsent(
  db: Kysely<Database>,
  provider: Provider,
  interaction: Interaction,
  accountId: string,
): Promise<Grant | undefined> {
  const prompts = String(interaction.params.prompt ?? "").split(" ");
  if (prompts.includes("consent")) return undefined;
  const rows = await db
    .selectFrom("oidc_payloads")
    .select("id")
    .where("type", "=", "Grant")
    .where(sql<string>`payload->>'accountId'`, "=", accountId)
    .where(sql<string>`payload->>'clientId'`, "=", clientIdOf(interaction))
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", new Date())]))
    .orderBy("expires_at", "desc")
    .limit(5)
    .execute();
  const requested = requestedScopes(interaction);
  for (const { id } of rows) {
    const grant = await provider.Grant.find(id);
    const granted = new Set(grant?.getOIDCScope().split(" "));
    if (grant && requested.every((scope) => granted.has(scope))) return grant;
  }
  return undefined;
}

/**
 * Signs the KPI ID session's person in to the provider and grants the
 * requested scopes (the provider has already refused scopes the application
 * may not ask for), in one step.
 */
export async function approvedResult(
  provider: Provider,
  interaction: Interaction,
  session: LoadedSession,
  remembered?: Grant,
): Promise<InteractionResults> {
  const accountId = session.userId;
  const clientId = clientIdOf(interaction);
  const existing = remembered ?? (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined);
  const grant =
    existing && existing.accountId === accountId && existing.clientId === clientId
      ? existing
      : new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(requestedScopes(interaction).join(" "));
  const grantId = await grant.save();
  return {
    login: { accountId, amr: [amrByAuthMethod[session.authMethod]], remember: false },
    consent: { grantId },
  };
}

export function deniedResult(description: string): InteractionResults {
  return { error: "access_denied", error_description: description };
}

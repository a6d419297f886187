import type Provider from "oidc-provider";
import type { InteractionResults } from "oidc-provider";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { providerLogin } from "./kpi-session.ts";

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;

export function requestedScopes(interaction: Interaction): string[] {
  const scope = interaction.params.scope;
  return typeof scope === "string" ? scope.split(" ").filter(Boolean) : [];
}

/**
 * An interaction the provider started only because nobody was signed in (its reasons: no provider session, no
 * KPI ID session; no `prompt`, no `max_age`, no device):
 * once a KPI ID session exists, the provider answers it by itself when it resumes, as it does a request that
 * arrives signed in: its session follows the KPI ID session (kpi-session.ts), its access prompt asks about the
 * application (access.ts), and its grant comes without a screen or not at all (session-grant.ts), in which case
 * it starts a new interaction, for access or consent, that comes to our route. The route writes nothing for it.
 */
export function resumesByItself(interaction: {
  prompt: { name: string; reasons: string[] };
  params: Record<string, unknown>;
  deviceCode?: string;
}): boolean {
  const { name, reasons } = interaction.prompt;
  const { prompt, max_age: maxAge } = interaction.params;
  return (
    name === "login" &&
    reasons.every((reason) => reason === "no_session" || reason === "kpi_id_session") &&
    prompt === undefined &&
    maxAge === undefined &&
    !interaction.deviceCode
  );
}

export function clientIdOf(interaction: Interaction): string {
  return String(interaction.params.client_id ?? "");
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
): Promise<InteractionResults> {
  const accountId = session.userId;
  const clientId = clientIdOf(interaction);
  // This provider session's own grant, never another device's (see session-grant.ts).
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant =
    existing && existing.accountId === accountId && existing.clientId === clientId
      ? existing
      : new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(requestedScopes(interaction).join(" "));
  const grantId = await grant.save();
  return {
    login: { ...providerLogin(session), remember: false },
    consent: { grantId },
  };
}

export function deniedResult(description: string): InteractionResults {
  return { error: "access_denied", error_description: description };
}

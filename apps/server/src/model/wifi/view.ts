import type { WifiPassword } from "@kpi-id/contracts";
import type { NetworkPassword } from "./passwords.ts";

/** The identities a person types: username@realm (TTLS, any of their passwords), username+device@realm (PEAP). */
export const wifiIdentity = (username: string, realm: string, device?: string) =>
  device === undefined ? `${username}@${realm}` : `${username}+${device}@${realm}`;

/** A network password as the account page and the console show it: never a secret. */
export function wifiPasswordView(password: NetworkPassword, username: string, realm: string): WifiPassword {
  return {
    id: password.id,
    name: password.name,
    identity: wifiIdentity(username, realm, password.device),
    createdAt: password.createdAt.toISOString(),
    lastUsedAt: password.lastUsedAt?.toISOString() ?? null,
    uses: password.uses.map((use) => ({
      usedAt: use.usedAt.toISOString(),
      method: use.method,
      accessPoint: use.accessPoint ?? "",
      nasIdentifier: use.nasIdentifier ?? "",
    })),
    sessions: password.sessions.map((session) => ({
      controller: session.controller,
      since: session.since.toISOString(),
    })),
  };
}

import { SignOutParticipants } from "../../model/sessions/sign-out.ts";
import type { Config } from "../../platform/config/index.ts";
import type { DatabaseHandle } from "../../platform/db/index.ts";
import { oidcSignOut } from "../../protocols/oidc/logout.ts";

/**
 * The service's own sign-out participants, built in the CLI's process over its database (issue 74: one sign-out):
 * the command that ends sessions (`user disable`, `user reset-mfa`) tells every application the sessions reached, as
 * the console's buttons do. Built by the program (bin/kpi-id.js hands in src/cli-service.ts), since no layer imports
 * the app; `close` ends what it started and leaves the CLI's database open.
 */
export type ServiceSignOut = (
  config: Config,
  database: DatabaseHandle,
  stderr: (line: string) => void,
) => Promise<{ signOut: SignOutParticipants; close(): Promise<void> }>;

/**
 * Without the service (runCli called as a library with no `serviceSignOut`): OpenID Connect's grants end with the
 * sessions and nobody is told; the CAS services' sign-ins stay until the person's next sign-out tells them; SAML's
 * and forward-auth's records go with the sessions (their keys).
 */
export function sessionsOnlySignOut(): SignOutParticipants {
  // Nothing is sent after the commit here, so nothing can fail there; were it to, the command fails with it.
  const participants = new SignOutParticipants((participant, error) => {
    throw new Error(`sign-out: ${participant} failed`, { cause: error });
  });
  participants.register(oidcSignOut());
  return participants;
}

import { SignOutParticipants } from "../../model/sessions/sign-out.ts";
import { oidcSignOut } from "../../protocols/oidc/logout.ts";

/**
 * The sign-out participants the CLI can run without the app: OpenID Connect's grants end with the sessions (its
 * provider, which signs logout tokens, is not there, so no application is told). The CAS services' sign-ins stay
 * until the person's next sign-out tells them; SAML's and forward-auth's records go with the sessions (their keys).
 */
export function cliSignOut(): SignOutParticipants {
  // Nothing is sent after the commit here, so nothing can fail there; were it to, the command fails with it.
  const participants = new SignOutParticipants((participant, error) => {
    throw new Error(`sign-out: ${participant} failed`, { cause: error });
  });
  participants.register(oidcSignOut());
  return participants;
}

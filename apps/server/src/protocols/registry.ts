import { casProtocol } from "./cas/index.ts";
import { forwardAuthProtocol } from "./forward-auth/index.ts";
import { ldapProtocol } from "./ldap/index.ts";
import { oidcProtocol } from "./oidc/index.ts";
import { radiusProtocol } from "./radius/index.ts";
import type { ProtocolRecord } from "./record.ts";
import { samlProtocol } from "./saml/index.ts";
import { scimProtocol } from "./scim/index.ts";
import { ticketsProtocol } from "./tickets/index.ts";

/**
 * Every protocol KPI ID speaks, each a record of its own folder (protocols/record.ts). app.ts registers them in
 * this order, which is also the order every sign-out tells them in; a new protocol is one line here (issue 74).
 */
export const protocols: readonly ProtocolRecord[] = [
  ticketsProtocol,
  forwardAuthProtocol,
  radiusProtocol,
  ldapProtocol,
  scimProtocol,
  oidcProtocol,
  samlProtocol,
  casProtocol,
];

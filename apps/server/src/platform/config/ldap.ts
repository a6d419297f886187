import type { Environment } from "./schema.ts";

/** LDAP through OpenLDAP slapd (docs/ldap.md): KPI ID keeps slapd's directory and answers its binds. */
export interface LdapConfig {
  /**
   * LDAP_LDAPI_PATH: slapd's ldapi socket, through which KPI ID writes the directory as cn=kpi-id (SASL
   * EXTERNAL). Unset: no LDAP at all (the account page's application passwords answer `ldap.not_configured`).
   */
  ldapiPath?: string;
  /** LDAP_BIND_SOCKET: where the bind responder listens for slapd's sock overlay. */
  bindSocket: string;
  /** LDAP_BASE_DN: the directory's suffix; people under ou=people, groups under ou=groups. */
  baseDn: string;
  /** LDAP_SCOPE: the scope of eduPersonPrincipalName and eduPersonScopedAffiliation (username@scope). */
  scope: string;
  /** LDAP_RESYNC_SECONDS: how often the whole directory is compared with KPI ID and repaired. */
  resyncSeconds: number;
}

export function readLdapConfig(environment: Environment): LdapConfig {
  return {
    ldapiPath: environment.LDAP_LDAPI_PATH,
    bindSocket: environment.LDAP_BIND_SOCKET,
    baseDn: environment.LDAP_BASE_DN,
    scope: environment.LDAP_SCOPE,
    resyncSeconds: environment.LDAP_RESYNC_SECONDS,
  };
}

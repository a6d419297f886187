import { connect } from "node:net";
import { Client } from "ldapts";

/**
 * A connection to slapd's ldapi socket, bound with SASL EXTERNAL: slapd maps whoever opened the socket to
 * cn=kpi-id, the directory's root (deploy/openldap/slapd.conf, authz-regexp). No password to keep anywhere.
 */
export async function connectToDirectory(ldapiPath: string): Promise<Client> {
  const client = new Client({
    // ldapts dials TCP by default; slapd's ldapi is a UNIX socket, so the connection is made here.
    url: "ldap://ldapi",
    timeout: 10_000,
    connectTimeout: 5_000,
    createConnection: (() => connect(ldapiPath)) as unknown as typeof connect,
  });
  await client.bind("EXTERNAL");
  return client;
}

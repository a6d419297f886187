import type { LdapClient } from "../../model/ldap/clients.ts";
import { clientDn, groupDn, groupsDn, peopleDn } from "./entries.ts";

// The directory database's access rules (olcAccess), written by KPI ID from its registered clients on every sync.
// Order matters: slapd takes the first rule whose <what> matches, then its first matching <who>; `break` goes on
// to the next rule. Each client gets its own rules for what it may read; everything else is refused at the end.

/** Attributes every reader of an entry needs besides those it was allowed: to find and name entries. */
const alwaysReadable = ["entry", "entryDN", "objectClass"];

function peopleRule(client: LdapClient, base: string): string | undefined {
  if (client.subtree === "groups") return undefined;
  const attributes = [...alwaysReadable, ...client.attributes].join(",");
  // Tied to an application: only the entries of people in its access group (kept by the sync) are readable.
  const who = client.applicationId
    ? `dn.exact="${clientDn(client.name, base)}" set="[${groupDn(`access-${client.name}`, base)}]/member & this"`
    : `dn.exact="${clientDn(client.name, base)}"`;
  return `to dn.children="${peopleDn(base)}" attrs=${attributes} by ${who} read by * break`;
}

function branchRules(client: LdapClient, base: string): string[] {
  const who = `dn.exact="${clientDn(client.name, base)}"`;
  const rules: string[] = [];
  if (client.subtree !== "groups")
    rules.push(`to dn.base="${peopleDn(base)}" attrs=entry,objectClass,ou by ${who} read by * break`);
  // memberOf is computed by dynlist with the reader's own rights over the groups, so reading people's memberOf
  // needs the groups too; a client allowed only people reads memberOf only when it was allowed memberOf.
  const readsGroups = client.subtree !== "people" || client.attributes.includes("memberOf");
  if (readsGroups) rules.push(`to dn.subtree="${groupsDn(base)}" by ${who} read by * break`);
  return rules;
}

/** The whole olcAccess list for the directory, in order. */
export function directoryAccessRules(clients: LdapClient[], base: string): string[] {
  return [
    // Binds: the sock overlay hands them to the responder, which decides.
    `to dn.subtree="${base}" attrs=entry by anonymous auth by * break`,
    // Searching from the suffix down (dynlist's memberOf, clients searching the whole tree) needs it.
    `to dn.base="${base}" attrs=entry by users search by * break`,
    ...clients
      .flatMap((client) => [peopleRule(client, base), ...branchRules(client, base)])
      .filter((rule): rule is string => rule !== undefined),
    // A person reads their own entry (ldapwhoami, a user's own search); nobody reads anything else.
    `to dn.children="${peopleDn(base)}" by self read by * break`,
    "to * by * none",
  ];
}

import type { DirectoryGroup, DirectoryPerson } from "../../model/ldap/directory.ts";
import { splitFullName } from "../../model/people/names.ts";

/** One directory entry as KPI ID wants it: its DN and each attribute's values. */
export interface WantedEntry {
  dn: string;
  attributes: Record<string, string[]>;
}

/** An RDN value escaped as RFC 4514 asks (a unit code may hold a comma or a plus). */
export function escapeRdnValue(value: string): string {
  return value
    .replace(/[\\,+"<>;=]/g, (character) => `\\${character}`)
    .replace(/^[ #]/, (character) => `\\${character}`)
    .replace(/ $/, "\\ ")
    .replace(/\0/g, "\\00");
}

export const peopleDn = (base: string) => `ou=people,${base}`;
export const groupsDn = (base: string) => `ou=groups,${base}`;
export const clientsDn = (base: string) => `ou=clients,${base}`;
export const personDn = (username: string, base: string) => `uid=${escapeRdnValue(username)},${peopleDn(base)}`;
export const groupDn = (name: string, base: string) => `cn=${escapeRdnValue(name)},${groupsDn(base)}`;
export const clientDn = (name: string, base: string) => `cn=${escapeRdnValue(name)},${clientsDn(base)}`;

/**
 * The key that follows a person through renames: eduPersonUniqueId, the person's KPI ID id (never reassigned)
 * in the university's scope. The sync finds a renamed person's entry by it and moves the entry.
 */
export const uniqueIdOf = (personId: string, scope: string) => `${personId.replace(/-/g, "")}@${scope}`;

/** A person's entry: inetOrgPerson, posixAccount and eduPerson. Never the tax id or a password. */
export function personEntry(person: DirectoryPerson, base: string, scope: string): WantedEntry {
  const names = splitFullName(person.fullName);
  const fullName = person.fullName.trim() || person.username;
  const attributes: Record<string, string[]> = {
    objectClass: ["inetOrgPerson", "posixAccount", "eduPerson"],
    uid: [person.username],
    cn: [fullName],
    sn: [names.family_name ?? names.given_name ?? fullName],
    displayName: [fullName],
    uidNumber: [String(person.number)],
    gidNumber: [String(person.number)],
    homeDirectory: [`/home/${person.username}`],
    loginShell: ["/bin/bash"],
    eduPersonPrincipalName: [`${person.username}@${scope}`],
    eduPersonUniqueId: [uniqueIdOf(person.id, scope)],
  };
  if (names.given_name && names.family_name) attributes.givenName = [names.given_name];
  if (person.email) attributes.mail = [person.email];
  if (person.affiliations.length > 0) {
    attributes.eduPersonAffiliation = person.affiliations;
    attributes.eduPersonPrimaryAffiliation = [person.affiliations[0] ?? ""];
    attributes.eduPersonScopedAffiliation = person.affiliations.map((affiliation) => `${affiliation}@${scope}`);
  }
  return { dn: personDn(person.username, base), attributes };
}

/**
 * A unit's or an access group's entry: groupOfNames (what Nextcloud, GitLab and sssd's rfc2307bis read) with a
 * gidNumber (kpiIdGroup). groupOfNames needs a member, so a group nobody is in is left out until someone is.
 */
export function groupEntry(group: DirectoryGroup, base: string): WantedEntry | undefined {
  if (group.members.length === 0) return undefined;
  return {
    dn: groupDn(group.name, base),
    attributes: {
      objectClass: ["groupOfNames", "kpiIdGroup"],
      cn: [group.name],
      gidNumber: [String(group.number)],
      ...(group.description ? { description: [group.description] } : {}),
      member: group.members.map((username) => personDn(username, base)),
    },
  };
}

/** A registered client's service account: an entry to bind as (the responder checks its secret). */
export function clientEntry(name: string, title: string, base: string): WantedEntry {
  return {
    dn: clientDn(name, base),
    attributes: { objectClass: ["applicationProcess"], cn: [name], description: [title] },
  };
}

/** The directory's own skeleton: the suffix and the three branches. */
export function skeletonEntries(base: string): WantedEntry[] {
  const [first = "dc=kpi"] = base.split(",");
  const dc = first.replace(/^dc=/, "");
  return [
    { dn: base, attributes: { objectClass: ["dcObject", "organization"], dc: [dc], o: [dc] } },
    { dn: peopleDn(base), attributes: { objectClass: ["organizationalUnit"], ou: ["people"] } },
    { dn: groupsDn(base), attributes: { objectClass: ["organizationalUnit"], ou: ["groups"] } },
    { dn: clientsDn(base), attributes: { objectClass: ["organizationalUnit"], ou: ["clients"] } },
  ];
}

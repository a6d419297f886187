import { z } from "zod";
import { text } from "./text.ts";

/**
 * The attributes a person's entry holds in the directory (the server's protocols/ldap/entries.ts), the only ones a
 * registered LDAP client may be allowed to read. The tax id and other sensitive data are never in the directory.
 */
export const ldapDirectoryAttributes = [
  "uid",
  "cn",
  "sn",
  "givenName",
  "displayName",
  "mail",
  "uidNumber",
  "gidNumber",
  "homeDirectory",
  "loginShell",
  "gecos",
  "memberOf",
  "eduPersonAffiliation",
  "eduPersonPrimaryAffiliation",
  "eduPersonPrincipalName",
  "eduPersonScopedAffiliation",
  "eduPersonUniqueId",
] as const;

/** What a client may read: people, groups (units and access groups), or both. */
export const ldapClientSubtrees = ["people", "groups", "directory"] as const;
export type LdapClientSubtree = (typeof ldapClientSubtrees)[number];

/** Why a bind was refused: the audit row's reason, and how the console counts a client's failures. */
export const ldapBindRefusals = [
  "not_ours",
  "no_tls",
  "unknown_person",
  "person_disabled",
  "no_access",
  "wrong_password",
  "throttled",
  "unknown_client",
  "wrong_secret",
  // The KPI ID password through a client that allows it, from a person it is never allowed for (a console role,
  // a second factor).
  "kpi_password_refused",
] as const;
export type LdapBindRefusal = (typeof ldapBindRefusals)[number];

/** A client's name: its service account is cn=<name>,ou=clients,<base>. */
export const ldapClientName = text().regex(/^[a-z0-9][a-z0-9-]{0,62}$/);

/** The days the console counts a client's binds over. */
export const ldapClientActivityDays = 14;

export const adminLdapClientSchema = z.object({
  id: z.uuid(),
  name: text(),
  title: text(),
  bindDn: text(),
  /** Sees, and lets bind, only people with access to this application; null: everyone in the directory. */
  application: z.object({ id: z.uuid(), title: text() }).nullable(),
  subtree: z.enum(ldapClientSubtrees),
  attributes: z.array(text()),
  addresses: z.array(text()),
  kpiPasswordAllowed: z.boolean(),
  createdAt: text(),
  /** Binds through the client (its service account's and people's) in the last ldapClientActivityDays days. */
  binds: z.object({ accepted: z.number().int(), refused: z.number().int(), lastAt: text().nullable() }),
  /** Its latest refused binds, newest first: when, why, from where; never who or what was typed. */
  failures: z.array(z.object({ at: text(), reason: z.enum(ldapBindRefusals), address: text() })),
});
export type AdminLdapClient = z.infer<typeof adminLdapClientSchema>;

export const adminLdapClientsSchema = z.object({
  clients: z.array(adminLdapClientSchema),
  /** Whether this service runs slapd (LDAP_LDAPI_PATH): registered clients take effect only where it does. */
  configured: z.boolean(),
});
export type AdminLdapClients = z.infer<typeof adminLdapClientsSchema>;

export const registerLdapClientSchema = z.object({
  name: ldapClientName,
  title: text().trim().min(1).max(120),
  applicationId: z.uuid().nullable(),
  subtree: z.enum(ldapClientSubtrees),
  attributes: z.array(z.enum(ldapDirectoryAttributes)).min(1).max(ldapDirectoryAttributes.length),
  addresses: z.array(text().max(45)).max(50),
  kpiPasswordAllowed: z.boolean(),
});
export type RegisterLdapClient = z.infer<typeof registerLdapClientSchema>;

/** A registered client: its service account's secret, shown once. */
export const registeredLdapClientSchema = z.object({ name: text(), bindDn: text(), secret: text() });
export type RegisteredLdapClient = z.infer<typeof registeredLdapClientSchema>;

// Any name up to the limit: one no client holds (or could hold) is simply not found (404), after the console's own
// checks, so the answer to a caller without the role does not depend on the name's form.
export const ldapClientNameParamsSchema = z.object({ name: text().min(1).max(63) });

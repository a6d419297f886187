import { isIP } from "node:net";
import { hashTokenHex, newToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";

/**
 * The attributes a person's entry holds (protocols/ldap/entries.ts), the only ones a client may be allowed to read.
 * The tax id and other sensitive data are never in the directory at all.
 */
export const directoryAttributes = [
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
export const clientSubtrees = ["people", "groups", "directory"] as const;
export type ClientSubtree = (typeof clientSubtrees)[number];

export interface LdapClient {
  id: string;
  name: string;
  title: string;
  /** Sees, and lets bind, only people with access to this application; null: everyone in the directory. */
  applicationId: string | null;
  subtree: ClientSubtree;
  attributes: string[];
  /** Where the client's connections come from: a person's bind from one of them is a bind through it. */
  addresses: string[];
  createdAt: Date;
}

/** A client as registered: everything but what the registration gives it. */
export type NewLdapClient = Omit<LdapClient, "id" | "createdAt">;

const clientName = /^[a-z0-9][a-z0-9-]{0,62}$/;

function checkedClient(client: NewLdapClient): NewLdapClient {
  const known = new Map(directoryAttributes.map((name) => [name.toLowerCase(), name]));
  const attributes = client.attributes.map((name) => known.get(name.trim().toLowerCase()));
  if (
    !clientName.test(client.name) ||
    client.title.trim() === "" ||
    !clientSubtrees.includes(client.subtree) ||
    attributes.some((name) => name === undefined) ||
    client.addresses.some((address) => isIP(address) === 0)
  ) {
    throw new AppError("ldap.client_invalid");
  }
  return { ...client, title: client.title.trim(), attributes: [...new Set(attributes as string[])] };
}

const asClient = (row: {
  id: string;
  name: string;
  title: string;
  application_id: string | null;
  subtree: string;
  attributes: string[];
  addresses: string[];
  created_at: Date;
}): LdapClient => ({
  id: row.id,
  name: row.name,
  title: row.title,
  applicationId: row.application_id,
  subtree: (clientSubtrees as readonly string[]).includes(row.subtree) ? (row.subtree as ClientSubtree) : "people",
  attributes: row.attributes,
  addresses: row.addresses,
  createdAt: row.created_at,
});

/** Registers a client; its service account's secret is answered once (only its SHA-256 is kept). */
export async function registerLdapClient(
  db: Db,
  client: NewLdapClient,
  now: Date,
): Promise<{ client: LdapClient; secret: string }> {
  const checked = checkedClient(client);
  const secret = newToken();
  const row = await db
    .insertInto("ldap_clients")
    .values({
      name: checked.name,
      title: checked.title,
      application_id: checked.applicationId,
      subtree: checked.subtree,
      attributes: checked.attributes,
      addresses: checked.addresses,
      secret_hash: hashTokenHex(secret),
      created_at: now,
    })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError("ldap.client_taken");
  return { client: asClient(row), secret };
}

export async function listLdapClients(db: Db): Promise<LdapClient[]> {
  const rows = await db.selectFrom("ldap_clients").selectAll().orderBy("name").execute();
  return rows.map(asClient);
}

/** The client's row with its secret's hash, for a bind as its service account. */
export function findLdapClientSecret(db: Db, name: string) {
  return db.selectFrom("ldap_clients").select(["id", "secret_hash"]).where("name", "=", name).executeTakeFirst();
}

/** The client a connection from this address belongs to, if one is registered for it. */
export async function ldapClientAt(db: Db, address: string | undefined): Promise<LdapClient | undefined> {
  if (!address) return undefined;
  const row = await db
    .selectFrom("ldap_clients")
    .selectAll()
    .where((eb) => eb(eb.val(address), "=", eb.fn.any("addresses")))
    .orderBy("name")
    .executeTakeFirst();
  return row ? asClient(row) : undefined;
}

/** Removes a client: its service account stops binding and its rules leave slapd at the next sync. */
export async function removeLdapClient(db: Db, name: string): Promise<void> {
  const result = await db.deleteFrom("ldap_clients").where("name", "=", name).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError("ldap.client_not_found");
}

import { isIP } from "node:net";
import { type LdapClientSubtree, ldapClientSubtrees, ldapDirectoryAttributes } from "@kpi-id/contracts";
import { hashTokenHex, newToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { hasApplicationAccess } from "../admission/applications.ts";

// The attributes a client may read and the subtrees it may see are the contracts' (the console lists them).
export { ldapClientSubtrees as clientSubtrees, ldapDirectoryAttributes as directoryAttributes };
export type ClientSubtree = LdapClientSubtree;

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
  /**
   * People may bind through it with their KPI ID password, for systems that cannot do better (a lab's login
   * machines): only people without a console role or a second factor, only over TLS (binds.ts).
   */
  kpiPasswordAllowed: boolean;
  createdAt: Date;
}

/** A client as registered: everything but what the registration gives it (the KPI ID password off unless said). */
export type NewLdapClient = Omit<LdapClient, "id" | "createdAt" | "kpiPasswordAllowed"> & {
  kpiPasswordAllowed?: boolean;
};

const clientName = /^[a-z0-9][a-z0-9-]{0,62}$/;

function checkedClient(client: NewLdapClient): Omit<LdapClient, "id" | "createdAt"> {
  const known = new Map(ldapDirectoryAttributes.map((name) => [name.toLowerCase(), name]));
  const attributes = client.attributes.map((name) => known.get(name.trim().toLowerCase()));
  if (
    !clientName.test(client.name) ||
    client.title.trim() === "" ||
    !ldapClientSubtrees.includes(client.subtree) ||
    attributes.some((name) => name === undefined) ||
    client.addresses.some((address) => isIP(address) === 0) ||
    // The KPI ID password is allowed for binds through the client, known by where they come from: without an
    // address no bind is through it, and the choice would silently do nothing.
    (client.kpiPasswordAllowed === true && client.addresses.length === 0)
  ) {
    throw new AppError("ldap.client_invalid");
  }
  return {
    ...client,
    title: client.title.trim(),
    attributes: [...new Set(attributes as string[])],
    kpiPasswordAllowed: client.kpiPasswordAllowed ?? false,
  };
}

const asClient = (row: {
  id: string;
  name: string;
  title: string;
  application_id: string | null;
  subtree: string;
  attributes: string[];
  addresses: string[];
  kpi_password_allowed: boolean;
  created_at: Date;
}): LdapClient => ({
  id: row.id,
  name: row.name,
  title: row.title,
  applicationId: row.application_id,
  subtree: (ldapClientSubtrees as readonly string[]).includes(row.subtree) ? (row.subtree as ClientSubtree) : "people",
  attributes: row.attributes,
  addresses: row.addresses,
  kpiPasswordAllowed: row.kpi_password_allowed,
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
      kpi_password_allowed: checked.kpiPasswordAllowed,
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

/** A client by its id (an application password tied to it, the console's actions). */
export async function findLdapClient(db: Db, id: string): Promise<LdapClient | undefined> {
  const row = await db.selectFrom("ldap_clients").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? asClient(row) : undefined;
}

/** The clients a person may bind through (open to everyone, or tied to an application that lets them in). */
export async function ldapClientsFor(db: Db, userId: string): Promise<LdapClient[]> {
  const clients = await listLdapClients(db);
  const open: LdapClient[] = [];
  for (const client of clients) {
    if (client.applicationId === null || (await hasApplicationAccess(db, userId, client.applicationId))) {
      open.push(client);
    }
  }
  return open;
}

/** Removes a client: its service account stops binding and its rules leave slapd at the next sync. */
export async function removeLdapClient(db: Db, name: string): Promise<void> {
  const result = await db.deleteFrom("ldap_clients").where("name", "=", name).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError("ldap.client_not_found");
}

import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A registered LDAP client and its service account (migration 0690): only its secret's SHA-256. */
export interface LdapClientsTable {
  id: Generated<string>;
  name: string;
  title: string;
  application_id: string | null;
  subtree: ColumnType<string, string | undefined, string>;
  attributes: string[];
  addresses: ColumnType<string[], string[] | undefined, string[]>;
  secret_hash: string;
  created_at: Timestamp;
  /** People may bind through it with their KPI ID password (migration 0700; model/ldap/binds.ts says who). */
  kpi_password_allowed: ColumnType<boolean, boolean | undefined, boolean>;
}

/** A person's application password for LDAP binds (migration 0690): only its keyed hash. */
export interface LdapPasswordsTable {
  id: Generated<string>;
  user_id: string;
  client_id: string | null;
  name: string;
  secret_hash: string;
  created_at: Timestamp;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** One accepted bind with an application password (migration 0690). */
export interface LdapUsesTable {
  id: Generated<string>;
  password_id: string;
  user_id: string;
  client_id: string | null;
  used_at: Timestamp;
  peer: string | null;
}

/** A uidNumber or gidNumber, given once and never again (migration 0690). */
export interface LdapPosixNumbersTable {
  subject_kind: "person" | "unit" | "client";
  subject_id: string;
  number: Generated<number>;
}

export interface LdapTables {
  ldap_clients: LdapClientsTable;
  ldap_passwords: LdapPasswordsTable;
  ldap_uses: LdapUsesTable;
  ldap_posix_numbers: LdapPosixNumbersTable;
}

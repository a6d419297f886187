import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type TextList = ColumnType<string[], string[] | undefined, string[]>;

/** Every oidc-provider model, stored as its JSON payload (migration 0005). */
export interface OidcPayloadsTable {
  type: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
}

export interface OidcSigningKeysTable {
  kid: string;
  encrypted_jwk: string;
  created_at: Timestamp;
  /** When it signs from; null for a next key published before `keys promote`. */
  activates_at: NullableTimestamp;
  /** When it stopped signing; published for the overlap after. */
  retired_at: NullableTimestamp;
}

export interface OidcConsentsTable {
  user_id: string;
  application_id: string;
  scopes: TextList;
  expires_at: RequiredTimestamp;
}

/** OpenID Connect's own tables: oidc-provider's models, the signing keys, the consents the person gave. */
export interface OidcTables {
  oidc_payloads: OidcPayloadsTable;
  oidc_consents: OidcConsentsTable;
  oidc_signing_keys: OidcSigningKeysTable;
}

import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Passkeys (migration 0175). */
export interface WebauthnCredentialsTable {
  id: Generated<string>;
  user_id: string;
  credential_id: string;
  public_key: Buffer;
  /** bigint in PostgreSQL: the driver answers a string. */
  sign_count: ColumnType<string, number, number>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  backup_eligible: boolean;
  backed_up: boolean;
  aaguid: string;
  name: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface WebauthnChallengesTable {
  challenge: string;
  purpose: "register" | "authenticate";
  binding_hash: Buffer;
  user_id: string | null;
  expires_at: Timestamp;
}

export interface PasskeyTables {
  webauthn_credentials: WebauthnCredentialsTable;
  webauthn_challenges: WebauthnChallengesTable;
}

/**
 * Why a backup or restore is not done, as a stable code (scripts match it; docs/operations.md lists them) and a
 * one-line message saying what to do instead. The CLI prints `kpi-id: refused (code): message` and exits 1.
 */
export type BackupRefusal =
  | "backup.not_found"
  | "backup.postgres"
  | "backup.foreign_archive"
  | "backup.truncated"
  | "backup.bad_manifest"
  | "backup.newer_format"
  | "backup.extra_entry"
  | "backup.missing_entry"
  | "backup.checksum_mismatch"
  | "backup.encrypted"
  | "backup.cannot_decrypt"
  | "backup.weak_passphrase"
  | "backup.bad_recipient"
  | "backup.not_loadable"
  | "backup.target_holds_database"
  | "backup.session_secret_missing"
  | "backup.session_secret_mismatch";

export class BackupRefusedError extends Error {
  override name = "BackupRefusedError";
  readonly code: BackupRefusal;
  constructor(code: BackupRefusal, message: string) {
    super(message);
    this.code = code;
  }
}

import { armor, Decrypter, Encrypter } from "age-encryption";
import { BackupRefusedError } from "./backup-refusal.ts";

// Optional encryption of the backup file with age (age-encryption.org/v1, the maintained TypeScript
// implementation by age's author): a passphrase (scrypt) or public keys (age1... recipients). The file is
// compressed first, then encrypted, so what is on disk says nothing about its contents.

/** Who may read an encrypted backup: a passphrase, or the holders of these age identities' keys. */
export type BackupKey = { passphrase: string } | { recipients: string[] };
/** What opens an encrypted backup: its passphrase, or age identities (AGE-SECRET-KEY-1...). */
export type BackupOpener = { passphrase: string } | { identities: string[] };

const binaryHeader = Buffer.from("age-encryption.org/v1\n");
const armorHeader = "-----BEGIN AGE ENCRYPTED FILE-----";
/** Long enough that scrypt alone does not have to carry it; a backup holds every password hash. */
export const minimumPassphraseLength = 12;
/**
 * scrypt's cost for a passphrase, as the base-2 logarithm of its N: age's own default (2^18, about a second in
 * native code, seconds in JavaScript). Only tests ask for less, to prove in milliseconds what does not depend on it.
 */
export const backupScryptWorkFactor = 18;

export function isEncrypted(file: Buffer): boolean {
  return (
    file.subarray(0, binaryHeader.length).equals(binaryHeader) ||
    file.subarray(0, armorHeader.length).toString("latin1") === armorHeader
  );
}

export async function encryptBackup(
  plain: Buffer,
  key: BackupKey,
  scryptWorkFactor = backupScryptWorkFactor,
): Promise<Buffer> {
  const encrypter = new Encrypter();
  if ("passphrase" in key) {
    if (key.passphrase.length < minimumPassphraseLength) {
      throw new BackupRefusedError(
        "backup.weak_passphrase",
        `the passphrase must be at least ${minimumPassphraseLength} characters`,
      );
    }
    encrypter.setPassphrase(key.passphrase);
    encrypter.setScryptWorkFactor(scryptWorkFactor);
  } else {
    for (const recipient of key.recipients) {
      try {
        encrypter.addRecipient(recipient);
      } catch {
        throw new BackupRefusedError("backup.bad_recipient", `${recipient} is not an age recipient (age1...)`);
      }
    }
  }
  return Buffer.from(await encrypter.encrypt(plain));
}

export async function decryptBackup(file: Buffer, opener: BackupOpener | undefined): Promise<Buffer> {
  if (!opener) {
    throw new BackupRefusedError(
      "backup.encrypted",
      "the backup is encrypted: give --passphrase-stdin, --passphrase-file FILE or --identity-file FILE",
    );
  }
  const decrypter = new Decrypter();
  try {
    if ("passphrase" in opener) decrypter.addPassphrase(opener.passphrase);
    else for (const identity of opener.identities) decrypter.addIdentity(identity);
    const armored = file.subarray(0, armorHeader.length).toString("latin1") === armorHeader;
    const sealed = armored ? armor.decode(file.toString("latin1")) : new Uint8Array(file);
    return Buffer.from(await decrypter.decrypt(sealed));
  } catch {
    // age says no more than this either: a wrong key, or a file damaged after it was encrypted.
    throw new BackupRefusedError(
      "backup.cannot_decrypt",
      "the backup cannot be decrypted with what was given (wrong passphrase or identity, or a damaged file)",
    );
  }
}

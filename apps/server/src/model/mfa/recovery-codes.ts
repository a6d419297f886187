import { randomInt } from "node:crypto";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";

export const recoveryCodeCount = 10;
// No 0/O, 1/I/L: a code copied from paper is read back right.
const alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** A code as shown: two groups of five (about 49 bits), e.g. `K7M2Q-9XHT4`. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/** How a typed code is compared: case, spaces and the dash do not matter. */
export function normalizeRecoveryCode(typed: string): string {
  const plain = typed.toUpperCase().replace(/[\s-]/g, "");
  return plain.length === 10 ? `${plain.slice(0, 5)}-${plain.slice(5)}` : plain;
}

export function looksLikeRecoveryCode(typed: string): boolean {
  return /^[A-Z0-9]{5}-[A-Z0-9]{5}$/.test(normalizeRecoveryCode(typed));
}

/** Ten fresh codes replace any the person had; only their hashes are stored. Shown once. */
export async function issueRecoveryCodes(db: Db, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
    await trx
      .insertInto("recovery_codes")
      .values(codes.map((code) => ({ code_hash: hashToken(code), user_id: userId, created_at: now })))
      .execute();
  });
  return codes;
}

/** Uses a code once: of two racing uses only one succeeds. */
export async function useRecoveryCode(db: Db, userId: string, typed: string, now: Date): Promise<boolean> {
  const used = await db
    .updateTable("recovery_codes")
    .set({ used_at: now })
    .where("code_hash", "=", hashToken(normalizeRecoveryCode(typed)))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .returning("user_id")
    .executeTakeFirst();
  return used !== undefined;
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<string>().as("left"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}

/** Every recovery code of the person; answers how many there were. */
export async function removeRecoveryCodes(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("recovery_codes").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// The `webauthn_challenges` table (owner: model/passkeys): challenges handed to a browser, each taken once.
import type { Db } from "../../platform/db/schema.ts";

export type ChallengePurpose = "register" | "authenticate";

export interface NewChallenge {
  challenge: string;
  purpose: ChallengePurpose;
  /** The hash of the browser's binding cookie: only that browser may answer it. */
  bindingHash: Buffer;
  userId: string | null;
  expiresAt: Date;
}

/** Keeps a challenge, first dropping the expired ones (nothing else sweeps the table). */
export async function saveChallenge(db: Db, challenge: NewChallenge, now: Date): Promise<void> {
  await db.deleteFrom("webauthn_challenges").where("expires_at", "<=", now).execute();
  await db
    .insertInto("webauthn_challenges")
    .values({
      challenge: challenge.challenge,
      purpose: challenge.purpose,
      binding_hash: challenge.bindingHash,
      user_id: challenge.userId,
      expires_at: challenge.expiresAt,
    })
    .execute();
}

/** Takes (deletes) a challenge by its value and purpose; what it was bound to, for the caller to compare. */
export function takeSavedChallenge(db: Db, challenge: string, purpose: ChallengePurpose) {
  return db
    .deleteFrom("webauthn_challenges")
    .where("challenge", "=", challenge)
    .where("purpose", "=", purpose)
    .returning(["binding_hash", "user_id", "expires_at"])
    .executeTakeFirst();
}

/** The person's challenges not yet answered (erasure); answers how many there were. */
export async function deleteChallengesOf(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("webauthn_challenges").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

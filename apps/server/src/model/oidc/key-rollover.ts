import type { Db } from "../../platform/db/schema.ts";
import { insertKey, keyActivationDelaySeconds, keyStates } from "./keys.ts";

/**
 * The staged rollover of the OpenID Connect signing key (docs/operations.md,
 * "Rolling over the OpenID Connect signing key"): `prepare` publishes a next
 * key that does not sign, so applications that cache the JWKS fetch it in
 * their own time; `promote` makes it sign and the old key previous, published
 * for the overlap so tokens it signed still verify; `retire` takes previous
 * keys out (the servers also drop them on their own when the overlap ends).
 */

export interface RotationResult {
  kid: string;
  /** The keys that stop signing (when the new one starts); published for the overlap from now. */
  retired: string[];
}

async function loadStates(db: Db, now: Date) {
  const rows = await db
    .selectFrom("oidc_signing_keys")
    .select(["kid", "created_at", "activates_at", "retired_at"])
    .orderBy("created_at", "desc")
    .execute();
  const states = keyStates(rows, now);
  return { rows, states, inState: (state: string) => rows.filter((row) => states.get(row) === state) };
}

/** Marks the signing keys' turn as ended at `at`: the overlap they stay published for counts from there. */
async function retireSigners(db: Db, kids: string[], at: Date): Promise<void> {
  if (kids.length === 0) return;
  await db.updateTable("oidc_signing_keys").set({ retired_at: at }).where("kid", "in", kids).execute();
}

/** `keys rotate`, one step: a new key published now that signs after the activation delay; the current ones retire then. */
export async function rotateSigningKeys(db: Db, sessionSecret: string, now = new Date()): Promise<RotationResult> {
  return db.transaction().execute(async (tx) => {
    const { inState } = await loadStates(tx, now);
    const signsFrom = new Date(now.getTime() + keyActivationDelaySeconds * 1000);
    // A next key that has not signed yet is dropped: one waiting for promotion would sign after this one under the
    // "activated last" rule, and one an earlier rotation scheduled would leave two next keys (an operator's two
    // quick rotations). Neither ever signed a token, so nothing verifies against it.
    const waiting = inState("next");
    if (waiting.length > 0)
      await tx
        .deleteFrom("oidc_signing_keys")
        .where(
          "kid",
          "in",
          waiting.map((row) => row.kid),
        )
        .execute();
    const retired = inState("current").map((row) => row.kid);
    // Marked now, as 0.3.0 did: the overlap counts the activation delay in (signingKeyRetentionSeconds).
    await retireSigners(tx, retired, now);
    const kid = await insertKey(tx, sessionSecret, now, signsFrom);
    return { kid, retired };
  });
}

export type PrepareResult = { outcome: "prepared"; kid: string } | { outcome: "already"; kid: string };

/** `keys prepare`: a next key, published now, not signing; one at a time. */
export async function prepareNextKey(db: Db, sessionSecret: string, now = new Date()): Promise<PrepareResult> {
  return db.transaction().execute(async (tx) => {
    const waiting = (await loadStates(tx, now)).inState("next")[0];
    if (waiting) return { outcome: "already", kid: waiting.kid };
    return { outcome: "prepared", kid: await insertKey(tx, sessionSecret, now, null) };
  });
}

export type PromoteResult =
  | { outcome: "promoted"; kid: string; retired: string[] }
  | { outcome: "no_next" }
  /** Made less than the activation delay ago: some instance may not publish it yet. */
  | { outcome: "too_soon"; kid: string; promotableFrom: Date };

/** `keys promote`: the next key signs from now; the current one becomes previous. */
export async function promoteNextKey(db: Db, now = new Date()): Promise<PromoteResult> {
  return db.transaction().execute(async (tx) => {
    const { inState } = await loadStates(tx, now);
    const next = inState("next")[0];
    if (!next) return { outcome: "no_next" };
    const promotableFrom = new Date(next.created_at.getTime() + keyActivationDelaySeconds * 1000);
    if (promotableFrom.getTime() > now.getTime()) return { outcome: "too_soon", kid: next.kid, promotableFrom };
    const retired = inState("current").map((row) => row.kid);
    await retireSigners(tx, retired, now);
    await tx.updateTable("oidc_signing_keys").set({ activates_at: now }).where("kid", "=", next.kid).execute();
    return { outcome: "promoted", kid: next.kid, retired };
  });
}

export type RetireResult =
  | { outcome: "retired"; kids: string[] }
  | { outcome: "unknown" }
  | { outcome: "current" }
  /** Tokens it signed may still be presented until then; `force` retires it anyway. */
  | { outcome: "in_overlap"; kid: string; until: Date };

/**
 * `keys retire`: takes previous keys (or the one named) out of the JWKS. A key
 * inside its overlap needs `force` (a leaked key); the signing key never goes;
 * a next key that never signed may be discarded.
 */
export async function retireKeys(
  db: Db,
  overlapSeconds: number,
  options: { kid?: string; force?: boolean },
  now = new Date(),
): Promise<RetireResult> {
  const { rows, states } = await loadStates(db, now);
  const chosen = options.kid
    ? rows.filter((row) => row.kid === options.kid)
    : rows.filter((row) => states.get(row) === "previous");
  if (options.kid && chosen.length === 0) return { outcome: "unknown" };
  if (chosen.some((row) => states.get(row) === "current")) return { outcome: "current" };
  for (const row of chosen) {
    const stoppedAt = row.retired_at ?? row.activates_at ?? row.created_at;
    const until = new Date(stoppedAt.getTime() + overlapSeconds * 1000);
    if (states.get(row) === "previous" && until.getTime() > now.getTime() && !options.force)
      return { outcome: "in_overlap", kid: row.kid, until };
  }
  const kids = chosen.map((row) => row.kid);
  if (kids.length > 0) await db.deleteFrom("oidc_signing_keys").where("kid", "in", kids).execute();
  return { outcome: "retired", kids };
}

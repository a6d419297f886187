import { type RotationResult, rotateSigningKeys } from "../../model/oidc/key-rollover.ts";
import {
  type KeyState,
  keyActivationDelaySeconds,
  keyStates,
  loadPublishedKeys,
  signingKeyDates,
} from "../../model/oidc/keys.ts";
import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import type { Db } from "../../platform/db/schema.ts";
import { signingKeyRetentionSeconds } from "./provider.ts";

/** An OpenID Connect signing key as `keys list` and the console's signing keys screen show it. */
export interface SigningKeyStatus {
  kid: string;
  /** The JWS algorithm of a published key; null for one no longer published. */
  algorithm: string | null;
  createdAt: Date;
  /** When it signs (signed) from; null for a next key waiting for `keys promote`. */
  activatesAt: Date | null;
  retiredAt: Date | null;
  /** For a previous key: when it leaves the JWKS (the overlap's end). */
  publishedUntil: Date | null;
  published: boolean;
  /** The key that signs now (the first one published). */
  signing: boolean;
  state: KeyState;
}

/** The stored keys, newest first: which are published and which one signs (what the provider loads). */
export async function listSigningKeys(db: Db, ring: SecretRing, now = new Date()): Promise<SigningKeyStatus[]> {
  const published = await loadPublishedKeys(db, ring, signingKeyRetentionSeconds, now);
  const rows = await signingKeyDates(db);
  const states = keyStates(rows, now);
  return rows.map((row) => {
    const jwk = published.find((key) => key.kid === row.kid);
    const state = states.get(row) ?? "previous";
    return {
      kid: row.kid,
      algorithm: jwk?.alg ?? null,
      createdAt: row.created_at,
      activatesAt: row.activates_at,
      retiredAt: row.retired_at,
      publishedUntil:
        state === "previous" && row.retired_at
          ? new Date(row.retired_at.getTime() + signingKeyRetentionSeconds * 1000)
          : null,
      published: jwk !== undefined,
      signing: published[0]?.kid === row.kid,
      state,
    };
  });
}

export interface KeyRotation extends RotationResult {
  /** When the new key starts signing: running servers publish it first. */
  signsFrom: Date;
}

/** `keys rotate` and the console's rotation: a new key, signing after the activation delay; the old ones retire. */
export async function rotateOidcSigningKey(db: Db, sessionSecret: string, now = new Date()): Promise<KeyRotation> {
  const result = await rotateSigningKeys(db, sessionSecret, now);
  return { ...result, signsFrom: new Date(now.getTime() + keyActivationDelaySeconds * 1000) };
}

export { keyActivationDelaySeconds, signingKeyRetentionSeconds };

/**
 * SESSION_SECRET as a key ring (docs/operations.md, "Rotating SESSION_SECRET"): the first key signs and
 * encrypts, every key still verifies and decrypts, so a rotation signs nobody out and loses no sealed
 * secret. A function that only reads may be handed one key or the ring.
 */
export type SecretRing = string | readonly string[];

export function keysOf(ring: SecretRing): readonly string[] {
  return typeof ring === "string" ? [ring] : ring;
}

/** The key that signs and encrypts from now on. */
export function newestKey(ring: SecretRing): string {
  const [newest] = keysOf(ring);
  if (newest === undefined) throw new Error("the secret ring is empty");
  return newest;
}

/**
 * The first key `open` succeeds with, newest first, and whether it was an older one (so the value
 * should be sealed again under the newest before that key is removed: `npx kpi-id secrets reseal`).
 */
export function openWithRing<T>(
  ring: SecretRing,
  open: (key: string) => T | undefined,
): { value: T; olderKey: boolean } | undefined {
  const keys = keysOf(ring);
  for (const [index, key] of keys.entries()) {
    const value = open(key);
    if (value !== undefined) return { value, olderKey: index > 0 };
  }
  return undefined;
}

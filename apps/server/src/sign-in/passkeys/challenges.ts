import type { FastifyReply, FastifyRequest } from "fastify";
import { type ChallengePurpose, saveChallenge, takeSavedChallenge } from "../../model/passkeys/challenges.ts";
import { sameBytes } from "../../platform/crypto/tokens.ts";
import { browserBinding } from "../../platform/http/browser-binding.ts";

export type { ChallengePurpose };

/**
 * Long enough to pick a passkey from the browser's autofill after the page has sat open a while,
 * short enough that a forgotten one is gone soon. The browser is asked to give up sooner (options' timeout).
 */
export const CHALLENGE_TTL_SECONDS = 300;

const binding = browserBinding("kpi_id_passkey", CHALLENGE_TTL_SECONDS);

/**
 * Keeps a fresh challenge for this browser (its binding cookie) and, for a registration, the person.
 * Several may wait at once (two tabs, the autofill request and the button): each is found by its value.
 */
export async function storeChallenge(
  request: FastifyRequest,
  reply: FastifyReply,
  challenge: string,
  purpose: ChallengePurpose,
  userId: string | null,
): Promise<void> {
  const { db, clock } = request.server;
  const now = clock();
  await saveChallenge(
    db,
    {
      challenge,
      purpose,
      bindingHash: binding.bind(request, reply),
      userId,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_SECONDS * 1000),
    },
    now,
  );
}

/**
 * Takes (deletes) the challenge the browser's answer names, if this browser was handed it for this
 * purpose (and person) and it has not expired. Used once: a replayed answer finds nothing.
 */
export async function takeChallenge(
  request: FastifyRequest,
  challenge: string,
  purpose: ChallengePurpose,
  userId: string | null,
): Promise<boolean> {
  const presented = binding.presented(request);
  if (!presented || challenge.length > 256) return false;
  const { db, clock } = request.server;
  const row = await takeSavedChallenge(db, challenge, purpose);
  if (!row || row.expires_at <= clock()) return false;
  return sameBytes(row.binding_hash, presented) && row.user_id === userId;
}

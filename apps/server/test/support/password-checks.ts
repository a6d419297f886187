import type { FastifyInstance } from "fastify";
import { vi } from "vitest";

/**
 * Every password check of `app` answers "wrong" without argon2id (for tests of what happens around hundreds of
 * wrong guesses); the checks still take their turn in the instance's line, as a sign-in does. Answers the undo.
 */
export function failPasswordChecksFast(app: FastifyInstance): () => void {
  const hasher = app.passwordHasher;
  const inTurn = hasher.inTurn;
  const spied = vi
    .spyOn(hasher, "inTurn")
    .mockImplementation((work, abandoned) => inTurn(() => work({ verify: async () => false }), abandoned));
  return () => spied.mockRestore();
}

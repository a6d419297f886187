import type { FastifyInstance } from "fastify";
import { generate } from "otplib";
import { checkTotpCode, startTotpSetup } from "../../src/model/mfa/totp.ts";

/**
 * The person sets up an authenticator app (as the account page does) at `now`; answers a
 * generator of their codes for any moment, as their phone would show them.
 */
export async function addAuthenticator(app: FastifyInstance, person: { id: string; username: string }, now: Date) {
  const secret = app.config.sessionSecret;
  const setup = await startTotpSetup(app.db, secret, person, now);
  const codeAt = (when: Date) => generate({ secret: setup.secret, epoch: Math.floor(when.getTime() / 1000) });
  if (!(await checkTotpCode(app.db, secret, person.id, await codeAt(now), now, true))) {
    throw new Error("the authenticator's first code was refused");
  }
  return codeAt;
}

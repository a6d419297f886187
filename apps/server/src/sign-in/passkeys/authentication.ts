import type { ErrorCode, PasskeyOptions, PasskeySignInRequest } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { findPasskeyByCredentialId, recordPasskeyUse, type StoredPasskey } from "../../model/passkeys/credentials.ts";
import { passkeyStrength } from "../../model/sessions/strength.ts";
import { findUserById } from "../../model/users/queries.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { confirmFailure, settleSuccess } from "../../platform/throttle/throttle.ts";
import { takeCredentialAttempt } from "../grants/credential-attempt.ts";
import { type CompletedSignIn, completeSignIn } from "../session/complete-sign-in.ts";
import { storeChallenge, takeChallenge } from "./challenges.ts";
import { CEREMONY_TIMEOUT_MS, loadWebAuthn, relyingParty, userHandleOf } from "./relying-party.ts";

/**
 * Options for `navigator.credentials.get()` with no allowed credentials: the browser offers the
 * person's discoverable passkeys for KPI ID (the button, or the username field's autofill).
 */
export async function authenticationOptions(request: FastifyRequest, reply: FastifyReply): Promise<PasskeyOptions> {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(request.server.config).id,
    userVerification: "required",
    timeout: CEREMONY_TIMEOUT_MS,
  });
  await storeChallenge(request, reply, options.challenge, "authenticate", null);
  return { options: { ...options } };
}

/**
 * The sign count must grow at every use once either side is above zero (authenticators without a
 * counter always say 0). A count that does not grow means a second copy of the key exists.
 */
function counterRegressed(passkey: StoredPasskey, newCount: number): boolean {
  const stored = Number(passkey.sign_count);
  return (newCount > 0 || stored > 0) && newCount <= stored;
}

/**
 * A passkey sign-in: an unknown credential, a disabled owner's and a failed signature all answer 401
 * `passkey.failed` (the audit row tells them apart); a cloned authenticator (its counter did not grow)
 * 401 `passkey.counter_regressed`; a challenge this browser was not given, or given and used, 401
 * `passkey.challenge_invalid`. Every refusal counts against the owner's and the address's sign-in
 * throttle, like a wrong password. A good one is multi-factor and phishing-resistant (the key is bound
 * to KPI ID's origin and unlocked by the person) and completes like every other sign-in.
 */
export async function signInWithPasskey(
  request: FastifyRequest,
  reply: FastifyReply,
  { response }: PasskeySignInRequest,
): Promise<CompletedSignIn> {
  const { db, config, clock } = request.server;
  const passkey = await findPasskeyByCredentialId(db, response.id);
  const owner = passkey ? await findUserById(db, passkey.user_id) : undefined;
  const keys = await takeCredentialAttempt(request, owner?.username ?? `passkey:${response.id}`, {
    type: "sign_in",
    authMethod: "PASSKEY",
    userId: owner?.id,
  });
  const refuse = async (code: ErrorCode, reason: string): Promise<never> => {
    await confirmFailure(db, keys, clock());
    await audit(request, { type: "sign_in", result: "failure", authMethod: "PASSKEY", userId: owner?.id, reason });
    throw new AppError(code, { reason });
  };

  if (!passkey || !owner) return refuse("passkey.failed", "passkey.unknown");
  if (owner.status !== "active") return refuse("passkey.failed", "user.disabled");
  const { userHandle } = response.response;
  if (userHandle !== undefined && userHandle !== userHandleOf(owner.id)) {
    return refuse("passkey.failed", "passkey.user_handle_mismatch");
  }
  const rp = relyingParty(config);
  let challengeTaken: boolean | undefined;
  const { verifyAuthenticationResponse } = await loadWebAuthn();
  const verification = await verifyAuthenticationResponse({
    response: { ...response, clientExtensionResults: {} },
    expectedChallenge: async (challenge) => {
      challengeTaken = await takeChallenge(request, challenge, "authenticate", null);
      return challengeTaken;
    },
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
    // The counter is judged below, after the signature, so a regression has its own answer.
    credential: {
      id: passkey.credential_id,
      publicKey: new Uint8Array(passkey.public_key),
      counter: 0,
      transports: passkey.transports,
    },
  }).catch(() => undefined);
  if (!verification?.verified) {
    if (challengeTaken === false) return refuse("passkey.challenge_invalid", "passkey.challenge_invalid");
    return refuse("passkey.failed", "passkey.signature_invalid");
  }
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  const use = { signCount: newCounter, backedUp: credentialBackedUp };
  if (counterRegressed(passkey, newCounter) || !(await recordPasskeyUse(db, passkey, use, clock()))) {
    return refuse("passkey.counter_regressed", "passkey.counter_regressed");
  }
  await settleSuccess(db, keys);
  await audit(request, { type: "sign_in", result: "success", authMethod: "PASSKEY", userId: owner.id });
  // A key that may be synced to other devices is software-held (swk); a device-bound one hardware (hwk).
  return completeSignIn(request, reply, {
    userId: owner.id,
    method: "PASSKEY",
    strength: passkeyStrength(!passkey.backup_eligible),
  });
}

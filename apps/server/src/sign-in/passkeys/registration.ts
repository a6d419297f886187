import type { Passkey, PasskeyOptions, PasskeyRegistrationRequest } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { authenticatorName } from "../../model/passkeys/authenticator-names.ts";
import { addPasskey, credentialIdsOf } from "../../model/passkeys/credentials.ts";
import { requireRecentSignInWithSecondFactor } from "../../model/sessions/recent-sign-in.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { notifySignInMethodChanged } from "../../platform/http/notify.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";
import { storeChallenge, takeChallenge } from "./challenges.ts";
import { CEREMONY_TIMEOUT_MS, loadWebAuthn, relyingParty, userHandleBytes } from "./relying-party.ts";

/**
 * Options for `navigator.credentials.create()`: a discoverable credential (the sign-in button needs
 * no username), user verification required, attestation `none` (KPI ID trusts no vendor list; the
 * AAGUID only names the authenticator). The person's passkeys are excluded, so one authenticator is
 * not added twice. Like every sensitive account change, it needs a recent sign-in.
 */
export async function registrationOptions(
  request: FastifyRequest,
  reply: FastifyReply,
  session: LoadedSession,
): Promise<PasskeyOptions> {
  await requireRecentSignInWithSecondFactor(session, reauthWindow(request));
  const rp = relyingParty(request.server.config);
  const { generateRegistrationOptions } = await loadWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandleBytes(session.userId),
    userName: session.user.username,
    userDisplayName: session.user.full_name,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: await credentialIdsOf(request.server.db, session.userId),
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
  });
  await storeChallenge(request, reply, options.challenge, "register", session.userId);
  return { options: { ...options } };
}

/** Checks the browser's answer against a challenge this browser was given for this person, then stores the passkey. */
export async function registerPasskey(
  request: FastifyRequest,
  session: LoadedSession,
  body: PasskeyRegistrationRequest,
): Promise<Passkey> {
  await requireRecentSignInWithSecondFactor(session, reauthWindow(request));
  const { db, config, clock } = request.server;
  const rp = relyingParty(config);
  // undefined: the answer was refused before its challenge was looked at.
  let challengeTaken: boolean | undefined;
  const { verifyRegistrationResponse } = await loadWebAuthn();
  const verification = await verifyRegistrationResponse({
    response: { ...body.response, clientExtensionResults: {} },
    expectedChallenge: async (challenge) => {
      challengeTaken = await takeChallenge(request, challenge, "register", session.userId);
      return challengeTaken;
    },
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!verification?.verified) {
    const code = challengeTaken === false ? "passkey.challenge_invalid" : "passkey.failed";
    await audit(request, { type: "second_factor_changed", result: "failure", userId: session.userId, reason: code });
    throw new AppError(code);
  }
  const { credential, aaguid, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const now = clock();
  const id = await addPasskey(
    db,
    {
      userId: session.userId,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      signCount: credential.counter,
      transports: credential.transports ?? [],
      backupEligible: credentialDeviceType === "multiDevice",
      backedUp: credentialBackedUp,
      aaguid,
      name: body.name,
    },
    now,
  );
  if (!id) throw new AppError("passkey.already_registered");
  await audit(request, {
    type: "second_factor_changed",
    result: "success",
    userId: session.userId,
    reason: "passkey_added",
    details: { passkey: id, aaguid },
  });
  notifySignInMethodChanged(request, session.user, "PASSKEY", "added");
  return {
    id,
    name: body.name,
    authenticator: authenticatorName(aaguid),
    synced: credentialBackedUp,
    createdAt: now.toISOString(),
    lastUsedAt: null,
  };
}

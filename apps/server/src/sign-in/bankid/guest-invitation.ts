import type { GuestStateAcceptRequest, Language } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { consumeInvitationWithState, openInvitation } from "../../model/guests/invitations.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import type { BankIdClient } from "./client.ts";
import type { BankPerson } from "./person-data.ts";
import { newState, type PendingBankIdSignIn, setPendingBankId } from "./state.ts";

/**
 * A guest accepts their invitation with BankID (docs/visitors.md): the link must still be good; its token and
 * the address typed ride in this browser's signed pending cookie to the bank and back, and are checked (and
 * used up) only when the bank has answered. Answers NBU's authorize URL.
 */
export async function beginGuestBankId(
  runtime: { client: BankIdClient; publicUrl: string },
  request: FastifyRequest,
  reply: FastifyReply,
  body: GuestStateAcceptRequest & { language: Language },
): Promise<URL> {
  await openInvitation(request.server.db, body.token, request.server.clock());
  const state = newState(body.language);
  setPendingBankId(reply, {
    state,
    purpose: "guest",
    language: body.language,
    guestToken: body.token,
    guestEmail: body.email,
  });
  return runtime.client.authorizeUrl({ state, redirectUri: `${runtime.publicUrl}/bankid-auth` });
}

/**
 * The bank has vouched for the person: the invitation is used up for its address, and the guest takes the
 * state's name and tax id (identity-proofed; BankID and Diia find them next time). Their session is BankID's,
 * two factors (docs/architecture.md), so they need no password. Answers the guest's id.
 */
export async function acceptInvitationWithBankId(
  request: FastifyRequest,
  pending: PendingBankIdSignIn,
  person: BankPerson,
): Promise<string> {
  const { db, clock } = request.server;
  if (!pending.guestToken || !pending.guestEmail) throw new AppError("guest.invitation_invalid");
  if (!person.taxId) throw new AppError("bankid.failed", { reason: "bankid.not_identified" });
  const identity = { taxId: person.taxId, fullName: person.fullName };
  const outcome = await consumeInvitationWithState(db, pending.guestToken, pending.guestEmail, identity, clock());
  if (outcome === "identity_linked") throw new AppError("bankid.failed", { reason: "guest.identity_linked" });
  await audit(request, { type: "guest_accepted", result: "success", authMethod: "BANK_ID", userId: outcome });
  return outcome;
}

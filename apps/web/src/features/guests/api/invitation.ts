import { guestAcceptedSchema, guestInvitationViewSchema, guestStateAcceptStartedSchema } from "@kpi-id/contracts";
import { apiJson } from "@/lib/api-client.ts";

export const readInvitation = (token: string) =>
  apiJson(
    "/api/guests/invitation",
    { method: "POST", body: { token }, failure: "Failed to read the invitation" },
    guestInvitationViewSchema,
  );

export const acceptInvitation = (token: string, email: string, password: string) =>
  apiJson(
    "/api/guests/accept",
    { method: "POST", body: { token, email, password }, failure: "Failed to accept the invitation" },
    guestAcceptedSchema,
  );

/** Starts accepting with BankID: answers the bank's address for the browser to open. */
export const acceptInvitationWithBankId = (token: string, email: string) =>
  apiJson(
    "/api/guests/accept/bankid",
    { method: "POST", body: { token, email }, failure: "Failed to start BankID" },
    guestStateAcceptStartedSchema,
  );

import { type GuestInvitationRequest, guestSchema, sponsorGuestsSchema } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";
import { accountQueryKey } from "./account-queries.ts";

/** The sponsor's card: whether they may invite, their guests, what they may name. */
export function useSponsorGuests() {
  return useQuery({
    queryKey: [...accountQueryKey, "guests"],
    queryFn: () => apiJson("/api/account/guests", { failure: "Failed to load guests" }, sponsorGuestsSchema),
  });
}

export const inviteGuest = (request: GuestInvitationRequest) =>
  apiJson("/api/account/guests", { method: "POST", body: request, failure: "Failed to invite a guest" }, guestSchema);

/** One click: to the furthest end allowed today. */
export const extendGuest = (id: string) =>
  apiJson(
    `/api/account/guests/${encodeURIComponent(id)}/extend`,
    { method: "POST", body: {}, failure: "Failed to extend a guest" },
    guestSchema,
  );

export const endGuest = (id: string) =>
  apiJson(
    `/api/account/guests/${encodeURIComponent(id)}/end`,
    { method: "POST", body: {}, failure: "Failed to end a guest" },
    guestSchema,
  );

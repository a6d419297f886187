import type { GuestInvitationRequest } from "@kpi-id/contracts";
import { Users } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { useAccountChange } from "../api/account-changes.ts";
import { endGuest, extendGuest, inviteGuest, useSponsorGuests } from "../api/guests.ts";
import { AccountList, AccountSection } from "./account-section.tsx";
import { GuestInviteForm } from "./guest-invite-form.tsx";
import { GuestRow } from "./guest-row.tsx";
import type { AskAgain } from "./use-reauth.tsx";

/** Sponsored guests (docs/visitors.md): staff invite, extend and end; shown to others only when they have guests. */
export function GuestsSection({ askAgain }: { askAgain: AskAgain }) {
  const { t } = useTranslation("account");
  const card = useSponsorGuests();
  // A new form after each invitation sent: the next guest starts from empty fields.
  const [formKey, setFormKey] = useState(0);
  const invite = useAccountChange(async (request: GuestInvitationRequest) => {
    await inviteGuest(request);
    setFormKey((key) => key + 1);
  }, askAgain);
  const extend = useAccountChange(extendGuest, askAgain);
  const end = useAccountChange(endGuest, askAgain);
  if (card.data && !card.data.mayInvite && card.data.guests.length === 0) return null;
  const busy = extend.isPending || end.isPending;
  return (
    <AccountSection
      id="guests"
      icon={Users}
      title={t("account:guests.title")}
      description={t("account:guests.description")}
    >
      {!card.data ? (
        <Skeleton className="h-16 w-full" />
      ) : (
        <>
          {card.data.guests.length > 0 ? (
            <AccountList label={t("account:guests.title")}>
              {card.data.guests.map((guest) => (
                <GuestRow
                  key={guest.id}
                  guest={guest}
                  busy={busy}
                  onExtend={() => extend.mutate(guest.id)}
                  onEnd={() => end.mutate(guest.id)}
                />
              ))}
            </AccountList>
          ) : (
            <p className="text-sm text-muted-foreground" data-testid="guests-none">
              {t("account:guests.none", { limit: card.data.limit })}
            </p>
          )}
          {card.data.mayInvite ? (
            <GuestInviteForm
              key={formKey}
              card={card.data}
              onInvite={(request) => invite.mutate(request)}
              pending={invite.isPending}
            />
          ) : null}
        </>
      )}
    </AccountSection>
  );
}

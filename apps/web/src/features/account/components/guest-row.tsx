import type { Guest } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Badge } from "./account-section.tsx";

const stateTone = { invited: "neutral", active: "good", ended: "bad" } as const;

/** One guest on the sponsor's card: who, until when, where; extend in one click or end now. */
export function GuestRow({
  guest,
  onExtend,
  onEnd,
  busy,
}: {
  guest: Guest;
  onExtend: () => void;
  onEnd: () => void;
  busy: boolean;
}) {
  const { t, i18n } = useTranslation("account");
  const until = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "Europe/Kyiv" }).format(
    new Date(new Date(guest.endsAt).getTime() - 1000),
  );
  const where = [...guest.units, ...guest.applications].map((each) => each.name).join(", ");
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="guest-row">
      <div className="min-w-0">
        <p className="font-medium break-words">
          {guest.fullName} <Badge tone={stateTone[guest.state]}>{t(`account:guests.state.${guest.state}`)}</Badge>
        </p>
        <p className="text-sm text-muted-foreground break-words">
          {guest.email} · {t("account:guests.until", { date: until })}
          {where ? ` · ${where}` : ""}
        </p>
      </div>
      {guest.state === "ended" ? null : (
        <div className="flex shrink-0 gap-2">
          <Button variant="outline" size="sm" onClick={onExtend} disabled={busy}>
            {t("account:guests.extend")}
          </Button>
          <ConfirmButton
            variant="outline"
            size="sm"
            disabled={busy}
            onConfirm={onEnd}
            question={t("account:guests.endQuestion", { name: guest.fullName })}
            consequence={t("account:guests.endConsequence")}
            confirmLabel={t("account:guests.endConfirm")}
          >
            {t("account:guests.end")}
          </ConfirmButton>
        </div>
      )}
    </li>
  );
}

import type { AdminGuest } from "@kpi-id/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { useAdminGuests } from "../api/guests-api.ts";

function GuestLine({ guest }: { guest: AdminGuest }) {
  const { t, i18n } = useTranslation("admin-records");
  const until = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "Europe/Kyiv" }).format(
    new Date(new Date(guest.endsAt).getTime() - 1000),
  );
  const sponsor = guest.sponsor
    ? `${guest.sponsor.name} (${guest.sponsor.username})`
    : t("admin-records:guests.operators");
  return (
    <li className="flex flex-col gap-0.5 py-3" data-testid="admin-guest">
      <p className="font-medium break-words">
        {guest.fullName} · <span className="font-mono text-sm">{guest.username}</span>
      </p>
      <p className="text-sm text-muted-foreground break-words">
        {t(`admin-records:guests.state.${guest.state}`)} · {t("admin-records:guests.until", { date: until })} ·{" "}
        {t("admin-records:guests.sponsor", { sponsor })}
      </p>
      <p className="text-sm text-muted-foreground break-words">
        {[...guest.units, ...guest.applications].map((each) => each.name).join(", ") || "—"} · {guest.reason}
      </p>
    </li>
  );
}

/** The console's guests, by sponsor and unit (docs/visitors.md). */
export function GuestsScreen() {
  const { t } = useTranslation("admin-records");
  const [sponsor, setSponsor] = useState("");
  const guests = useAdminGuests({ sponsor: sponsor.trim() || undefined });
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">{t("admin-records:guests.title")}</h1>
      <div className="flex max-w-sm flex-col gap-1.5">
        <Label htmlFor="guests-sponsor">{t("admin-records:guests.bySponsor")}</Label>
        <Input id="guests-sponsor" value={sponsor} onChange={(event) => setSponsor(event.target.value)} />
      </div>
      {!guests.data ? (
        <Skeleton className="h-24 w-full" />
      ) : guests.data.guests.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("admin-records:guests.none")}</p>
      ) : (
        <ul className="divide-y divide-border" aria-label={t("admin-records:guests.title")}>
          {guests.data.guests.map((guest) => (
            <GuestLine key={guest.id} guest={guest} />
          ))}
        </ul>
      )}
    </section>
  );
}

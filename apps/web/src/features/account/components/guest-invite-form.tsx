import type { GuestInvitationRequest, SponsorGuests } from "@kpi-id/contracts";
import { UserPlus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { useLanguage } from "@/lib/use-language.ts";

type Choice = SponsorGuests["units"][number];

function Choices({
  legend,
  choices,
  chosen,
  onChange,
}: {
  legend: string;
  choices: Choice[];
  chosen: string[];
  onChange: (ids: string[]) => void;
}) {
  if (choices.length === 0) return null;
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {choices.map((choice) => (
        <label key={choice.id} className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-1"
            checked={chosen.includes(choice.id)}
            onChange={(event) =>
              onChange(event.target.checked ? [...chosen, choice.id] : chosen.filter((id) => id !== choice.id))
            }
          />
          <span className="break-words">{choice.name}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** Inviting a guest: name, address, last day (never past the maximum), units or applications, why, mail language. */
export function GuestInviteForm({
  card,
  onInvite,
  pending,
}: {
  card: SponsorGuests;
  onInvite: (request: GuestInvitationRequest) => void;
  pending: boolean;
}) {
  const { t } = useTranslation("account");
  const language = useLanguage();
  const [fullName, setFullName] = useState("");
  const [email, setEmail] = useState("");
  const [endsOn, setEndsOn] = useState("");
  const [reason, setReason] = useState("");
  const [unitIds, setUnitIds] = useState<string[]>([]);
  const [applicationIds, setApplicationIds] = useState<string[]>([]);
  const [mailLanguage, setMailLanguage] = useState(language);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onInvite({ fullName, email, endsOn, reason, unitIds, applicationIds, language: mailLanguage });
  };
  const field = (id: string, label: string, input: React.ReactNode) => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {input}
    </div>
  );
  return (
    <form className="flex flex-col gap-3 border-t border-border pt-4" onSubmit={submit} data-testid="guest-invite-form">
      <h3 className="font-medium">{t("account:guests.inviteTitle")}</h3>
      {field(
        "guest-name",
        t("account:guests.name"),
        <Input id="guest-name" value={fullName} onChange={(e) => setFullName(e.target.value)} required />,
      )}
      {field(
        "guest-email-new",
        t("account:guests.email"),
        <Input id="guest-email-new" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />,
      )}
      {field(
        "guest-ends",
        t("account:guests.endsOn", { latest: card.latestEndOn }),
        <Input
          id="guest-ends"
          type="date"
          max={card.latestEndOn}
          value={endsOn}
          onChange={(e) => setEndsOn(e.target.value)}
          required
        />,
      )}
      <Choices legend={t("account:guests.units")} choices={card.units} chosen={unitIds} onChange={setUnitIds} />
      <Choices
        legend={t("account:guests.applications")}
        choices={card.applications}
        chosen={applicationIds}
        onChange={setApplicationIds}
      />
      {field(
        "guest-reason",
        t("account:guests.reason"),
        <Textarea
          id="guest-reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={500}
          required
        />,
      )}
      {field(
        "guest-language",
        t("account:guests.mailLanguage"),
        <select
          id="guest-language"
          className="h-10 rounded-md border border-input bg-white px-3 text-sm"
          value={mailLanguage}
          onChange={(e) => setMailLanguage(e.target.value === "en" ? "en" : "uk")}
        >
          <option value="uk">Українська</option>
          <option value="en">English</option>
        </select>,
      )}
      <Button
        type="submit"
        loading={pending}
        disabled={!fullName.trim() || !email.trim() || !endsOn || !reason.trim()}
        icon={<UserPlus aria-hidden />}
      >
        {t("account:guests.invite")}
      </Button>
    </form>
  );
}

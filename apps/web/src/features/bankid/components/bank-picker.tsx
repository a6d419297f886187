import type { BankIdPurpose, BankSummary } from "@kpi-id/contracts";
import { RotateCw } from "lucide-react";
import { type FormEvent, useId } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { LiveStatus } from "@/components/ui/live-status.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { browser } from "@/lib/browser.ts";
import { bankIdRedirectHref, useBanks } from "../api/bankid-auth.ts";
import { BankLogo } from "./bank-logo.tsx";

function BankOption({ bank, name, first }: { bank: BankSummary; name: string; first: boolean }) {
  return (
    <li>
      <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border border-border bg-white px-3 py-2 transition-colors hover:bg-muted has-[:checked]:border-primary has-[:checked]:bg-primary/5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring">
        <input
          type="radio"
          name={name}
          value={bank.id}
          required={first}
          className="size-4 shrink-0 accent-primary focus-visible:outline-none"
          data-testid="bank-option"
        />
        <BankLogo name={bank.name} url={bank.logoUrl} />
        <span className="min-w-0 flex-1 font-medium text-foreground">{bank.name}</span>
      </label>
    </li>
  );
}

interface BankPickerProps {
  id: string;
  /** The current page's query: the application's sign-in link goes along. */
  search: string;
  purpose: BankIdPurpose;
  onStart: () => void;
}

/**
 * The university's own bank picker: the banks BankID reports as workable, as radio buttons (arrow keys
 * move between them, Enter continues), then a full-page navigation to the redirect with `bank=`, so the
 * server can set its cookie. Not a form submission: the page's CSP (form-action 'self') would stop the
 * server's redirect to BankID.
 */
/** When the list is the server's kept copy (NBU's node does not answer), from when it is, in the page's language. */
function StaleNote({ listedAt }: { listedAt: string }) {
  const { t, i18n } = useTranslation("auth");
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(listedAt),
  );
  return (
    <p className="text-sm text-muted-foreground" data-testid="bank-picker-stale">
      {t("auth:bankid.picker.stale", { time })}
    </p>
  );
}

export function BankPicker({ id, search, purpose, onStart }: BankPickerProps) {
  const { t } = useTranslation("auth");
  const banks = useBanks(true);
  const legendId = useId();
  const continueToBank = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const bank = new FormData(event.currentTarget).get("bank");
    if (typeof bank !== "string") return;
    onStart();
    browser.assign(bankIdRedirectHref(search, purpose, bank));
  };
  return (
    <section id={id} aria-labelledby={legendId} className="space-y-3" data-testid="bank-picker">
      <h2 id={legendId} className="text-base font-semibold text-foreground">
        {t("auth:bankid.picker.title")}
      </h2>
      {banks.isPending ? (
        // The picker opens with its list loading, so this status is new with it: its words go in after (LiveStatus).
        <LiveStatus words={t("auth:bankid.picker.loading")} className="space-y-2">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </LiveStatus>
      ) : null}
      {banks.isError ? (
        <div className="space-y-3">
          <Alert variant="destructive" title={t("auth:bankid.picker.failed")} testId="bank-picker-error">
            {t("auth:bankid.picker.failedHelp")}
          </Alert>
          <Button variant="outline" icon={<RotateCw aria-hidden />} onClick={() => banks.refetch()}>
            {t("auth:bankid.picker.retry")}
          </Button>
        </div>
      ) : null}
      {banks.data && banks.data.banks.length === 0 ? (
        <Alert variant="destructive" title={t("auth:bankid.picker.none")} testId="bank-picker-empty">
          {t("auth:bankid.picker.noneHelp")}
        </Alert>
      ) : null}
      {banks.data && banks.data.banks.length > 0 ? (
        <form onSubmit={continueToBank} className="space-y-3">
          {banks.data.stale && banks.data.listedAt ? <StaleNote listedAt={banks.data.listedAt} /> : null}
          <fieldset aria-labelledby={legendId}>
            <ul className="flex max-h-80 flex-col gap-2 overflow-y-auto p-0.5">
              {banks.data.banks.map((bank, index) => (
                <BankOption key={bank.id} bank={bank} name="bank" first={index === 0} />
              ))}
            </ul>
          </fieldset>
          <Button type="submit" size="lg" className="w-full" data-testid="bank-picker-continue">
            {t("auth:bankid.picker.continue")}
          </Button>
        </form>
      ) : null}
    </section>
  );
}

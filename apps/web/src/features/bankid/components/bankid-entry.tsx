import type { BankIdPurpose } from "@kpi-id/contracts";
import { ChevronDown } from "lucide-react";
import { useId, useState } from "react";
import { FullPageLink } from "@/components/full-page-link.tsx";
import { buttonVariants } from "@/components/ui/button.tsx";
import { cn } from "@/lib/utils.ts";
import { bankIdRedirectHref } from "../api/bankid-auth.ts";
import { BankPicker } from "./bank-picker.tsx";
import { BankIdMark } from "./bankid-mark.tsx";

interface BankIdEntryProps {
  label: string;
  /** The current page's query: the application's sign-in link goes along, as on the Google redirect. */
  search: string;
  /** The university shows its own bank picker before BankID (PublicSettings.bankIdBankPicker). */
  bankPicker: boolean;
  purpose?: BankIdPurpose;
  /** Another sign-in runs: the button stays in place but does nothing. */
  disabled?: boolean;
  onStart?: () => void;
}

/**
 * "Sign in with BankID": a full-page navigation to the server, which starts BankID's flow and sets its own
 * cookie. With the university's picker, the button opens the list of banks first.
 */
export function BankIdEntry({
  label,
  search,
  bankPicker,
  purpose = "signin",
  disabled = false,
  onStart = () => undefined,
}: BankIdEntryProps) {
  const [open, setOpen] = useState(false);
  const pickerId = useId();
  if (bankPicker) {
    return (
      <div className="space-y-3">
        <button
          type="button"
          className={buttonVariants({ variant: "outline", size: "lg", className: "w-full" })}
          disabled={disabled}
          aria-expanded={open}
          aria-controls={open ? pickerId : undefined}
          onClick={() => setOpen((was) => !was)}
          data-testid="bankid-login"
        >
          <BankIdMark />
          {label}
          <ChevronDown aria-hidden className={cn("transition-transform", open && "rotate-180")} />
        </button>
        {open ? <BankPicker id={pickerId} search={search} purpose={purpose} onStart={onStart} /> : null}
      </div>
    );
  }
  return (
    <FullPageLink
      href={bankIdRedirectHref(search, purpose)}
      disabled={disabled}
      onStart={onStart}
      testId="bankid-login"
    >
      <BankIdMark />
      {label}
    </FullPageLink>
  );
}

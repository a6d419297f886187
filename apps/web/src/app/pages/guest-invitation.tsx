import { BANKID_ERROR_PARAM, isBankIdErrorReason } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { ContentPage } from "@/components/content-page.tsx";
import { Alert } from "@/components/ui/alert.tsx";
import { AcceptInvitationForm } from "@/features/guests/components/accept-invitation-form.tsx";
import { useFragmentToken } from "@/lib/use-fragment-token.ts";
import { useReasonParam } from "@/lib/use-reason-param.ts";

/** Where a guest's invitation mail lands: accept it and set up the account. */
export function GuestInvitationRoute() {
  const { t } = useTranslation(["account", "auth"]);
  const token = useFragmentToken();
  // A BankID acceptance that failed comes back here without the link's token (it stays in the mail): say why.
  const [bankIdError] = useReasonParam(BANKID_ERROR_PARAM, isBankIdErrorReason, "failed");
  return (
    <ContentPage title={t("account:guestInvitation.title")} width="narrow">
      {bankIdError ? (
        <Alert variant="destructive" title={t("account:guestInvitation.bankIdRefused")} testId="guest-bankid-refused">
          {t(`auth:login.bankIdError.refused.${bankIdError}.title`)}
        </Alert>
      ) : (
        <AcceptInvitationForm key={token} token={token} />
      )}
    </ContentPage>
  );
}

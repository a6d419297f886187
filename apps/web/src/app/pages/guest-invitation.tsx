import { useTranslation } from "react-i18next";
import { ContentPage } from "@/components/content-page.tsx";
import { AcceptInvitationForm } from "@/features/guests/components/accept-invitation-form.tsx";
import { useFragmentToken } from "@/lib/use-fragment-token.ts";

/** Where a guest's invitation mail lands: accept it and set up the account. */
export function GuestInvitationRoute() {
  const { t } = useTranslation("account");
  const token = useFragmentToken();
  return (
    <ContentPage title={t("account:guestInvitation.title")} width="narrow">
      <AcceptInvitationForm key={token} token={token} />
    </ContentPage>
  );
}

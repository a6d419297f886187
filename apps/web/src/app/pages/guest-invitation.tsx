import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { ContentPage } from "@/components/content-page.tsx";
import { AcceptInvitationForm } from "@/features/guests/components/accept-invitation-form.tsx";

/** The token travels in the fragment (`#token=…`): it reaches no server log and no Referer. */
function tokenOf(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? "";
}

/** Where a guest's invitation mail lands: accept it and set up the account. */
export function GuestInvitationRoute() {
  const { t } = useTranslation("account");
  const { hash, pathname } = useLocation();
  const navigate = useNavigate();
  const [token, setToken] = useState(() => tokenOf(hash));
  useEffect(() => {
    const fromLink = tokenOf(hash);
    if (fromLink === "") return;
    // The token then leaves the address bar, the history and any screenshot of it.
    setToken(fromLink);
    navigate({ pathname, hash: "" }, { replace: true });
  }, [hash, pathname, navigate]);
  return (
    <ContentPage title={t("account:guestInvitation.title")} width="narrow">
      <AcceptInvitationForm key={token} token={token} />
    </ContentPage>
  );
}

import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { clearPendingInteraction, interactionUrl, rememberInteraction } from "../pending-interaction.ts";

/** Keeps ?oidc= of the sign-in screen for after a sign-in that leaves the page (Google, Diia). */
export function useRememberInteraction(search: string): void {
  useEffect(() => rememberInteraction(search), [search]);
}

/** Someone is signed in and an application's sign-in waits: go back to it. */
export function ResumeInteraction({ uid }: { uid: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    clearPendingInteraction();
    window.location.assign(interactionUrl(uid));
  }, [uid]);
  return <PageSpinner label={t("common:loading")} />;
}

import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { ContentPage } from "@/components/content-page.tsx";
import { useFinishSignIn } from "@/features/auth/api/use-finish-sign-in.ts";
import { DiiaLogin } from "@/features/diia/components/diia-login.tsx";
import { EntryGate } from "../gates/entry-gate.tsx";

export function DiiaRoute() {
  const { t } = useTranslation("auth");
  const { search } = useLocation();
  const finishSignIn = useFinishSignIn(search);
  return (
    <EntryGate>
      <ContentPage title={t("auth:diia.title")} width="narrow" centered>
        <DiiaLogin onSignedIn={finishSignIn} />
      </ContentPage>
    </EntryGate>
  );
}

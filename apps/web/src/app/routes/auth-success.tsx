import { CircleCheck } from "lucide-react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { ContentPage } from "../layouts/page.tsx";

const ConfettiExplosion = lazy(() => import("react-confetti-explosion"));

export const confettiSettings = { particleCount: 250, duration: 3000, force: 1, width: 2000 } as const;

export function AuthSuccessRoute() {
  const { t } = useTranslation("pages");
  return (
    <ContentPage title={t("pages:authSuccess.title")} width="narrow" centered back={false}>
      <div className="flex flex-col items-center gap-4 text-center">
        <div className="flex justify-center" aria-hidden>
          <Suspense fallback={null}>
            <ConfettiExplosion {...confettiSettings} />
          </Suspense>
        </div>
        <CircleCheck className="size-14 text-emerald-600" aria-hidden />
        <p className="text-muted-foreground">{t("pages:authSuccess.description")}</p>
      </div>
    </ContentPage>
  );
}

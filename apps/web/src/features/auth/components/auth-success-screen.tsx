import { CircleCheck, LogIn } from "lucide-react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ContentPage } from "@/components/content-page.tsx";
import { Button } from "@/components/ui/button.tsx";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { useCurrentUser } from "@/lib/current-user.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { usePrefersReducedMotion } from "@/lib/use-media-query.ts";

const ConfettiExplosion = lazy(() => import("react-confetti-explosion"));

const confettiSettings = { particleCount: 250, duration: 3000, force: 1, width: 2000 } as const;

/** Opened with no sign-in behind it (a bookmark, a shared link): nothing to celebrate, a way to sign in. */
function NotSignedIn() {
  const { t } = useTranslation("pages");
  const language = useLanguage();
  return (
    <ContentPage title={t("pages:authSuccess.notSignedIn.title")} width="narrow" centered back={false}>
      <div className="flex flex-col items-center gap-4 text-center" data-testid="auth-success-not-signed-in">
        <p className="text-muted-foreground">{t("pages:authSuccess.notSignedIn.description")}</p>
        <Button asChild>
          <Link to={localizePath(language, "/")}>
            <LogIn aria-hidden />
            {t("pages:authSuccess.notSignedIn.signIn")}
          </Link>
        </Button>
      </div>
    </ContentPage>
  );
}

/** After a sign-in with nowhere else to go: it worked (with confetti), or, opened directly, a way to sign in. */
export function AuthSuccessScreen() {
  const { t } = useTranslation("pages");
  const user = useCurrentUser();
  const reducedMotion = usePrefersReducedMotion();
  if (user.isPending) return <PageSpinner label={t("common:loading")} />;
  if (!user.data) return <NotSignedIn />;
  return (
    <ContentPage title={t("pages:authSuccess.title")} width="narrow" centered back={false}>
      <div className="flex flex-col items-center gap-4 text-center">
        {reducedMotion ? null : (
          <div className="flex justify-center" aria-hidden data-testid="auth-success-confetti">
            <Suspense fallback={null}>
              <ConfettiExplosion {...confettiSettings} />
            </Suspense>
          </div>
        )}
        <CircleCheck className="size-14 text-emerald-600" aria-hidden />
        <p className="text-muted-foreground">{t("pages:authSuccess.description")}</p>
      </div>
    </ContentPage>
  );
}

import type { DiiaFailureReason } from "@kpi-id/contracts";
import { ExternalLink, RefreshCw } from "lucide-react";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { RefusalAlert } from "@/components/refusal-alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { LiveStatus } from "@/components/ui/live-status.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { FullScreenSpinner } from "@/components/ui/spinner.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { useIsMobile } from "@/lib/use-media-query.ts";
import { type DiiaTiming, diiaTiming, useDiiaSignIn } from "../api/use-diia-sign-in.ts";
import { DiiaQr } from "./diia-qr.tsx";
import { DiiaRefreshProgress } from "./diia-refresh-progress.tsx";

interface DiiaLoginProps {
  onSignedIn: (next: string) => Promise<void> | void;
  renderAs?: "svg" | "canvas";
  timing?: DiiaTiming;
  /** A grant becomes something else than a session (a password reset token); see useDiiaSignIn. */
  exchange?: (sessionId: string) => Promise<string>;
  /** What the spinner says while the grant is exchanged. */
  exchangingLabel?: string;
}

export function DiiaLogin({ onSignedIn, renderAs, timing = diiaTiming, exchange, exchangingLabel }: DiiaLoginProps) {
  const { t } = useTranslation("auth");
  const isMobile = useIsMobile();
  const describeError = useErrorMessage();
  // A refusal the person must act on stays on the screen with whom to ask; anything else is a passing toast.
  const [refusal, setRefusal] = useState<DiiaFailureReason>();
  const onFailure = useCallback(
    (error?: unknown, reason?: DiiaFailureReason) => {
      if (reason) setRefusal(reason);
      else notify("error", describeError(error, "auth:diia.error").message, { id: "diia-error" });
    },
    [describeError],
  );
  const { link, shownAt, stopped, codeUnavailable, exchanging, restart } = useDiiaSignIn({
    onSignedIn,
    onFailure,
    timing,
    exchange,
  });
  return (
    <div className="flex flex-col items-center gap-4">
      {refusal ? (
        <RefusalAlert prefix={`auth:diia.refused.${refusal}`} testId="diia-refusal" className="max-w-[388px]" />
      ) : null}
      {stopped ? null : (
        <p className="text-center text-muted-foreground">
          {isMobile ? t("auth:diia.descriptionMobile") : t("auth:diia.description")}
        </p>
      )}
      {stopped ? (
        <div
          className="flex w-full max-w-[364px] flex-col items-center gap-4 rounded-lg border border-border bg-white p-6 text-center"
          data-testid="diia-stopped"
        >
          <p className="font-medium text-foreground">
            {codeUnavailable ? t("auth:diia.codeUnavailable") : t("auth:diia.stopped")}
          </p>
          <Button onClick={restart} icon={<RefreshCw aria-hidden />}>
            {t("auth:diia.newCode")}
          </Button>
        </div>
      ) : link.data && !link.isFetching ? (
        <>
          <DiiaQr
            deepLink={link.data.deepLink}
            label={t("auth:diia.qrLabel")}
            linkLabel={t("auth:diia.openApp")}
            asLink={isMobile}
            renderAs={renderAs}
          />
          {isMobile ? (
            // Tapping a QR code is not something people know to do: a button that says what it does.
            <Button asChild size="lg" className="w-full max-w-[388px]">
              <a href={link.data.deepLink} target="_blank" rel="noopener noreferrer" data-testid="diia-open-app">
                <ExternalLink aria-hidden />
                {t("auth:diia.openButton")}
              </a>
            </Button>
          ) : null}
          <DiiaRefreshProgress shownAt={shownAt} refreshIntervalMs={timing.refreshIntervalMs} />
        </>
      ) : (
        // Said by a status whose words go in after it enters (LiveStatus says why), not by an aria-label it starts
        // with. The status takes the skeleton's width in the centred column, the skeleton all of it.
        <LiveStatus words={t("auth:diia.loading")} className="w-full max-w-[364px]">
          <Skeleton className="aspect-square w-full" data-testid="diia-skeleton" />
        </LiveStatus>
      )}
      {exchanging ? <FullScreenSpinner label={exchangingLabel ?? t("auth:diia.signingIn")} /> : null}
    </div>
  );
}

import type { AdminApplicationDetail } from "@kpi-id/contracts";
import { Ban, PlayCircle } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { useSuspension } from "@/features/console-reviews/index.ts";
import { Section, useAppTitle, useCan } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";

/**
 * Suspend or resume an application (its sign-ins stop at once; its owners are told by e-mail). Where the
 * detail does not say whether the application is suspended, both actions are offered until one is done here.
 */
export function SuspensionSection({ application }: { application: AdminApplicationDetail }) {
  const { t } = useTranslation(["admin-reviews", "admin"]);
  const id = useId();
  const appTitle = useAppTitle();
  const describeError = useErrorMessage();
  const allowed = useCan("apps.manage");
  const change = useSuspension(application.id);
  const [reason, setReason] = useState("");
  // What this operator last did here, for a detail that does not say (the server's answer wins when it does).
  const [done, setDone] = useState<boolean>();
  const title = appTitle(application);
  const state = application.suspended ?? done;
  const run = (suspended: boolean) =>
    change.mutate(
      { suspended, reason: reason.trim() },
      {
        onSuccess: () => {
          setReason("");
          setDone(suspended);
          notify(
            "success",
            t(suspended ? "admin-reviews:suspension.suspended_done" : "admin-reviews:suspension.resumed_done", {
              app: title,
            }),
          );
        },
        onError: (error) => notify("error", describeError(error, "admin:failed").message),
      },
    );
  const stateText =
    state === undefined
      ? t("admin-reviews:suspension.unknown")
      : state
        ? t("admin-reviews:suspension.suspended")
        : t("admin-reviews:suspension.active");
  return (
    <Section title={t("admin-reviews:suspension.title")} testId="application-suspension">
      <p
        className={state ? "text-sm font-medium text-destructive-strong" : "text-sm text-foreground"}
        data-testid="suspension-state"
        data-suspended={state === undefined ? "unknown" : String(state)}
      >
        {stateText}
      </p>
      {application.lifecycle ? (
        <p className="text-sm text-muted-foreground" data-testid="application-lifecycle">
          {t("admin-reviews:lifecycle.label")}: {t(`admin-reviews:lifecycle.${application.lifecycle}`)}
        </p>
      ) : null}
      {allowed ? (
        <>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-reason`}>{t("admin-reviews:suspension.reason")}</Label>
            <Textarea
              id={`${id}-reason`}
              value={reason}
              maxLength={2000}
              onChange={(event) => setReason(event.target.value)}
              data-testid="suspension-reason"
            />
          </div>
          <div className="flex flex-wrap gap-2">
            {state !== true ? (
              <ConfirmButton
                icon={<Ban aria-hidden />}
                question={t("admin-reviews:suspension.suspendQuestion", { app: title })}
                consequence={t("admin-reviews:suspension.suspendConsequence")}
                confirmLabel={t("admin-reviews:suspension.suspendConfirm")}
                onConfirm={() => run(true)}
                loading={change.isPending}
                data-testid="suspend-application"
              >
                {t("admin-reviews:suspension.suspend")}
              </ConfirmButton>
            ) : null}
            {state !== false ? (
              <ConfirmButton
                icon={<PlayCircle aria-hidden />}
                question={t("admin-reviews:suspension.resumeQuestion", { app: title })}
                consequence={t("admin-reviews:suspension.resumeConsequence")}
                confirmLabel={t("admin-reviews:suspension.resumeConfirm")}
                onConfirm={() => run(false)}
                loading={change.isPending}
                data-testid="resume-application"
              >
                {t("admin-reviews:suspension.resume")}
              </ConfirmButton>
            ) : null}
          </div>
        </>
      ) : null}
    </Section>
  );
}

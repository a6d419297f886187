import type { DeveloperApplication } from "@kpi-id/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Label } from "@/components/ui/label.tsx";
import { ApiError } from "@/lib/api-client.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { requestReview, useDeveloperChange } from "../api/developers.ts";
import { DeveloperSection } from "./section.tsx";

const textareaClass =
  "min-h-24 w-full rounded-md border border-input bg-white px-3 py-2 text-base text-foreground shadow-xs focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40";

/** What the operators check before an application goes live (issue 60), shown before the owner asks. */
const checklist = ["names", "addresses", "data", "policy", "testers"] as const;

/** The registered address a refusal names (`redirectUris.0`), so the owner knows which one to change. */
function refusedAddress(application: DeveloperApplication, error: unknown): string | undefined {
  const [field, line] = error instanceof ApiError ? (error.field?.split(".") ?? []) : [];
  if (field !== "callbackUrls" && field !== "redirectUris") return undefined;
  return application[field][Number(line)];
}

/** Going live: the request (purpose, the data needed and why) and the operators' answer. */
export function ReviewSection({ application }: { application: DeveloperApplication }) {
  const { t } = useTranslation("developers");
  const id = useId();
  const [purpose, setPurpose] = useState("");
  const [dataNeeded, setDataNeeded] = useState("");
  const describeError = useErrorMessage();
  // A refusal (an http address left for a live application, a request too short) stays beside the form.
  const send = useDeveloperChange(() => requestReview(application.id, { purpose, dataNeeded }), undefined, {
    toast: false,
  });
  const { review } = application;
  const open = (application.lifecycle === "testing" || application.lifecycle === "rejected") && !application.suspended;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(undefined);
  };
  return (
    <DeveloperSection id="review" title={t("review.title")}>
      {application.lifecycle === "live" ? <p className="text-foreground">{t("review.live")}</p> : null}
      {!application.mailReachable && application.lifecycle !== "live" ? (
        <Alert title={t("review.noMailTitle")} testId="review-no-mail">
          {t("review.noMail")}
        </Alert>
      ) : null}
      {application.lifecycle === "in_review" ? (
        <Alert title={t("review.pendingTitle")} testId="review-pending">
          {t("review.pending")}
        </Alert>
      ) : null}
      {review?.status === "rejected" ? (
        <Alert variant="destructive" title={t("review.rejectedTitle")} testId="review-rejected">
          {t("review.rejected", { reason: review.reason })}
        </Alert>
      ) : null}
      {open ? (
        <form className="flex flex-col gap-4" onSubmit={submit}>
          <p className="text-sm text-muted-foreground">{t("review.description")}</p>
          <div className="flex flex-col gap-1" data-testid="review-checklist">
            <h3 className="text-sm font-medium text-foreground">{t("review.checklistTitle")}</h3>
            <ul className="list-disc space-y-1 pl-5 text-sm text-foreground">
              {checklist.map((item) => (
                <li key={item}>{t(`review.checklist.${item}`)}</li>
              ))}
            </ul>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-purpose`}>{t("review.purpose")}</Label>
            <textarea
              id={`${id}-purpose`}
              className={textareaClass}
              value={purpose}
              minLength={10}
              required
              onChange={(event) => setPurpose(event.target.value)}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-data`}>{t("review.dataNeeded")}</Label>
            <textarea
              id={`${id}-data`}
              className={textareaClass}
              value={dataNeeded}
              minLength={10}
              required
              onChange={(event) => setDataNeeded(event.target.value)}
            />
          </div>
          {send.isError ? (
            <Alert variant="destructive" title={t("review.refusedTitle")} testId="review-refused">
              {describeError(send.error, "developers:errors.generic").message}
              {refusedAddress(application, send.error) ? (
                <span className="mt-1 block" data-testid="review-refused-address">
                  {t("form.refusedAddress", { address: refusedAddress(application, send.error) })}
                </span>
              ) : null}
            </Alert>
          ) : null}
          <div>
            <Button type="submit" loading={send.isPending} data-testid="request-review">
              {t("review.submit")}
            </Button>
          </div>
        </form>
      ) : null}
    </DeveloperSection>
  );
}

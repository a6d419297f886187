import type { DeveloperApplication } from "@kpi-id/contracts";
import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { notify } from "@/lib/notify.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { updateApplication, uploadIcon, useDeveloperChange, useMyApplication } from "../api/developers.ts";
import { AddressesList } from "./addresses-list.tsx";
import { ApplicationForm } from "./application-form.tsx";
import { ConsentPreview } from "./consent-preview.tsx";
import { DangerSection } from "./danger-section.tsx";
import { DeviceFlowSection } from "./device-flow-section.tsx";
import { HealthSection } from "./health-section.tsx";
import { LifecycleBadge } from "./lifecycle-badge.tsx";
import { PendingChangeSection } from "./pending-change-section.tsx";
import { PeopleSection } from "./people-section.tsx";
import { ReviewSection } from "./review-section.tsx";
import { SecretOnce } from "./secret-once.tsx";
import { SecretsSection } from "./secrets-section.tsx";
import { DeveloperSection } from "./section.tsx";

/** /{lang}/developers/{id}: one of the person's applications. */
export function ApplicationDetailScreen({ id }: { id: string }) {
  const { t } = useTranslation("developers");
  const language = useLanguage();
  const query = useMyApplication(id);
  return (
    <div className="flex w-full max-w-3xl flex-col gap-4 sm:gap-6" data-testid="developer-application">
      <Link
        to={localizePath(language, "/developers")}
        className="inline-flex min-h-11 items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden />
        {t("detail.back")}
      </Link>
      {query.isPending ? <Skeleton className="h-40 w-full" /> : null}
      {query.isError ? (
        <Alert variant="destructive" title={t("detail.notFoundTitle")}>
          {t("detail.notFound")}
        </Alert>
      ) : null}
      {query.data ? <ApplicationDetail application={query.data} /> : null}
    </div>
  );
}

function ApplicationDetail({ application }: { application: DeveloperApplication }) {
  const { t } = useTranslation("developers");
  const language = useLanguage();
  const [secret, setSecret] = useState<string>();
  // A refusal (a reserved name, a control character, an address) is shown beside its field, not in a toast.
  const update = useDeveloperChange(
    (changes: Parameters<typeof updateApplication>[1]) => updateApplication(application.id, changes),
    (answer) => {
      if (answer.pendingChange?.status === "pending" && application.lifecycle === "live") {
        notify("success", t("change.sent"));
      }
    },
    { toast: false },
  );
  const live = application.lifecycle === "live";
  const inReview = application.lifecycle === "in_review";
  const title = language === "en" ? application.titleEn || application.title : application.title;
  return (
    <>
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">{title}</h1>
        <div className="flex flex-wrap items-center gap-2">
          <LifecycleBadge application={application} />
          <span className="text-sm text-muted-foreground">
            {t(`lifecycleHint.${application.suspended ? "suspended" : application.lifecycle}`)}
          </span>
        </div>
      </div>
      {secret ? <SecretOnce applicationId={application.id} secret={secret} /> : null}
      <PendingChangeSection application={application} />
      <SecretsSection application={application} onSecret={setSecret} />
      <ReviewSection application={application} />
      <PeopleSection application={application} group="testers" />
      <PeopleSection application={application} group="owners" />
      <DeviceFlowSection application={application} />
      <ConsentPreview application={application} />
      <HealthSection applicationId={application.id} />
      <DeveloperSection id="settings" title={t("settings.title")}>
        {live ? <p className="text-sm text-muted-foreground">{t("settings.liveHint")}</p> : null}
        <AddressesList application={application} />
        {inReview ? (
          <Alert title={t("settings.reviewLocked")} testId="settings-locked" />
        ) : (
          <ApplicationForm
            // A new form after each answer, so "what changed" is measured against the values shown now.
            key={`${application.title}|${application.pendingChange?.id ?? ""}`}
            initial={application}
            submitLabel={t("settings.save")}
            pending={update.isPending}
            error={update.error}
            onUpdate={(changes) => update.mutate(changes)}
            uploadIcon={(file) => uploadIcon(application.id, file)}
          />
        )}
      </DeveloperSection>
      <DangerSection application={application} />
    </>
  );
}

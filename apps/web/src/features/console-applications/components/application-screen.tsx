import type { AdminApplicationDetail, ApplicationSecret } from "@kpi-id/contracts";
import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Held, refusedForGood, ScreenLoading, useAnswersFirst, useAppTitle } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useApplication, useApplicationAccess, useCasServices, useRotateSecret } from "../api/applications-api.ts";
import { CasSection } from "./application-cas.tsx";
import { BulkGrantSection, PeopleSection } from "./application-people.tsx";
import { RulesSection } from "./application-rules.tsx";
import { SettingsSection } from "./application-settings.tsx";
import { SuspensionSection } from "./application-suspension.tsx";
import { UnitSection } from "./application-unit.tsx";
import { SecretOnce } from "./applications-screen.tsx";

/**
 * One application: its settings, access rules, who has access, bulk grant; rotating its secret. The screen shows
 * itself with its access rules and CAS services, asked beside the application rather than after it: the rules and
 * services arriving later pushed the rule form, bulk grant, suspension and the people search down (at 390 px one
 * column, a few rules and services some hundreds of pixels), under a tap meant for them. Answers later than
 * `answerWait` find their sections framed with placeholders instead.
 */
export function ApplicationScreen() {
  const { t } = useTranslation(["admin", "admin-apps"]);
  const { id = "" } = useParams();
  const language = useLanguage();
  const describeError = useErrorMessage();
  const application = useApplication(id);
  // Asked beside the application, not after it (a round trip more before every screen); so an unknown id's first
  // questions go out in vain, but once its 404 is in (kept, useApplication) they are not asked again.
  const known = { enabled: !refusedForGood(application.error) };
  const access = useApplicationAccess(id, known);
  const cas = useCasServices(id, known);
  const { waiting } = useAnswersFirst(id, application.isSuccess, access.isPending || cas.isPending);
  const [shown, setShown] = useState<ApplicationSecret | undefined>();
  const back = (
    <Link
      className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
      to={localizePath(language, "/admin/applications")}
    >
      <ArrowLeft className="size-4" aria-hidden />
      {t("admin-apps:back")}
    </Link>
  );
  if (application.isError) {
    return (
      <div className="flex flex-col gap-3">
        {back}
        <Alert variant="destructive" title={describeError(application.error, "admin-apps:notFound").message} />
      </div>
    );
  }
  const app = application.data;
  // One placeholder while the application is read and while its sections are held, the same element in the same
  // place of the same section in both (Preact keeps it): a second one in its stead said "Loading…" twice.
  return (
    <section
      aria-labelledby={app ? "application-heading" : undefined}
      className="flex flex-col gap-4"
      data-testid="application-screen"
    >
      {back}
      {app ? <ApplicationHeading application={app} onRotated={setShown} /> : null}
      {shown ? <SecretOnce shown={shown} /> : null}
      {!app || waiting ? <ScreenLoading className="h-40 w-full" testId="application-waiting" /> : null}
      {app ? (
        <Held waiting={waiting}>
          <div className="grid gap-4 lg:grid-cols-2 lg:items-start">
            <SettingsSection key={app.updatedAt} application={app} />
            <div className="flex flex-col gap-4">
              <UnitSection key={app.unit?.id ?? "central"} application={app} />
              <RulesSection application={app} />
              <BulkGrantSection application={app} />
              <SuspensionSection application={app} />
              <CasSection application={app} />
            </div>
          </div>
          <PeopleSection application={app} held={waiting} />
        </Held>
      ) : null}
    </section>
  );
}

/** The application's name and id, and rotating its secret; the new secret goes to `onRotated` to be shown once. */
function ApplicationHeading({
  application,
  onRotated,
}: {
  application: AdminApplicationDetail;
  onRotated: (secret: ApplicationSecret) => void;
}) {
  const { t } = useTranslation(["admin", "admin-apps"]);
  const appTitle = useAppTitle();
  const describeError = useErrorMessage();
  const rotate = useRotateSecret();
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h2 id="application-heading" className="text-lg font-semibold break-words">
          {appTitle(application)}
        </h2>
        <p className="text-xs break-all text-muted-foreground">
          {t("admin-apps:identity", { name: application.name, id: application.id })}
        </p>
      </div>
      <ConfirmButton
        question={t("admin:applications.rotateQuestion", { app: appTitle(application) })}
        consequence={t("admin:applications.rotateConsequence")}
        confirmLabel={t("admin:applications.rotate")}
        onConfirm={() =>
          rotate.mutate(application.id, {
            onSuccess: onRotated,
            onError: (error) => notify("error", describeError(error, "admin:failed").message),
          })
        }
      >
        {t("admin:applications.rotate")}
      </ConfirmButton>
    </div>
  );
}

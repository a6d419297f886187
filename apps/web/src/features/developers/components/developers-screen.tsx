import type { DeveloperCredentials } from "@kpi-id/contracts";
import { Code2, Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { registerApplication, useDeveloperChange, useMyApplications } from "../api/developers.ts";
import { ApplicationForm } from "./application-form.tsx";
import { IntegrationLinks } from "./integration-links.tsx";
import { InvitationsNotice } from "./invitations-notice.tsx";
import { LifecycleBadge } from "./lifecycle-badge.tsx";
import { SecretOnce } from "./secret-once.tsx";

/** /{lang}/developers: the person's own applications and registering a new one. */
export function DevelopersScreen() {
  const { t } = useTranslation("developers");
  const language = useLanguage();
  const list = useMyApplications();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<DeveloperCredentials>();
  const register = useDeveloperChange(registerApplication, (answer) => {
    setCreated(answer);
    setCreating(false);
  });
  const data = list.data;
  const full = data ? data.applications.length >= data.limit : false;
  return (
    <div className="flex w-full max-w-3xl flex-col gap-4 sm:gap-6" data-testid="developers-screen">
      <div className="space-y-1">
        <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">
          <Code2 className="size-7 text-primary" aria-hidden />
          {t("title")}
        </h1>
        <p className="text-muted-foreground">{t("subtitle")}</p>
      </div>
      <IntegrationLinks />
      {list.isPending ? <Skeleton className="h-32 w-full" /> : null}
      {list.isError ? (
        <Alert variant="destructive" title={t("errors.loadTitle")}>
          {t("errors.load")}
        </Alert>
      ) : null}
      {data && !data.allowed ? (
        <Alert title={t("notAllowed.title")} testId="developers-not-allowed">
          {t("notAllowed.description")}
        </Alert>
      ) : null}
      <InvitationsNotice />
      {created ? <SecretOnce applicationId={created.application.id} secret={created.secret} /> : null}
      {data ? (
        <Card className="p-4 sm:p-6">
          <section aria-labelledby="my-applications" className="flex flex-col gap-4">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <h2 id="my-applications" className="text-lg font-semibold text-foreground">
                {t("list.title", { count: data.applications.length, limit: data.limit })}
              </h2>
              {data.allowed && !creating ? (
                <Button
                  icon={<Plus aria-hidden />}
                  disabled={full}
                  onClick={() => setCreating(true)}
                  data-testid="new-application"
                >
                  {t("list.new")}
                </Button>
              ) : null}
            </div>
            {full && data.allowed ? <p className="text-sm text-muted-foreground">{t("list.full")}</p> : null}
            {data.applications.length === 0 ? <p className="text-muted-foreground">{t("list.empty")}</p> : null}
            {/* No list for no application: an empty bordered list would draw a stray line under the note. */}
            {data.applications.length > 0 ? (
              <ul className="divide-y divide-border rounded-lg border border-border" aria-labelledby="my-applications">
                {data.applications.map((application) => (
                  <li key={application.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
                    <Link
                      className="min-h-11 content-center font-medium text-primary underline-offset-4 hover:underline"
                      to={localizePath(language, `/developers/${application.id}`)}
                      data-testid="developer-application-link"
                    >
                      {language === "en" ? application.titleEn || application.title : application.title}
                    </Link>
                    <LifecycleBadge application={application} />
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        </Card>
      ) : null}
      {creating ? (
        <Card className="p-4 sm:p-6">
          <section aria-labelledby="new-application" className="flex flex-col gap-4">
            <h2 id="new-application" className="text-lg font-semibold text-foreground">
              {t("create.title")}
            </h2>
            <p className="text-sm text-muted-foreground">{t("create.description")}</p>
            <ApplicationForm
              submitLabel={t("create.submit")}
              pending={register.isPending}
              onSubmit={register.mutate}
              error={register.error}
            />
          </section>
        </Card>
      ) : null}
    </div>
  );
}

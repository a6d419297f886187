import type { AdminApplication, ApplicationSecret } from "@kpi-id/contracts";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { type ConsoleColumn, DataTable, useApplications, useAppTitle } from "@/features/console-shell/index.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useRotateSecret } from "../api/applications-api.ts";
import { CreateApplicationForm } from "./application-create.tsx";

/** The secret of a new application or a rotated one: shown here once, with a copy button. */
export function SecretOnce({ shown }: { shown: ApplicationSecret }) {
  const { t } = useTranslation("admin");
  const appTitle = useAppTitle();
  return (
    <Alert title={t("admin:applications.secretTitle", { app: appTitle(shown.application) })} testId="secret-once">
      <p>{t("admin:applications.secretOnce")}</p>
      <p className="mt-2 flex flex-wrap items-center gap-2">
        <code className="rounded bg-muted px-2 py-1 break-all" data-testid="secret-value">
          {shown.secret}
        </code>
        <CopyButton text={shown.secret} copiedMessage={t("admin:applications.copied")}>
          {t("admin:applications.copy")}
        </CopyButton>
      </p>
      <p className="mt-1 text-xs">{t("admin:applications.applicationId", { id: shown.application.id })}</p>
    </Alert>
  );
}

/** Applications: the list, registering one (its secret shown once), rotating a secret. */
export function ApplicationsScreen() {
  const { t } = useTranslation("admin");
  const applications = useApplications();
  const rotate = useRotateSecret();
  const language = useLanguage();
  const appTitle = useAppTitle();
  const [shown, setShown] = useState<ApplicationSecret | undefined>();
  const columns = useMemo<ConsoleColumn<AdminApplication>[]>(
    () => [
      {
        id: "title",
        header: t("admin:applications.fields.title"),
        cell: ({ row }) => (
          <Link
            className="font-medium text-primary underline-offset-4 hover:underline"
            to={localizePath(language, `/admin/applications/${row.original.id}`)}
          >
            {appTitle(row.original)}
          </Link>
        ),
      },
      { accessorKey: "name", header: t("admin:applications.fields.name") },
      {
        id: "unit",
        header: t("admin:units.owner"),
        cell: ({ row }) => row.original.unit?.code ?? t("admin:units.central"),
      },
      { accessorKey: "callbackUrl", header: t("admin:applications.fields.callbackUrl") },
      {
        id: "oidc",
        header: t("admin:applications.oidc"),
        cell: ({ row }) => (row.original.oidcEnabled ? t("admin:yes") : t("admin:no")),
      },
      { accessorKey: "people", header: t("admin:applications.people") },
      {
        id: "actions",
        header: t("admin:applications.actions"),
        cell: ({ row }) => (
          <ConfirmButton
            question={t("admin:applications.rotateQuestion", { app: appTitle(row.original) })}
            consequence={t("admin:applications.rotateConsequence")}
            confirmLabel={t("admin:applications.rotate")}
            onConfirm={() => rotate.mutate(row.original.id, { onSuccess: setShown })}
          >
            {t("admin:applications.rotate")}
            <span className="sr-only">: {appTitle(row.original)}</span>
          </ConfirmButton>
        ),
      },
    ],
    [t, rotate.mutate, language, appTitle],
  );
  return (
    <section aria-labelledby="applications-heading" className="flex flex-col gap-4">
      <h2 id="applications-heading" className="text-lg font-semibold">
        {t("admin:applications.title")}
      </h2>
      {shown ? <SecretOnce shown={shown} /> : null}
      <CreateApplicationForm onCreated={setShown} />
      <DataTable
        columns={columns}
        rows={applications.data ?? []}
        label={t("admin:applications.title")}
        empty={applications.isPending ? t("admin:loading") : t("admin:none")}
        testId="applications-table"
      />
    </section>
  );
}

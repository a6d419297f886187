import type { AuditEventView } from "@kpi-id/contracts";
import { Download } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { type ConsoleColumn, DataTable, useAppTitle, useEventLabel } from "@/features/console-shell/index.ts";
import { formatEventInstant } from "@/lib/format.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { auditSearch, useAuditEvents } from "../api/records-api.ts";
import { AuditFilterForm, useAuditFilters } from "./audit-filters.tsx";
import { useAuditReason } from "./audit-reason.ts";

function useAuditColumns(): ConsoleColumn<AuditEventView>[] {
  const { t } = useTranslation("admin-records");
  const { t: tAdmin } = useTranslation("admin");
  const language = useLanguage();
  const eventLabel = useEventLabel();
  const reasonLabel = useAuditReason();
  const appTitle = useAppTitle();
  return useMemo(
    () => [
      {
        id: "when",
        header: t("admin-records:audit.columns.when"),
        cell: ({ row }) => (
          <span className="whitespace-nowrap">{formatEventInstant(row.original.occurredAt, language)}</span>
        ),
      },
      {
        id: "event",
        header: t("admin-records:audit.columns.event"),
        cell: ({ row }) => (
          <span className="flex flex-col">
            <span className="font-medium">{eventLabel(row.original.type)}</span>
            <span className={row.original.result === "failure" ? "text-destructive-strong" : "text-muted-foreground"}>
              {t(`admin-records:results.${row.original.result}`)}
              {row.original.method
                ? ` · ${tAdmin(`admin:methods.${row.original.method}`, { defaultValue: row.original.method })}`
                : ""}
            </span>
          </span>
        ),
      },
      {
        id: "person",
        header: t("admin-records:audit.columns.person"),
        cell: ({ row }) =>
          row.original.person ? (
            <Link
              className="text-primary underline-offset-4 hover:underline"
              to={localizePath(language, `/admin/people/${row.original.person.id}`)}
            >
              {row.original.person.fullName}
            </Link>
          ) : (
            <span className="text-muted-foreground">{t("admin-records:audit.notRecorded")}</span>
          ),
      },
      {
        id: "actor",
        header: t("admin-records:audit.columns.actor"),
        cell: ({ row }) => row.original.actor?.fullName ?? t("admin-records:audit.notRecorded"),
      },
      {
        id: "application",
        header: t("admin-records:audit.columns.application"),
        cell: ({ row }) =>
          row.original.application ? appTitle(row.original.application) : t("admin-records:audit.notRecorded"),
      },
      {
        id: "address",
        header: t("admin-records:audit.columns.address"),
        cell: ({ row }) => row.original.address ?? t("admin-records:audit.notRecorded"),
      },
      {
        id: "reason",
        header: t("admin-records:audit.columns.reason"),
        cell: ({ row }) => (
          <span className="break-words" title={row.original.reason ?? undefined}>
            {reasonLabel(row.original.reason)}
          </span>
        ),
      },
    ],
    [t, tAdmin, language, eventLabel, reasonLabel, appTitle],
  );
}

/** The audit log: filters in the URL, newest first, a page more on request, the filtered set as CSV. */
export function AuditScreen() {
  const { t } = useTranslation("admin-records");
  const [filters, update] = useAuditFilters();
  const events = useAuditEvents(filters);
  const columns = useAuditColumns();
  const rows = events.data?.pages.flatMap((page) => page.events) ?? [];
  const exportHref = `/api/admin/audit/export?${auditSearch(filters)}`;
  return (
    <section aria-labelledby="audit-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="audit-heading" className="text-lg font-semibold">
          {t("admin-records:audit.title")}
        </h2>
        <a
          href={exportHref}
          download
          data-testid="audit-export"
          className="inline-flex h-9 items-center gap-2 rounded-md border border-border bg-white px-3 text-sm font-medium text-foreground hover:bg-muted"
        >
          <Download className="size-4" aria-hidden />
          {t("admin-records:audit.export")}
        </a>
      </div>
      <AuditFilterForm key={new URLSearchParams(auditSearch(filters)).toString()} filters={filters} onApply={update} />
      <DataTable
        columns={columns}
        rows={rows}
        label={t("admin-records:audit.title")}
        empty={events.isPending ? t("admin:loading") : t("admin-records:audit.none")}
        testId="audit-table"
      />
      {events.hasNextPage ? (
        <Button
          variant="outline"
          className="self-center"
          loading={events.isFetchingNextPage}
          onClick={() => void events.fetchNextPage()}
          data-testid="audit-more"
        >
          {t("admin-records:audit.more")}
        </Button>
      ) : null}
    </section>
  );
}

import { type ImportLine, type ImportReportView, importMaxBytes } from "@kpi-id/contracts";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { cn } from "@/lib/utils.ts";
import { useImport } from "../api/records-api.ts";
import { type ConsoleColumn, DataTable } from "./data-table.tsx";

const maxSize = `${importMaxBytes / 1024 / 1024} MiB`;
const outcomeTone: Record<ImportLine["outcome"], string> = {
  created: "text-emerald-800",
  updated: "text-primary",
  unchanged: "text-muted-foreground",
  rejected: "text-destructive-strong",
};

function useLineColumns(): ConsoleColumn<ImportLine>[] {
  const { t } = useTranslation("admin-records");
  return useMemo(
    () => [
      { accessorKey: "line", header: t("admin-records:import.columns.line") },
      {
        id: "username",
        header: t("admin-records:import.columns.username"),
        cell: ({ row }) => row.original.username ?? "—",
      },
      {
        id: "outcome",
        header: t("admin-records:import.columns.outcome"),
        cell: ({ row }) => (
          <span className={cn("font-medium", outcomeTone[row.original.outcome])}>
            {t(`admin-records:import.outcomes.${row.original.outcome}`)}
          </span>
        ),
      },
      {
        id: "reason",
        header: t("admin-records:import.columns.reason"),
        cell: ({ row }) => {
          const { reason, field, detail } = row.original;
          if (!reason) return "";
          return (
            <span className="flex flex-col">
              <span>
                {t(`admin-records:reasons.${reason}`)}
                {field ? ` (${t("admin-records:import.field", { field })})` : ""}
              </span>
              {detail ? <span className="text-xs text-muted-foreground">{detail}</span> : null}
            </span>
          );
        },
      },
    ],
    [t],
  );
}

function Counts({ report }: { report: ImportReportView }) {
  const { t } = useTranslation("admin-records");
  const counts = ["created", "updated", "unchanged", "rejected"] as const;
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="import-counts">
      {counts.map((name) => (
        <div key={name} className="rounded-lg border border-border bg-white p-3">
          <dt className="text-xs text-muted-foreground">{t(`admin-records:import.counts.${name}`)}</dt>
          <dd className={cn("text-2xl font-semibold", outcomeTone[name])} data-testid={`import-${name}`}>
            {report[name]}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Import: a CSV checked line by line first (nothing changes), then applied on confirmation. */
export function ImportScreen() {
  const { t } = useTranslation("admin-records");
  const describeError = useErrorMessage();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const run = useImport();
  const columns = useLineColumns();
  const tooLarge = file !== null && file.size > importMaxBytes;
  const report = run.data;
  const lines = report?.lines.filter((line) => !onlyProblems || line.outcome === "rejected") ?? [];

  const choose = (chosen: File | null) => {
    setFile(chosen);
    run.reset();
  };
  const start = (mode: "dry-run" | "apply") => (file && !tooLarge ? run.mutate({ file, mode }) : undefined);

  return (
    <section aria-labelledby="import-heading" className="flex flex-col gap-4">
      <h2 id="import-heading" className="text-lg font-semibold">
        {t("admin-records:import.title")}
      </h2>
      <p className="max-w-prose text-sm text-muted-foreground">{t("admin-records:import.intro")}</p>
      <div className="flex flex-col gap-1">
        <Label htmlFor={fileId}>{t("admin-records:import.file", { size: maxSize })}</Label>
        <input
          id={fileId}
          type="file"
          accept=".csv,text/csv"
          data-testid="import-file"
          className="text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-white file:px-3 file:py-2 file:text-sm"
          onChange={(event) => choose(event.target.files?.[0] ?? null)}
        />
      </div>
      {tooLarge ? (
        <p role="alert" className="text-sm text-destructive-strong">
          {t("admin-records:import.tooLarge", { size: maxSize })}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="outline"
          disabled={!file || tooLarge || run.isPending}
          onClick={() => start("dry-run")}
          data-testid="import-dry-run"
        >
          {t("admin-records:import.dryRun")}
        </Button>
        {report && !report.applied && file ? (
          <ConfirmButton
            size="default"
            variant="default"
            disabled={run.isPending || report.created + report.updated === 0}
            question={t("admin-records:import.applyQuestion", { name: file.name })}
            consequence={t("admin-records:import.applyConsequence", report)}
            confirmLabel={t("admin-records:import.apply")}
            onConfirm={() => start("apply")}
            data-testid="import-apply"
          >
            {t("admin-records:import.apply")}
          </ConfirmButton>
        ) : null}
      </div>
      {run.isPending ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Spinner /> {t("admin-records:import.applying")}
        </p>
      ) : null}
      {run.isError ? (
        <Alert variant="destructive" title={describeError(run.error, "admin:failed").message} testId="import-error" />
      ) : null}
      {report ? (
        <div className="flex flex-col gap-3" data-testid="import-report">
          <h3 className="text-base font-semibold" data-testid="import-report-title">
            {report.applied ? t("admin-records:import.appliedTitle") : t("admin-records:import.dryRunTitle")}
          </h3>
          <Counts report={report} />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={onlyProblems} onChange={(event) => setOnlyProblems(event.target.checked)} />
            {t("admin-records:import.onlyProblems")}
          </label>
          <DataTable
            columns={columns}
            rows={lines}
            label={t("admin-records:import.title")}
            empty={t("admin-records:import.noLines")}
            testId="import-lines"
          />
        </div>
      ) : null}
    </section>
  );
}

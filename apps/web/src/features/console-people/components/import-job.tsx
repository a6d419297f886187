import type { ImportJobView, ImportLine } from "@kpi-id/contracts";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Progress } from "@/components/ui/progress.tsx";
import { type ConsoleColumn, DataTable } from "@/features/console-shell/index.ts";
import { cn } from "@/lib/utils.ts";

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
        cell: ({ row }) => row.original.username ?? t("admin-records:import.noUsername"),
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
          const { reason, field, detail, problems } = row.original;
          const listed = problems.length > 0 ? problems : reason ? [{ reason, field, detail: detail ?? "" }] : [];
          if (listed.length === 0) return "";
          return (
            <ul className="flex flex-col gap-1">
              {listed.map((problem) => (
                <li key={`${problem.reason}-${problem.field}-${problem.detail}`} className="flex flex-col">
                  <span>
                    {t(`admin-records:reasons.${problem.reason}`)}
                    {problem.field ? ` (${t("admin-records:import.field", { field: problem.field })})` : ""}
                  </span>
                  {problem.detail ? <span className="text-xs text-muted-foreground">{problem.detail}</span> : null}
                </li>
              ))}
            </ul>
          );
        },
      },
    ],
    [t],
  );
}

function Counts({ job }: { job: ImportJobView }) {
  const { t } = useTranslation("admin-records");
  const counts = ["created", "updated", "unchanged", "rejected"] as const;
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="import-counts">
      {counts.map((name) => (
        <div key={name} className="rounded-lg border border-border bg-white p-3">
          <dt className="text-xs text-muted-foreground">{t(`admin-records:import.counts.${name}`)}</dt>
          <dd className={cn("text-2xl font-semibold", outcomeTone[name])} data-testid={`import-${name}`}>
            {job[name]}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** What an ended job did, in one sentence: a dry run says what an import would do. */
function headline(job: ImportJobView, t: TFunction<"admin-records">): string {
  if (job.status === "done") {
    return job.mode === "dry-run" ? t("admin-records:import.dryRunTitle") : t("admin-records:import.appliedTitle");
  }
  // A check keeps nothing, so its failure must not say "the lines done so far are kept".
  const group = job.mode === "dry-run" ? "endedCheck" : "ended";
  return t(`admin-records:import.${group}.${job.status}`, { processed: job.processed, total: job.total });
}

interface ImportJobPanelProps {
  job: ImportJobView;
  showAll: boolean;
  onShowAll: (all: boolean) => void;
  onCancel: () => void;
  cancelling: boolean;
}

/** A job: its progress and a Stop button while it runs; its counts and lines once it ended. */
export function ImportJobPanel({ job, showAll, onShowAll, onCancel, cancelling }: ImportJobPanelProps) {
  const { t } = useTranslation("admin-records");
  const columns = useLineColumns();
  const running = job.status === "running";
  const progressText = t("admin-records:import.progress", { processed: job.processed, total: job.total });
  return (
    <div
      className="flex flex-col gap-3"
      data-testid="import-report"
      data-job={job.id}
      data-status={job.status}
      data-mode={job.mode}
    >
      <h3 className="text-base font-semibold" data-testid="import-report-title">
        {running
          ? t(`admin-records:import.running.${job.mode}`, { name: job.fileName })
          : `${headline(job, t)} (${job.fileName})`}
      </h3>
      {/* One live region for the whole run, so a screen reader hears the counts and then how it ended. */}
      <p className={running ? "text-sm text-muted-foreground" : "sr-only"} role="status" data-testid="import-status">
        {running ? progressText : headline(job, t)}
      </p>
      {running ? (
        <div className="flex flex-col gap-2" data-testid="import-progress">
          <Progress value={job.processed} max={Math.max(job.total, 1)} label={progressText} />
          <div>
            <ConfirmButton
              disabled={cancelling}
              question={t("admin-records:import.stopQuestion", { name: job.fileName })}
              consequence={t(`admin-records:import.stopConsequence.${job.mode}`)}
              confirmLabel={t("admin-records:import.stop")}
              onConfirm={onCancel}
              data-testid="import-stop"
            >
              {t("admin-records:import.stop")}
            </ConfirmButton>
          </div>
        </div>
      ) : null}
      {job.status === "failed" || job.status === "interrupted" ? (
        <Alert variant="destructive" title={headline(job, t)} testId="import-ended-alert" />
      ) : null}
      <Counts job={job} />
      {job.mode === "dry-run" && job.status === "done" ? (
        <p className="text-sm" data-testid="import-will-happen">
          {t("admin-records:import.willHappen", job)}
        </p>
      ) : null}
      {running ? null : (
        <>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={showAll} onChange={(event) => onShowAll(event.target.checked)} />
            {t("admin-records:import.showAll")}
          </label>
          <DataTable
            columns={columns}
            rows={job.lines}
            label={t("admin-records:import.title")}
            empty={showAll ? t("admin-records:import.noLines") : t("admin-records:import.noProblems")}
            testId="import-lines"
          />
        </>
      )}
    </div>
  );
}

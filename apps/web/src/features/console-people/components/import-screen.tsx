import { importMaxBytes } from "@kpi-id/contracts";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { useCancelImport, useImportJob, useLatestImportJob, useStartImport } from "../api/import-api.ts";
import { ImportJobPanel } from "./import-job.tsx";

const maxSize = `${importMaxBytes / 1024 / 1024} MiB`;

/**
 * Import: a CSV checked line by line first (nothing changes), then applied on confirmation. Both
 * run as jobs on the server: the page polls their progress, and shows the operator's newest job
 * again when they come back to it.
 */
export function ImportScreen() {
  const { t } = useTranslation("admin-records");
  const describeError = useErrorMessage();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  // The job started from this page for the chosen file: only its dry run offers the apply.
  const [started, setStarted] = useState<{ id: string; file: File } | null>(null);
  const [showAll, setShowAll] = useState(false);
  const latest = useLatestImportJob();
  const start = useStartImport();
  const cancel = useCancelImport();
  const jobId = started?.id ?? latest.data?.job?.id;
  const job =
    useImportJob(jobId, showAll ? "all" : "problems").data ?? (started ? undefined : (latest.data?.job ?? undefined));
  const tooLarge = file !== null && file.size > importMaxBytes;
  const running = job?.status === "running";
  const checkedHere = job?.mode === "dry-run" && job.status === "done" && started?.file === file && file !== null;

  const choose = (chosen: File | null) => {
    setFile(chosen);
    start.reset();
  };
  const run = (mode: "dry-run" | "apply") => {
    if (!file || tooLarge) return;
    start.mutate(
      { file, mode },
      {
        onSuccess: (answer) => {
          setShowAll(false);
          setStarted({ id: answer.id, file });
        },
      },
    );
  };

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
          disabled={!file || tooLarge || start.isPending || running}
          onClick={() => run("dry-run")}
          data-testid="import-dry-run"
        >
          {t("admin-records:import.dryRun")}
        </Button>
        {checkedHere && job && file ? (
          <ConfirmButton
            size="default"
            variant="default"
            disabled={start.isPending || job.created + job.updated === 0}
            question={t("admin-records:import.applyQuestion", { name: file.name })}
            consequence={t("admin-records:import.applyConsequence", job)}
            confirmLabel={t("admin-records:import.apply")}
            onConfirm={() => run("apply")}
            data-testid="import-apply"
          >
            {t("admin-records:import.apply")}
          </ConfirmButton>
        ) : null}
      </div>
      {job?.mode === "dry-run" && job.status === "done" && !checkedHere ? (
        <p className="text-sm text-muted-foreground" data-testid="import-choose-again">
          {t("admin-records:import.chooseAgain", { name: job.fileName })}
        </p>
      ) : null}
      {start.isError ? (
        <Alert variant="destructive" title={describeError(start.error, "admin:failed").message} testId="import-error" />
      ) : null}
      {cancel.isError ? (
        <Alert
          variant="destructive"
          title={describeError(cancel.error, "admin:failed").message}
          testId="import-error"
        />
      ) : null}
      {job ? (
        <ImportJobPanel
          job={job}
          showAll={showAll}
          onShowAll={setShowAll}
          onCancel={() => cancel.mutate(job.id)}
          cancelling={cancel.isPending}
        />
      ) : null}
    </section>
  );
}

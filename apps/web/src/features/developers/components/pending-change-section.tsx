import type { DeveloperApplication } from "@kpi-id/contracts";
import { Undo2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { FieldChanges } from "@/components/field-changes.tsx";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { notify } from "@/lib/notify.ts";
import { useDeveloperChange, withdrawChange } from "../api/developers.ts";

/**
 * A live application's change the operators have not approved yet (issue 56), or their answer to the last one:
 * field by field, what runs now and what was asked for. The owner may withdraw a change still waiting.
 */
export function PendingChangeSection({ application }: { application: DeveloperApplication }) {
  const { t } = useTranslation("developers");
  const change = application.pendingChange;
  const withdraw = useDeveloperChange(
    (changeId: string) => withdrawChange(application.id, changeId),
    () => notify("success", t("change.withdrawn")),
  );
  if (!change || change.status === "approved") return null;
  const changes = (
    <FieldChanges
      changes={change.changes}
      label={(field) => t(`form.${field}`)}
      words={{ before: t("change.before"), after: t("change.after"), none: t("change.none") }}
    />
  );
  if (change.status === "rejected") {
    return (
      <Alert variant="destructive" title={t("change.rejectedTitle")} testId="change-rejected">
        <p>{t("change.rejected", { reason: change.reason })}</p>
      </Alert>
    );
  }
  return (
    <section
      aria-labelledby="pending-change-title"
      className="flex flex-col gap-3 rounded-lg border border-primary/40 bg-white p-4 sm:p-5"
      data-testid="pending-change"
    >
      <h2 id="pending-change-title" className="text-lg font-semibold text-foreground">
        {t("change.pendingTitle")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("change.pending")}</p>
      {changes}
      <div>
        <Button
          variant="outline"
          icon={<Undo2 aria-hidden />}
          loading={withdraw.isPending}
          onClick={() => withdraw.mutate(change.id)}
          data-testid="withdraw-change"
        >
          {t("change.withdraw")}
        </Button>
      </div>
    </section>
  );
}

import type { ReviewQueue } from "@kpi-id/contracts";
import { BadgeCheck } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useUnitName } from "@/features/console-shell/index.ts";
import { useLanguage } from "@/lib/use-language.ts";

type UnitApproval = NonNullable<ReviewQueue["reviews"][number]["unitApproval"]>;

/**
 * The two-step state of a request (issue 79): a unit admin approved it first and it waits for central IT. An admin
 * reads which unit approved it and who; the unit's admins read that it is theirs and waits.
 */
export function UnitApprovalNote({ approval, central }: { approval: UnitApproval; central: boolean }) {
  const { t } = useTranslation("admin-reviews");
  const language = useLanguage();
  const unitName = useUnitName();
  const date = new Date(approval.at).toLocaleString(language === "uk" ? "uk-UA" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
  });
  const words = {
    unit: `${approval.unit.code} · ${unitName(approval.unit)}`,
    by: approval.by ?? t("admin-reviews:unitApproverGone"),
    date,
  };
  return (
    <p
      className="flex items-start gap-2 rounded-md border border-border bg-muted/50 p-3 text-sm break-words text-foreground"
      data-testid="review-unit-approval"
    >
      <BadgeCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
      <span>{t(central ? "admin-reviews:unitApprovedNote" : "admin-reviews:unitApprovedOwnNote", words)}</span>
    </p>
  );
}

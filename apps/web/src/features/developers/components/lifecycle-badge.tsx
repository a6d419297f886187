import type { DeveloperApplicationSummary } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { cn } from "@/lib/utils.ts";

const tones = {
  testing: "bg-amber-100 text-amber-900",
  in_review: "bg-blue-100 text-blue-900",
  live: "bg-green-100 text-green-900",
  rejected: "bg-red-100 text-red-900",
  suspended: "bg-red-100 text-red-900",
} as const;

/** Where the application stands: testing, in review, live, rejected, or suspended by an operator. */
export function LifecycleBadge({
  application,
}: {
  application: Pick<DeveloperApplicationSummary, "lifecycle" | "suspended">;
}) {
  const { t } = useTranslation("developers");
  const state = application.suspended ? "suspended" : application.lifecycle;
  return (
    <span
      className={cn("inline-flex rounded-full px-2.5 py-0.5 text-sm font-medium", tones[state])}
      data-testid="lifecycle"
      data-state={state}
    >
      {t(`lifecycle.${state}`)}
    </span>
  );
}

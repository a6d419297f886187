import type { PeoplePage } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { ReadFailed } from "@/features/console-shell/index.ts";
import { useLanguage } from "@/lib/use-language.ts";

/**
 * How many match: the server counts up to 1,000 and then says only "more" (an exact count of a
 * common letter pair at 100,000 people costs more than the page, and the planner's estimate of a
 * pattern is a guess), so the line never shows a figure it does not know.
 */
export function PeopleCount({
  page,
  pending,
  error,
}: {
  page: PeoplePage | undefined;
  pending: boolean;
  error: unknown;
}) {
  const { t } = useTranslation("admin");
  const language = useLanguage();
  // Until the first answer, the line's place: its coming pushed the table and the paging buttons down a line. A first
  // read that failed says so here instead (the people screen shows no table then): a placeholder would stay for ever.
  if (!page) {
    if (pending) return <Skeleton className="h-5 w-48" data-testid="people-count-loading" />;
    return <ReadFailed what={t("admin:people.loadFailed")} error={error} testId="people-failed" />;
  }
  const total = new Intl.NumberFormat(language === "uk" ? "uk-UA" : "en-GB").format(page.total);
  return (
    <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="people-count">
      {page.totalCapped
        ? t("admin:people.countMore", { total })
        : t("admin:people.count", { count: page.total, total })}
    </p>
  );
}

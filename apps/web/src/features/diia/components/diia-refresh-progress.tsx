import { useTranslation } from "react-i18next";
import { Progress } from "@/components/ui/progress.tsx";
import { useNow } from "@/lib/use-now.ts";
import { PROGRESS_TICK_MS } from "../api/use-diia-sign-in.ts";

interface DiiaRefreshProgressProps {
  /** When the code on screen was fetched. */
  shownAt: number;
  /** When the next code is due, counted from `shownAt`. */
  refreshIntervalMs: number;
}

/**
 * The bar toward the next code and the "updated" line. Each keeps its own clock, so the ten steps a
 * second the spec asks of the bar re-render the bar alone, not the QR code and the screen around it.
 */
export function DiiaRefreshProgress({ shownAt, refreshIntervalMs }: DiiaRefreshProgressProps) {
  const { t } = useTranslation("auth");
  return (
    <div className="w-full max-w-[364px] space-y-2">
      <RefreshBar shownAt={shownAt} max={refreshIntervalMs} label={t("auth:diia.refreshProgress")} />
      <LastUpdated shownAt={shownAt} />
    </div>
  );
}

function RefreshBar({ shownAt, max, label }: { shownAt: number; max: number; label: string }) {
  const now = useNow(PROGRESS_TICK_MS);
  return <Progress value={Math.max(0, now - shownAt)} max={max} label={label} />;
}

function LastUpdated({ shownAt }: { shownAt: number }) {
  const { t } = useTranslation("auth");
  const seconds = Math.floor(Math.max(0, useNow(1000) - shownAt) / 1000);
  return (
    <p className="text-center text-sm text-muted-foreground" data-testid="diia-last-updated">
      {seconds < 5 ? t("auth:diia.updatedJustNow") : t("auth:diia.updatedAgo", { count: seconds })}
    </p>
  );
}

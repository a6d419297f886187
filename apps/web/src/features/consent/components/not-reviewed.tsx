import { TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";

/** An application people registered themselves that the university has not reviewed: the person is told before allowing it. */
export function NotReviewed() {
  const { t } = useTranslation("consent");
  return (
    <div
      className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950"
      role="note"
      data-testid="consent-not-reviewed"
    >
      <TriangleAlert className="mt-0.5 size-5 shrink-0" aria-hidden />
      <div className="space-y-1">
        <p className="font-medium">{t("notReviewed.title")}</p>
        <p className="text-sm">{t("notReviewed.description")}</p>
      </div>
    </div>
  );
}

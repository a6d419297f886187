import { ShieldCheck, TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";

// Reviewed: operators approved the application (or made it). Not reviewed: a community developer registered it
// and it is still in testing, so the person is told before allowing it.
const marks = {
  reviewed: {
    Icon: ShieldCheck,
    className: "border-emerald-300 bg-emerald-50 text-emerald-950",
    testId: "consent-reviewed",
  },
  notReviewed: {
    Icon: TriangleAlert,
    className: "border-amber-300 bg-amber-50 text-amber-950",
    testId: "consent-not-reviewed",
  },
} as const;

/** Whether the university reviewed the application: the same mark on the consent screen and the device page. */
export function ReviewMark({ reviewed }: { reviewed: boolean | undefined }) {
  const { t } = useTranslation("consent");
  if (reviewed === undefined) return null;
  const kind = reviewed ? "reviewed" : "notReviewed";
  const { Icon, className, testId } = marks[kind];
  return (
    <div className={`flex gap-3 rounded-lg border p-3 ${className}`} role="note" data-testid={testId}>
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden />
      <div className="space-y-1">
        <p className="font-medium">{t(`${kind}.title`)}</p>
        <p className="text-sm">{t(`${kind}.description`)}</p>
      </div>
    </div>
  );
}

import type { ServiceCertificates } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { useServiceWords } from "./service-words.ts";

/**
 * Issue 40: the certificates that end within the warning days (30) or have ended, each named with its date,
 * and what to do; destructive once one has ended. Nothing when every certificate is far from its end.
 */
export function CertificateNotice({ certificates }: { certificates: ServiceCertificates }) {
  const { t } = useTranslation("admin-service");
  const words = useServiceWords();
  const due = certificates.certificates.filter((certificate) => certificate.state !== "valid");
  const { unreadable } = certificates;
  if (due.length === 0 && unreadable.length === 0) return null;
  const ended = due.some((certificate) => certificate.state === "expired");
  return (
    <Alert
      variant={ended || unreadable.length > 0 ? "destructive" : "info"}
      title={
        ended
          ? t("admin-service:certificates.endedTitle")
          : due.length > 0
            ? t("admin-service:certificates.endingTitle", { days: certificates.warningDays })
            : t("admin-service:certificates.unreadableTitle")
      }
      testId="certificate-notice"
    >
      <ul className="list-disc space-y-1 pl-5">
        {due.map((certificate) => (
          <li key={certificate.source} className="break-words" data-testid="certificate-due">
            <span className="font-medium">{certificate.source}</span>
            {": "}
            {certificate.state === "expired"
              ? t("admin-service:certificates.ended", { date: words.day(certificate.notAfter) })
              : t("admin-service:certificates.ends", {
                  date: words.day(certificate.notAfter),
                  left: t("admin-service:units.days", { count: Math.max(certificate.daysLeft, 0) }),
                })}
          </li>
        ))}
        {unreadable.map((entry) => (
          <li key={entry.source} className="break-words" data-testid="certificate-unreadable">
            <span className="font-medium">{entry.source}</span>
            {": "}
            {t("admin-service:certificates.unreadable", { problem: entry.problem })}
          </li>
        ))}
      </ul>
      <p className="mt-2">{t("admin-service:certificates.whatToDo")}</p>
    </Alert>
  );
}

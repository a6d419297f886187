import type { WatchedRevocationList } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { useServiceWords } from "./service-words.ts";

/**
 * Issue 57: Diia's CRLs that are past their nextUpdate, each named with since when; destructive once the grace
 * has run out and Diia sign-ins are refused (fail closed). Nothing while every list is current or none is set.
 */
export function RevocationNotice({ lists }: { lists: WatchedRevocationList[] | undefined }) {
  const { t } = useTranslation("admin-service");
  const words = useServiceWords();
  const due = (lists ?? []).filter((list) => list.state !== "current");
  if (due.length === 0) return null;
  const refusing = due.some((list) => list.state === "refusing");
  return (
    <Alert
      variant={refusing ? "destructive" : "info"}
      title={t(refusing ? "admin-service:revocationLists.refusingTitle" : "admin-service:revocationLists.staleTitle")}
      testId="revocation-notice"
    >
      <ul className="list-disc space-y-1 pl-5">
        {due.map((list) => (
          <li key={list.source} className="break-words" data-testid="revocation-list-stale">
            <span className="font-medium">{list.source}</span>
            {": "}
            {list.nextUpdate === null
              ? t("admin-service:revocationLists.never")
              : t(
                  list.state === "refusing"
                    ? "admin-service:revocationLists.refusing"
                    : "admin-service:revocationLists.stale",
                  {
                    date: words.day(list.nextUpdate),
                  },
                )}
          </li>
        ))}
      </ul>
      <p className="mt-2">{t("admin-service:revocationLists.whatToDo")}</p>
    </Alert>
  );
}

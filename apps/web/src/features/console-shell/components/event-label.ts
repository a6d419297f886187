import { auditEventTypes } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";

const known = new Set<string>(auditEventTypes);

/**
 * An audit event type in words of the page's language: the audit log and a person's history share
 * these labels. A type this build does not know reads "Other event", never the bare code.
 */
export function useEventLabel(): (type: string) => string {
  const { t } = useTranslation("admin-records");
  return (type) => t(known.has(type) ? `admin-records:events.${type}` : "admin-records:events.other");
}

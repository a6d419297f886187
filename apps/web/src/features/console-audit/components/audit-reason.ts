import { authMethods } from "@kpi-id/contracts";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";

const methods = new Set<string>(authMethods);
// A profile edit's reason lists the fields it changed (admin/people-routes.ts), e.g. "email,fullName".
const profileFields = new Set(["fullName", "email", "taxId", "studentId", "employeeId"]);
// Reasons are dotted codes (`diia.unknown_person`), so they are looked up whole, not as nested keys.
const whole = { keySeparator: "/" } as const;

/**
 * An audit row's reason in the page's language: the server writes codes and short words
 * (`auth.invalid_credentials`, `PASSKEY`, `operator`, an import's `tax_id_taken`). Only text a library
 * wrote itself (an OpenID Connect or SAML error description) is shown as it came.
 */
export function useAuditReason(): (reason: string | null | undefined) => string {
  const { t, i18n } = useTranslation(["admin-records", "admin"]);
  return useCallback(
    (reason) => {
      if (!reason) return "";
      const key = `admin-records:auditReasons/${reason}`;
      if (i18n.exists(key, whole)) return t(key, whole);
      if (methods.has(reason)) return t(`admin:methods.${reason}`);
      if (i18n.exists(`admin-records:reasons.${reason}`)) return t(`admin-records:reasons.${reason}`);
      const fields = reason.split(",");
      if (fields.every((field) => profileFields.has(field))) {
        const names = fields.map((field) => t(`admin-records:auditFields.${field}`));
        return t("admin-records:auditFields.changed", { fields: names.join(", ") });
      }
      return reason;
    },
    [t, i18n],
  );
}

import type { AuthMethod, UserDataKey } from "@kpi-id/contracts";
import type { User } from "../../platform/db/schema.ts";

/** The person's fields as the ticket protocol keys them; a missing one is an empty string. */
export function profileData(user: User, authMethod: AuthMethod): Record<UserDataKey, string> {
  return {
    NAME: user.full_name,
    EMAIL: user.email ?? "",
    TAX_ID: user.tax_id ?? "",
    STUDENT_ID: user.student_id ?? "",
    EMPLOYEE_ID: user.employee_id ?? "",
    AUTH_METHOD: authMethod,
  };
}

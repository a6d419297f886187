import type { AdminMe } from "@kpi-id/contracts";

/** A helpdesk operator as GET /api/admin/me answers: below an admin, so refused an admin's Wi-Fi devices. */
export const helpdeskOperator: AdminMe = {
  username: "helpdesk",
  fullName: "Служба Підтримки",
  roles: ["helpdesk"],
  permissions: ["people.view", "people.recovery"],
};

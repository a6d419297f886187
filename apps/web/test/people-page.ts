import type { PeoplePage } from "@kpi-id/contracts";

/** The console's people list as GET /api/admin/people answers it: one student, nothing more to page to. */
export const onePersonPage: PeoplePage = {
  people: [
    {
      id: "15c9639d-e04d-4c45-a026-978f4b5097e5",
      username: "student",
      fullName: "Олена Коваленко",
      email: "olena.kovalenko@lll.kpi.ua",
      studentId: "KV-2431",
      employeeId: null,
      status: "active",
    },
  ],
  page: 1,
  hasMore: false,
  total: 1,
  totalCapped: false,
};

import type { PersonDetail } from "@kpi-id/contracts";

/** A person as the console's person screen receives them (GET /api/admin/people/{id}), with the changes given. */
export function personDetail(id: string, changes: Partial<PersonDetail> = {}): PersonDetail {
  return {
    id,
    username: "o.petrenko",
    fullName: "Петренко Олена",
    email: null,
    studentId: null,
    employeeId: null,
    status: "active",
    hasTaxId: false,
    createdAt: "2026-09-01T08:00:00.000Z",
    roles: [],
    applications: [],
    sessions: [],
    signIns: [],
    throttle: { failures: 0, lockedUntil: null },
    googleSubjects: [],
    emailVerified: false,
    secondFactor: { authenticator: false, passkeys: 0 },
    provisioning: { managed: false, externalId: null, removedAt: null },
    records: [],
    erasedAt: null,
    ...changes,
  };
}

import type { AdminMe, AdminUnits } from "@kpi-id/contracts";

/** A small tree for the console's unit tests (issue 79): a faculty with two departments, and another faculty. */
export const unitTree: AdminUnits["units"] = [
  {
    id: "5a0f7c2e-1b3d-4e5f-8a9b-0c1d2e3f4a01",
    code: "FICT",
    nameUk: "Факультет інформатики та обчислювальної техніки",
    nameEn: "Faculty of Informatics and Computer Science",
    parentId: null,
    reviewsFinal: false,
  },
  {
    id: "5a0f7c2e-1b3d-4e5f-8a9b-0c1d2e3f4a02",
    code: "FICT-CS",
    nameUk: "Кафедра обчислювальної техніки",
    nameEn: "Department of Computer Engineering",
    parentId: "5a0f7c2e-1b3d-4e5f-8a9b-0c1d2e3f4a01",
    reviewsFinal: false,
  },
  {
    id: "5a0f7c2e-1b3d-4e5f-8a9b-0c1d2e3f4a03",
    code: "FICT-IS",
    nameUk: "Кафедра інформаційних систем",
    nameEn: "",
    parentId: "5a0f7c2e-1b3d-4e5f-8a9b-0c1d2e3f4a01",
    reviewsFinal: false,
  },
  {
    id: "5a0f7c2e-1b3d-4e5f-8a9b-0c1d2e3f4a04",
    code: "FEL",
    nameUk: "Факультет електроніки",
    nameEn: "Faculty of Electronics",
    parentId: null,
    reviewsFinal: false,
  },
];

const [fict] = unitTree;

/** A faculty's unit admin as /api/admin/me answers them: no university-wide role, one role in FICT. */
export const fictUnitAdmin: AdminMe = {
  username: "i.sydorenko",
  fullName: "Сидоренко Ірина",
  roles: [],
  unitRoles: fict
    ? [{ role: "unit_admin", unit: { id: fict.id, code: fict.code, nameUk: fict.nameUk, nameEn: fict.nameEn } }]
    : [],
  permissions: [
    "console.enter",
    "people.view",
    "people.unlock",
    "people.end_sessions",
    "people.recovery",
    "people.status",
    "apps.view",
    "apps.manage",
    "audit.view",
  ],
};
